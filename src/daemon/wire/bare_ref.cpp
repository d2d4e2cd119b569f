#include "daemon/wire/bare_ref.h"

#include "a11y/apps.h"

#include <set>
#include <string>

namespace companyos::wire {
namespace {

constexpr const char* kWindowKeys[] = {"app", "window", "title"};

const std::string* string_at(const nlohmann::json& params, const char* key) {
  const auto found = params.find(key);
  if (found == params.end() || !found->is_string()) return nullptr;
  return found->get_ptr<const std::string*>();
}


Error pass_snapshot(std::string message) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), {{"param", "snapshot"}},
                    "pass --snapshot ID (the id a snapshot printed), or use the full ref "
                    "@<snapshot>:e<N>");
}

}  // namespace

Result<nlohmann::json> bind_bare_ref(const nlohmann::json& params,
                                     std::span<const std::shared_ptr<const a11y::Snapshot>> stored) {
  const std::string* ref = string_at(params, "ref");
  const std::string* app = string_at(params, "app");
  if (ref == nullptr || ref->starts_with('@') || params.contains("snapshot") || app == nullptr) {
    return params;
  }
  const std::string* window = string_at(params, "window");
  const std::string* title = string_at(params, "title");
  std::shared_ptr<const a11y::Snapshot> newest;
  std::set<std::string> windows;
  for (const auto& snapshot : stored) {
    // The whole name: a C-string compare would let "gedit\0x" bind to gedit's snapshot.
    if (!a11y::app_name_matches(snapshot->app_name, *app)) continue;
    if (window != nullptr && snapshot->window.id != *window) continue;
    if (title != nullptr && snapshot->window.title != *title) continue;
    windows.insert(snapshot->window.id);
    newest = snapshot;
  }
  if (!newest) {
    return pass_snapshot("no snapshot of that window of app " + *app +
                         " is known, so the bare ref " + *ref + " names nothing");
  }
  if (windows.size() > 1) {
    return pass_snapshot("snapshots of " + std::to_string(windows.size()) + " windows of app " +
                         *app + " are known; the bare ref " + *ref + " could mean any of them");
  }
  nlohmann::json bound = params;
  for (const char* key : kWindowKeys) bound.erase(key);
  bound["snapshot"] = newest->id;
  return bound;
}

}  // namespace companyos::wire
