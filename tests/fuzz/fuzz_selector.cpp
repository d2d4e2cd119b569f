// Refs and window selectors as requests name elements and windows: parse_ref and
// format_ref; select_apps and select_window over a fixed desktop (two apps whose names
// differ only in case, a password manager, an app that did not answer); and a bare ref
// bound to the newest stored snapshot of the window named (bind_bare_ref). Properties: a
// parsed ref formats back to a ref that parses to itself; a window selected belongs to an
// app of the name asked for and has the id or title asked for; a password manager is never
// selected; an app that did not answer is never passed over silently; a bare ref is bound
// only to a snapshot of the app and window named.
//
// Input: four lines: a ref, an app name, a window id, a title (empty: not given).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "a11y/apps.h"
#include "a11y/model.h"
#include "a11y/policy.h"
#include "a11y/ref.h"
#include "a11y/selection.h"
#include "fuzz_support.h"
#include "daemon/wire/bare_ref.h"

namespace companyos::fuzz {
namespace {

using namespace companyos::a11y;

WindowInfo window(std::string id, std::string title, const std::string& app) {
  WindowInfo info;
  info.id = std::move(id);
  info.title = std::move(title);
  info.role = "frame";
  info.app_name = app;
  info.bus_name = ":1." + app;
  info.path = "/org/a11y/atspi/accessible/1";
  info.pid = 100;
  return info;
}

AppInfo app(std::string name, std::vector<WindowInfo> windows, bool responsive = true,
            bool denied = false) {
  AppInfo info;
  info.name = std::move(name);
  info.bus_name = ":1." + info.name;
  info.pid = 100;
  info.responsive = responsive;
  info.policy_denied = denied;
  info.windows = std::move(windows);
  return info;
}

const std::vector<AppInfo>& desktop() {
  static const std::vector<AppInfo> apps = {
      app("gedit", {window("w00000000000a", "Untitled 1 - gedit", "gedit"),
                    window("w00000000000b", "notes.txt - gedit", "gedit")}),
      app("GEdit", {window("w00000000000c", "notes.txt - gedit", "GEdit")}),
      app("mousepad", {window("w00000000000d", "Untitled 1 - Mousepad", "mousepad")}),
      app("KeePassXC", {}, true, /*denied=*/true),
      app("hung", {window("w00000000000e", "Hung", "hung")}, /*responsive=*/false),
      app("", {window("w00000000000f", "", "")}),
  };
  return apps;
}

std::shared_ptr<const Snapshot> snapshot(std::string id, const WindowInfo& of) {
  auto made = std::make_shared<Snapshot>();
  made->id = std::move(id);
  made->window = of;
  made->app_name = of.app_name;
  made->bus_name = of.bus_name;
  Node root;
  root.ref = 1;
  root.name = of.title;
  made->nodes.push_back(root);
  return made;
}

const std::vector<std::shared_ptr<const Snapshot>>& stored() {
  static const std::vector<std::shared_ptr<const Snapshot>> snapshots = {
      snapshot("s1a", desktop()[0].windows[0]),
      snapshot("s1b", desktop()[0].windows[1]),
      snapshot("s1c", desktop()[2].windows[0]),
      snapshot("s1d", desktop()[0].windows[0]),
  };
  return snapshots;
}

void check_ref(const std::string& text) {
  auto ref = parse_ref(text);
  if (!ref) {
    FUZZ_CHECK(ref.error().code == ErrorCode::kInvalidArgs);
    return;
  }
  FUZZ_CHECK(is_valid_snapshot_id(ref->snapshot_id));
  FUZZ_CHECK(ref->index >= 1);
  auto again = parse_ref(format_ref(ref->snapshot_id, ref->index));
  FUZZ_CHECK(again.ok() && *again == *ref);
}

void check_selection(const WindowQuery& query) {
  auto apps = select_apps(desktop(), query.app);
  if (!apps) {
    FUZZ_CHECK(apps.error().code != ErrorCode::kInternal);
    return;
  }
  FUZZ_CHECK(!is_password_manager(query.app));
  bool any_unresponsive = false;
  for (const AppInfo* selected : *apps) {
    FUZZ_CHECK(app_name_matches(selected->name, query.app));
    FUZZ_CHECK(!selected->policy_denied);
    any_unresponsive = any_unresponsive || !selected->responsive;
  }
  auto chosen = select_window(*apps, query);
  if (!chosen) {
    FUZZ_CHECK(chosen.error().code != ErrorCode::kInternal);
    return;
  }
  FUZZ_CHECK(app_name_matches(chosen->app_name, query.app));
  if (query.window_id) FUZZ_CHECK(chosen->id == *query.window_id);
  if (!query.window_id && query.title) FUZZ_CHECK(chosen->title == *query.title);
  // Without an id that picks one window, a hung app could hide a match: no guess then.
  if (any_unresponsive) FUZZ_CHECK(query.window_id.has_value());
}

void check_bare_ref(const std::string& ref, const WindowQuery& query) {
  nlohmann::json params = {{"ref", ref}, {"app", query.app}};
  if (query.window_id) params["window"] = *query.window_id;
  if (query.title) params["title"] = *query.title;
  auto bound = wire::bind_bare_ref(params, stored());
  if (!bound) {
    FUZZ_CHECK(bound.error().code == ErrorCode::kInvalidArgs);
    return;
  }
  if (*bound == params) return;  // not a bare ref: nothing to bind
  FUZZ_CHECK(bound->contains("snapshot") && !bound->contains("app"));
  const std::string id = (*bound)["snapshot"].get<std::string>();
  for (const auto& snapshot : stored()) {
    if (snapshot->id != id) continue;
    FUZZ_CHECK(app_name_matches(snapshot->app_name, query.app));
    if (query.window_id) FUZZ_CHECK(snapshot->window.id == *query.window_id);
    if (query.title) FUZZ_CHECK(snapshot->window.title == *query.title);
  }
}

}  // namespace
}  // namespace companyos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  const auto lines = fuzz::fields(fuzz::as_text(data, size), 4);
  fuzz::check_ref(lines[0]);
  a11y::WindowQuery query;
  query.app = lines[1];
  if (!lines[2].empty()) query.window_id = lines[2];
  if (!lines[3].empty()) query.title = lines[3];
  fuzz::check_selection(query);
  // Bare refs come in JSON params, whose strings are UTF-8 (NUL included, as \u0000).
  bool utf8 = true;
  for (const std::string& line : lines) utf8 = utf8 && is_valid_utf8(line);
  if (utf8) fuzz::check_bare_ref(lines[0], query);
  return 0;
}
