// The observation engine's entry point: apps, windows, snapshots, find and get.
// Every method is synchronous, bounded by its deadline, and safe to call from several
// threads at once; each drives its D-Bus calls on a private main context, and no lock is
// held while waiting on an app, so a hung app only costs calls about that app.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "a11y/apps.h"
#include "a11y/bus.h"
#include "a11y/cell_address.h"
#include "a11y/model.h"
#include "a11y/read/snapshot.h"
#include "a11y/selection.h"
#include "a11y/snapshot_store.h"
#include "a11y/surfaces.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

struct ObserverOptions {
  std::chrono::milliseconds per_app_budget{80};  // for listing apps and windows
  std::size_t snapshots_per_window = 8;
  std::size_t snapshots_total = 32;
  SnapshotOptions snapshot;
};

// find: every given criterion must hold; each compares exactly (case-sensitive unless
// ignore_case). Role is a role name as printed ("push button").
struct FindQuery {
  WindowQuery target;  // target.window_id / title unset: every window of the app
  std::optional<std::string> role;
  std::optional<std::string> name;
  std::optional<std::string> accessible_id;
  bool ignore_case = false;
  // The cell at this address of each table the other criteria match (with none of them:
  // of every table), shown or not; a match that is no table has none.
  std::optional<CellAddress> cell;
};

struct FoundElement {
  std::string ref;
  std::shared_ptr<const Snapshot> snapshot;
  const Node* node = nullptr;  // into *snapshot
};

// A ref resolved against the live window: exactly one element has its identity now.
struct ResolvedElement {
  StoredElement stored;
  std::string bus_name;
  std::string path;
};

struct ElementDetails {
  std::string ref;
  WindowInfo window;
  Node node;                        // freshly read; refs and twins are not recomputed
  std::optional<std::string> text;  // the Text content (never for password text)
  // A spreadsheet cell's formula ("=A1*2"), where the app exposes it; formula_cut: it gave
  // only part of it (LibreOffice's attribute ends at a ":" or ";").
  std::optional<std::string> formula;
  bool formula_cut = false;
};

// A menu, list or tooltip open now, in its window's stored snapshot (refs act on its items).
struct OpenSurface {
  std::shared_ptr<const Snapshot> snapshot;
  Surface surface;
};

// The surfaces of that kind (all when nullopt), in the order found.
std::vector<OpenSurface> of_kind(std::vector<OpenSurface> open, std::optional<SurfaceKind> kind);

// How the accessibility bus answers, for `status`: the bus, its registry, and how many
// apps the registry lists (its own child count: one call, whatever state the apps are in).
struct BusHealth {
  bool bus = false;
  bool registry = false;
  std::optional<int> apps;
  // org.a11y.Status.IsEnabled on the session bus: Qt registers, and Chromium and Firefox
  // fill their trees, only when it is true (or when told to by their own switches);
  // nullopt when it could not be read.
  std::optional<bool> enabled;
  std::optional<std::string> error;  // why the bus or the registry did not answer
};

class Observer {
 public:
  explicit Observer(ObserverOptions options = {});

  // BUS_UNAVAILABLE unless the accessibility bus answers and the registry is running.
  Status probe(Deadline deadline);
  BusHealth bus_health(Deadline deadline);
  Result<std::vector<AppInfo>> apps(Deadline deadline);
  // Windows of every app, or of the apps named app (APP_NOT_FOUND, POLICY_DENIED,
  // APP_UNRESPONSIVE as for a snapshot). `not_listed`, when given, gets how many windows
  // those apps have past kMaxWindowsPerApp, counted but not listed.
  Result<std::vector<WindowInfo>> windows(const std::optional<std::string>& app, Deadline deadline,
                                          std::size_t* not_listed = nullptr);
  // Takes, numbers and stores a snapshot of exactly one window.
  Result<std::shared_ptr<const Snapshot>> snapshot(const WindowQuery& query, Deadline deadline);
  // Takes, numbers and stores a snapshot of the subtree under the element REF names (in a
  // window of QUERY's app, and the window QUERY names if it names one; INVALID_ARGS
  // otherwise): a window past the node budget is read a part at a time, each part with the
  // whole budget. Its twins are counted in the part; an action still checks the window.
  Result<std::shared_ptr<const Snapshot>> snapshot_within(const WindowQuery& query, std::string_view ref,
                                                          Deadline deadline);
  Result<std::vector<FoundElement>> find(const FindQuery& query, Deadline deadline);
  // The surfaces open in the window the query names, or in every window of its app; each
  // window read is stored as a snapshot.
  Result<std::vector<OpenSurface>> surfaces(const WindowQuery& query, Deadline deadline);
  // The surfaces open in one window already listed (WINDOW_NOT_FOUND once it is gone).
  Result<std::vector<OpenSurface>> surfaces_in(const WindowInfo& window, Deadline deadline);
  // STALE_REF (details.kind: snapshot_unknown, element_unknown, window_gone,
  // saved_ref_absent) or AMBIGUOUS_TARGET (identity_not_unique) unless exactly one live
  // element of the ref's window has the ref's identity.
  Result<ResolvedElement> resolve(std::string_view ref, Deadline deadline);
  Result<ElementDetails> get(std::string_view ref, Deadline deadline);

  SnapshotStore& store() { return store_; }
  Bus& bus() { return bus_; }

 private:
  Result<std::vector<AppInfo>> apps_named(const std::string& name, Deadline deadline);
  Result<WindowInfo> one_window(const WindowQuery& query, Deadline deadline);
  Result<std::vector<WindowInfo>> target_windows(const WindowQuery& query, Deadline deadline);
  std::shared_ptr<const Snapshot> keep(Snapshot read);  // numbered and stored

  ObserverOptions options_;
  Bus bus_;
  SnapshotStore store_;
};


}  // namespace companyos::a11y
