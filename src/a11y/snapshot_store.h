// Recent snapshots, kept so refs can be resolved later: at most per_window snapshots of
// each window and total snapshots overall, oldest evicted first. Thread-safe.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "a11y/model.h"
#include "a11y/read/identity.h"
#include "a11y/ref.h"
#include "companyos/result.h"

namespace companyos::a11y {

// What a ref pointed at when its snapshot was taken.
struct StoredElement {
  std::shared_ptr<const Snapshot> snapshot;
  const Node* node = nullptr;  // points into *snapshot
  Identity identity;
};

class SnapshotStore {
 public:
  explicit SnapshotStore(std::size_t per_window = 8, std::size_t total = 32);

  // A short id unused by this store: a random 3-letter epoch per store plus a counter
  // in base 36, so refs from an earlier daemon run never resolve in this one.
  std::string next_id();
  void put(std::shared_ptr<const Snapshot> snapshot);
  std::shared_ptr<const Snapshot> get(std::string_view snapshot_id) const;
  // STALE_REF (details.kind snapshot_unknown / element_unknown) when the snapshot was
  // evicted or never existed, or N is outside it.
  Result<StoredElement> lookup(const ElementRef& ref) const;
  std::size_t size() const;
  // Every stored snapshot, oldest first.
  std::vector<std::shared_ptr<const Snapshot>> list() const;

 private:
  const std::size_t per_window_;
  const std::size_t total_;
  mutable std::mutex mutex_;
  std::deque<std::shared_ptr<const Snapshot>> snapshots_;  // oldest first
  std::string epoch_;
  std::uint64_t counter_ = 0;
};

}  // namespace companyos::a11y
