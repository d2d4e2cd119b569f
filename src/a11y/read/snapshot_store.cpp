#include "a11y/snapshot_store.h"

#include <algorithm>
#include <random>

namespace companyos::a11y {
namespace {

std::string base36(std::uint64_t value) {
  constexpr std::string_view kDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string text;
  do {
    text.insert(text.begin(), kDigits[value % 36]);
    value /= 36;
  } while (value > 0);
  return text;
}

}  // namespace

SnapshotStore::SnapshotStore(std::size_t per_window, std::size_t total)
    : per_window_(std::max<std::size_t>(per_window, 1)), total_(std::max<std::size_t>(total, 1)) {
  std::random_device random;
  std::uniform_int_distribution<int> letter(0, 25);
  for (int i = 0; i < 3; ++i) epoch_.push_back(static_cast<char>('a' + letter(random)));
}

std::string SnapshotStore::next_id() {
  std::lock_guard lock(mutex_);
  return epoch_ + base36(++counter_);
}

void SnapshotStore::put(std::shared_ptr<const Snapshot> snapshot) {
  std::lock_guard lock(mutex_);
  const std::string& window = snapshot->window.id;
  snapshots_.push_back(std::move(snapshot));
  const auto same_window = [&window](const auto& s) { return s->window.id == window; };
  auto count = static_cast<std::size_t>(
      std::count_if(snapshots_.begin(), snapshots_.end(), same_window));
  for (auto it = snapshots_.begin(); count > per_window_ && it != snapshots_.end();) {
    if (same_window(*it)) {
      it = snapshots_.erase(it);
      --count;
    } else {
      ++it;
    }
  }
  while (snapshots_.size() > total_) snapshots_.pop_front();
}

std::shared_ptr<const Snapshot> SnapshotStore::get(std::string_view snapshot_id) const {
  std::lock_guard lock(mutex_);
  for (const auto& snapshot : snapshots_) {
    if (snapshot->id == snapshot_id) return snapshot;
  }
  return nullptr;
}

Result<StoredElement> SnapshotStore::lookup(const ElementRef& ref) const {
  auto snapshot = get(ref.snapshot_id);
  if (!snapshot) {
    return make_error(ErrorCode::kStaleRef, "snapshot " + ref.snapshot_id + " is not known",
                      {{"kind", "snapshot_unknown"}, {"snapshot", ref.snapshot_id}},
                      "take a new snapshot and use its refs");
  }
  if (ref.index < 1 || static_cast<std::size_t>(ref.index) > snapshot->nodes.size()) {
    return make_error(ErrorCode::kStaleRef,
                      "snapshot " + ref.snapshot_id + " has no element e" +
                          std::to_string(ref.index),
                      {{"kind", "element_unknown"}, {"snapshot", ref.snapshot_id},
                       {"node_count", snapshot->nodes.size()}},
                      "use a ref printed by that snapshot");
  }
  const Node* node = &snapshot->nodes[static_cast<std::size_t>(ref.index - 1)];
  return StoredElement{snapshot, node, identity_of(*node)};
}

std::size_t SnapshotStore::size() const {
  std::lock_guard lock(mutex_);
  return snapshots_.size();
}

std::vector<std::shared_ptr<const Snapshot>> SnapshotStore::list() const {
  std::lock_guard lock(mutex_);
  return {snapshots_.begin(), snapshots_.end()};
}

}  // namespace companyos::a11y
