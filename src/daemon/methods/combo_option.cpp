#include "daemon/methods/combo_option.h"

#include <array>
#include <chrono>
#include <string_view>
#include <thread>
#include <variant>

#include "a11y/live_resolve.h"
#include "a11y/ref.h"
#include "a11y/vocabulary.h"
#include "core/delivery.h"

namespace companyos::daemon::methods {
namespace {

using a11y::ActionKind;

// How often an opened combo box is looked at for its list.
constexpr std::chrono::milliseconds kListPoll{50};

// The roles an option of a combo box has: GTK 3's, Gecko's and Chromium's menu items, Qt's
// list items.
constexpr std::string_view kQtOptionRole = "list item";
constexpr std::array<std::string_view, 2> kOptionRoles = {"menu item", kQtOptionRole};

// A selector for the option labelled `label` with `role`, under the combo box `combo`.
Result<a11y::Selector> option_under(a11y::Observer& observer, const a11y::ActionTarget& combo,
                                    std::string_view role, const std::string& label) {
  a11y::Selector option;
  option.role = static_cast<std::uint32_t>(a11y::role_from_name(role));
  option.name = label;
  if (const auto* ref = std::get_if<a11y::RefTarget>(&combo)) {
    auto parsed = a11y::parse_ref(ref->ref);
    if (!parsed) return std::move(parsed).take_error();
    const auto stored = observer.store().lookup(*parsed);
    if (!stored) {
      return make_error(ErrorCode::kStaleRef, "the combo box's snapshot is no longer kept", {{"ref", ref->ref}},
                        "take a new snapshot and use its ref");
    }
    option.app = stored->snapshot->app_name;
    option.window_id = stored->snapshot->window.id;
    option.within = ref->ref;
    return option;
  }
  const auto& selector = std::get<a11y::Selector>(combo);
  option.app = selector.app;
  option.window_id = selector.window_id;
  option.title = selector.title;
  option.within_element = a11y::ScopeSelector{selector.role, selector.name, selector.accessible_id};
  return option;
}

// The caller's request as another kind on another target; the caller's expectation goes
// with the pick (a select), never with the click that opens the list.
a11y::ActionRequest as_kind(const a11y::ActionRequest& request, ActionKind kind, a11y::ActionTarget target) {
  a11y::ActionRequest changed;
  changed.kind = kind;
  changed.target = std::move(target);
  if (kind == ActionKind::kSelect) changed.expect = request.expect;
  changed.strict = request.strict;
  changed.verify_timeout = request.verify_timeout;
  changed.answer_timeout = request.answer_timeout;
  changed.caller_gone = request.caller_gone;
  return changed;
}

bool needs_open_list(const Error& error) {
  return error.code == ErrorCode::kActionNotSupported &&
         error.details.value("kind", std::string()) == "option_needs_open_list";
}

std::uint32_t combo_box_role() { return static_cast<std::uint32_t>(a11y::role_from_name("combo box")); }

// The open drop-down list of the window, as a ref (a list, or a menu a combo box opens, with
// an item showing), once one shows; nullopt at the deadline.
std::optional<std::string> open_list(a11y::Observer& observer, const std::string& window_id, Deadline deadline) {
  for (;;) {
    if (const auto window = observer.bus().known_window(window_id)) {
      if (auto open = observer.surfaces_in(*window, deadline)) {
        for (const a11y::OpenSurface& found : *open) {
          // Gecko's copy of an open <select> is a menu under a combo box of its own.
          const auto& surface = found.surface;
          const bool under_a_combo_box =
              surface.opener >= 0 &&
              found.snapshot->nodes[static_cast<std::size_t>(surface.opener)].role == combo_box_role();
          if (surface.items == 0 || (surface.kind != a11y::SurfaceKind::kList && !under_a_combo_box)) continue;
          const auto& node = found.snapshot->nodes[static_cast<std::size_t>(surface.node)];
          return a11y::format_ref(found.snapshot->id, node.ref);
        }
      }
    }
    if (std::chrono::steady_clock::now() + kListPoll >= deadline) return std::nullopt;
    std::this_thread::sleep_for(kListPoll);
  }
}

// The combo box clicked open, then the option's copy in its open list picked.
Result<a11y::ActionReply> pick_from_open_list(a11y::Observer& observer, a11y::ActionEngine& engine,
                                              const a11y::ActionRequest& request, Deadline deadline) {
  auto opened = engine.perform(as_kind(request, ActionKind::kClick, request.target), deadline);
  if (!opened) return std::move(opened).take_error();
  const auto list = open_list(observer, opened->target.window_id, deadline);
  if (!list) {
    return with_delivery(make_error(ErrorCode::kTimeout, "the combo box was clicked but no list opened",
                                    {{"kind", "list_not_opened"}}, "look at the app's state again"),
                         Delivery::kDeliveredUnverified);
  }
  a11y::Selector copy;
  copy.app = opened->target.app;
  copy.window_id = opened->target.window_id;
  copy.role = static_cast<std::uint32_t>(a11y::role_from_name("menu item"));
  copy.name = request.argument;
  copy.within = *list;
  auto picked = engine.perform(as_kind(request, ActionKind::kSelect, copy), deadline);
  if (!picked) {
    // The list stays open otherwise; a second click on the combo box closes it.
    [[maybe_unused]] auto closed = engine.perform(as_kind(request, ActionKind::kClick, request.target), deadline);
    return with_delivery(std::move(picked).take_error(), Delivery::kDeliveredUnverified);
  }
  return picked;
}

}  // namespace

bool is_combo_box_refusal(const Error& error) {
  return error.code == ErrorCode::kActionNotSupported &&
         error.details.value("kind", std::string()) == "no_semantic_route" &&
         error.details.value("role", std::string()) == "combo box";
}

Result<a11y::ActionReply> pick_combo_option(a11y::Observer& observer, a11y::ActionEngine& engine,
                                            const a11y::ActionRequest& request, Deadline deadline) {
  for (const std::string_view role : kOptionRoles) {
    auto option = option_under(observer, request.target, role, request.argument);
    if (!option) return with_delivery(std::move(option).take_error(), Delivery::kNotDelivered);
    if (role == kQtOptionRole) {
      // Qt's item view takes the selection, but the combo box keeps its current item: a
      // pick there would be reported and not be true.
      auto found = a11y::resolve_live(observer, *option, deadline);
      if (!found && found.error().code == ErrorCode::kElementNotFound) continue;
      if (!found) return with_delivery(std::move(found).take_error(), Delivery::kNotDelivered);
      return with_delivery(make_error(ErrorCode::kActionNotSupported,
                                      "not built: picking an option of this combo box (a Qt combo box keeps its "
                                      "current item when its list's item is selected)",
                                      {{"kind", "combo_option_not_built"}},
                                      "open it (click) and choose the option with the keyboard"),
                           Delivery::kNotDelivered);
    }
    auto picked = engine.perform(as_kind(request, ActionKind::kSelect, *option), deadline);
    if (picked) {
      picked->kind = ActionKind::kSetValue;
      return picked;
    }
    if (needs_open_list(picked.error())) {
      auto from_list = pick_from_open_list(observer, engine, request, deadline);
      if (from_list) from_list->kind = ActionKind::kSetValue;
      return from_list;
    }
    if (picked.error().code != ErrorCode::kElementNotFound) return picked;
  }
  return with_delivery(make_error(ErrorCode::kElementNotFound, "the combo box has no option with that label",
                                  {{"kind", "no_such_option"}},
                                  "give the label of one of its options, exactly as listed"),
                       Delivery::kNotDelivered);
}

}  // namespace companyos::daemon::methods
