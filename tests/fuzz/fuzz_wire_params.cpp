// The params of the element actions and of wait, as their handlers read them once the
// method table has checked them against the declaration: the lane a request queues in
// (lane_of), a bare ref bound to a stored snapshot and the action request parsed from it
// (element_action_request: bind_bare_ref, parse_action_request with its target, value and
// expectation), and the wait request (parse_wait_request, a11y::validate_condition).
// Properties: nothing outside input refuses is INTERNAL; an action request's target is a
// full ref or a selector of a named app, and a wait's condition has the form asked for.
//
// Input: {"method": <an element action or "wait">, "params": {...}} as JSON text.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "a11y/action_target.h"
#include "a11y/ref.h"
#include "a11y/snapshot_store.h"
#include "a11y/vocabulary.h"
#include "a11y/wait.h"
#include "a11y/wait/conditions.h"
#include "companyos/methods.h"
#include "daemon/methods/element_actions.h"
#include "daemon/methods/observation.h"
#include "fuzz_support.h"
#include "daemon/wire/wait_params.h"

namespace companyos::fuzz {
namespace {

using namespace companyos::a11y;

std::shared_ptr<const Snapshot> snapshot(std::string id, std::string app, std::string window_id,
                                         std::string title) {
  auto made = std::make_shared<Snapshot>();
  made->id = std::move(id);
  made->window.id = std::move(window_id);
  made->window.title = std::move(title);
  made->window.app_name = app;
  made->app_name = std::move(app);
  for (int i = 1; i <= 3; ++i) {
    Node node;
    node.ref = i;
    node.role = static_cast<std::uint32_t>(role_from_name("push button"));
    node.name = "Button " + std::to_string(i);
    made->nodes.push_back(std::move(node));
  }
  return made;
}

const SnapshotStore& snapshots() {
  static SnapshotStore store;
  static const bool filled = [] {
    store.put(snapshot("s1a", "gedit", "w00000000000a", "Untitled 1 - gedit"));
    store.put(snapshot("s1b", "gedit", "w00000000000b", "notes.txt - gedit"));
    store.put(snapshot("s1c", "mousepad", "w00000000000c", "Untitled 1 - Mousepad"));
    return true;
  }();
  (void)filled;
  return store;
}

void check_action(ActionKind kind, const nlohmann::json& params) {
  auto request = daemon::methods::element_action_request(kind, params, snapshots());
  if (!request) {
    FUZZ_CHECK(request.error().code != ErrorCode::kInternal);
    return;
  }
  if (const auto* ref = std::get_if<RefTarget>(&request->target)) {
    FUZZ_CHECK(parse_ref(ref->ref).ok());
  } else {
    FUZZ_CHECK(!std::get<Selector>(request->target).app.empty());
  }
  (void)describe(request->target);
}

void check_wait(const nlohmann::json& params) {
  auto request = wire::parse_wait_request(params);
  if (!request) {
    FUZZ_CHECK(request.error().code != ErrorCode::kInternal);
    return;
  }
  FUZZ_CHECK(validate_condition(request->condition).ok());
  FUZZ_CHECK(request->timeout.count() > 0);
  if (params.contains("ref")) FUZZ_CHECK(std::holds_alternative<ElementPredicate>(request->condition));
  if (params.contains("window")) FUZZ_CHECK(std::holds_alternative<WindowAppears>(request->condition));
  if (params.contains("text")) FUZZ_CHECK(std::holds_alternative<TextAppears>(request->condition));
  (void)condition_to_json(request->condition).dump();
}

}  // namespace
}  // namespace companyos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  const auto doc = fuzz::request_json(fuzz::as_text(data, size));
  if (!doc || !doc->is_object()) return 0;
  const auto method = doc->find("method");
  const auto params = doc->find("params");
  if (method == doc->end() || !method->is_string() || params == doc->end() || !params->is_object()) {
    return 0;
  }
  const std::string name = method->get<std::string>();
  const methods::MethodDeclaration* declaration = methods::find(name);
  if (declaration == nullptr || !methods::check_params(*declaration, *params)) return 0;

  (void)daemon::methods::lane_of(*params, fuzz::snapshots());
  if (const auto kind = daemon::methods::element_action_kind(name)) {
    fuzz::check_action(*kind, *params);
  } else if (name == "wait") {
    fuzz::check_wait(*params);
  }
  return 0;
}
