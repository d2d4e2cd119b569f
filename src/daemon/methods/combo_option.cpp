#include "daemon/methods/combo_option.h"

#include <array>
#include <string_view>
#include <variant>

#include "a11y/live_resolve.h"
#include "a11y/ref.h"
#include "a11y/vocabulary.h"
#include "core/delivery.h"
#include "daemon/methods/combo/open_list.h"
#include "daemon/methods/combo/option_keys.h"

namespace companyos::daemon::methods {
namespace {

using a11y::ActionKind;

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

bool needs_open_list(const Error& error) {
  return error.code == ErrorCode::kActionNotSupported &&
         error.details.value("kind", std::string()) == "option_needs_open_list";
}

// The combo box clicked open, then the option's copy in its open list picked.
Result<a11y::ActionReply> pick_from_open_list(a11y::Observer& observer, a11y::ActionEngine& engine,
                                              const a11y::ActionRequest& request, Deadline deadline) {
  auto opened = engine.perform(combo::as_kind(request, ActionKind::kClick, request.target), deadline);
  if (!opened) return std::move(opened).take_error();
  const auto list = combo::open_list(observer, opened->target.window_id, deadline);
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
  copy.within = a11y::format_ref(list->snapshot->id,
                                 list->snapshot->nodes[static_cast<std::size_t>(list->surface.node)].ref);
  auto picked = engine.perform(combo::as_kind(request, ActionKind::kSelect, copy), deadline);
  if (!picked) {
    // The list stays open otherwise; a second click on the combo box closes it.
    [[maybe_unused]] auto closed = engine.perform(combo::as_kind(request, ActionKind::kClick, request.target), deadline);
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
      // Qt's item view takes the selection, but the combo box keeps its current item: only
      // the open list's keys change it.
      auto found = a11y::resolve_live(observer, *option, deadline);
      if (!found && found.error().code == ErrorCode::kElementNotFound) continue;
      if (!found) return with_delivery(std::move(found).take_error(), Delivery::kNotDelivered);
      return combo::pick_option_with_keys(observer, engine, request, deadline);
    }
    auto picked = engine.perform(combo::as_kind(request, ActionKind::kSelect, *option), deadline);
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
