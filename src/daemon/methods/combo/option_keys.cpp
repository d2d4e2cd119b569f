#include "daemon/methods/combo/option_keys.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>
#include <utility>

#include "a11y/action_expectation.h"
#include "a11y/live_resolve.h"
#include "a11y/ref.h"
#include "a11y/vocabulary.h"
#include "core/delivery.h"
#include "daemon/methods/combo/open_list.h"

namespace companyos::daemon::methods::combo {
namespace {

using Clock = std::chrono::steady_clock;

// How often the list's selection and the combo box's name are read while they change.
constexpr std::chrono::milliseconds kReadPoll{50};

constexpr const char* kSwitchPhysicalInputOn =
    "with the setting physical_input on (the person's to switch), set-value opens the list and picks the option "
    "with the keyboard, and reads it back";

Error not_sent(Error error) { return with_delivery(std::move(error), Delivery::kNotDelivered); }
Error sent(Error error) { return with_delivery(std::move(error), Delivery::kDeliveredUnverified); }

std::uint32_t role_named(std::string_view name) { return static_cast<std::uint32_t>(a11y::role_from_name(name)); }

// The open list's items (list items under the list), in order, with their refs.
struct ListItems {
  std::vector<ListedOption> options;
  std::vector<std::string> refs;
};

ListItems items_of(const a11y::OpenSurface& list) {
  const auto& nodes = list.snapshot->nodes;
  const auto selected = a11y::state_from_name("selected");
  ListItems items;
  for (const int child : nodes[static_cast<std::size_t>(list.surface.node)].children) {
    const a11y::Node& node = nodes[static_cast<std::size_t>(child)];
    if (node.role != role_named("list item")) continue;
    items.options.push_back({node.name, selected && a11y::has_state(node.states, *selected)});
    items.refs.push_back(a11y::format_ref(list.snapshot->id, node.ref));
  }
  return items;
}

// Whether the list this combo box opened is the one found (its opener is the combo box).
bool opened_by(const a11y::OpenSurface& list, const std::string& combo_path) {
  const int opener = list.surface.opener;
  return opener >= 0 && list.snapshot->nodes[static_cast<std::size_t>(opener)].path == combo_path;
}

Status press(const a11y::KeyboardRoute& keyboard, const a11y::WindowInfo& window, std::vector<std::string_view> keys) {
  return keyboard(a11y::KeyboardTyping{.window = window,
                                       .focus_element = [] { return ok_status(); },
                                       .select_all = false,
                                       .to_end = false,
                                       .keys = std::move(keys),
                                       .text = {}});
}

// Polls `holds` until it is true or `until` passes.
template <typename Condition>
bool comes_true(Condition holds, Deadline until) {
  for (;;) {
    if (holds()) return true;
    if (Clock::now() + kReadPoll >= until) return false;
    std::this_thread::sleep_for(kReadPoll);
  }
}

// The combo box's name as read now when it is one of `names`: the combo box is found by its
// object path among the window's combo boxes so named (its identity changes with its name,
// so its old ref cannot find it).
std::optional<std::string> name_now(a11y::Observer& observer, const a11y::LiveTarget& combo,
                                    const std::vector<std::string>& names, Deadline deadline) {
  for (const std::string& name : names) {
    a11y::Selector named;
    named.app = combo.app_name;
    named.window_id = combo.window.id;
    named.role = combo.node.role;
    named.name = name;
    auto found = a11y::resolve_live(observer, named, deadline);
    if (found && found->node.path == combo.node.path) return found->node.name;
  }
  return std::nullopt;
}

}  // namespace

Result<OptionKeys> keys_to_option(const std::vector<ListedOption>& options, std::string_view label) {
  std::optional<std::size_t> option;
  std::optional<std::size_t> current;
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (options[i].name == label) {
      if (option) {
        return make_error(ErrorCode::kAmbiguousTarget, "the combo box lists several options with that label",
                          {{"kind", "identity_not_unique"}, {"label", std::string(label)}});
      }
      option = i;
    }
    if (options[i].selected) {
      if (current) {
        return make_error(ErrorCode::kActionNotSupported, "the combo box's open list has several items selected",
                          {{"kind", "list_position_unknown"}});
      }
      current = i;
    }
  }
  if (!option) {
    return make_error(ErrorCode::kElementNotFound, "the combo box has no option with that label",
                      {{"kind", "no_such_option"}}, "give the label of one of its options, exactly as listed");
  }
  if (!current) {
    return make_error(ErrorCode::kActionNotSupported, "the combo box's open list has no item selected",
                      {{"kind", "list_position_unknown"}});
  }
  const bool down = *option >= *current;
  const auto distance = down ? *option - *current : *current - *option;
  return OptionKeys{down ? "down" : "up", static_cast<int>(distance), *option};
}

Result<a11y::ActionReply> pick_option_with_keys(a11y::Observer& observer, a11y::ActionEngine& engine,
                                                const a11y::ActionRequest& request, Deadline deadline) {
  const a11y::KeyboardRoute& keyboard = request.keyboard ? request.keyboard : request.keyboard_where_needed;
  if (!keyboard) {
    return not_sent(make_error(ErrorCode::kActionNotSupported,
                               "this combo box changes its item only through its open list's keys",
                               {{"kind", "option_needs_the_keyboard"}}, kSwitchPhysicalInputOn));
  }
  const auto started = Clock::now();
  auto combo = a11y::resolve_live(observer, request.target, deadline);
  if (!combo) return not_sent(std::move(combo).take_error());
  std::optional<a11y::ExpectationCheck> expectation;
  if (request.expect) {
    expectation.emplace(observer, *request.expect, combo->window);
    if (auto baseline = expectation->before(deadline); !baseline) return not_sent(std::move(baseline).take_error());
  }

  auto opened = engine.perform(as_kind(request, a11y::ActionKind::kClick, request.target), deadline);
  if (!opened) return std::move(opened).take_error();
  auto list = open_list(observer, combo->window.id, deadline);
  if (!list || !opened_by(*list, combo->node.path)) {
    return sent(make_error(ErrorCode::kTimeout, "the combo box was clicked but its list did not open",
                           {{"kind", "list_not_opened"}}, "look at the app's state again"));
  }
  const auto close_unchanged = [&](Error why) {
    [[maybe_unused]] auto closed = press(keyboard, combo->window, {"escape"});
    return sent(std::move(why));
  };
  const ListItems items = items_of(*list);
  auto keys = keys_to_option(items.options, request.argument);
  if (!keys) return close_unchanged(std::move(keys).take_error());

  const auto delivered = Clock::now();
  const Deadline verify_until = std::min(deadline, Clock::now() + request.verify_timeout);
  if (auto moved = press(keyboard, combo->window, std::vector<std::string_view>(keys->presses, keys->key)); !moved) {
    return close_unchanged(std::move(moved).take_error());
  }
  const std::string& option_ref = items.refs[keys->option];
  const bool reached = comes_true(
      [&] {
        auto item = observer.get(option_ref, deadline);
        const auto selected = a11y::state_from_name("selected");
        return item && selected && a11y::has_state(item->node.states, *selected);
      },
      verify_until);
  if (!reached) {
    return close_unchanged(make_error(ErrorCode::kActionNotSupported,
                                      "the list's selection did not reach the option; the list was closed with Escape",
                                      {{"kind", "option_not_reached"}}, "look at the combo box's state again"));
  }
  if (auto committed = press(keyboard, combo->window, {"return"}); !committed) {
    return sent(std::move(committed).take_error());
  }

  a11y::ActionReply reply = std::move(opened).value();
  reply.kind = a11y::ActionKind::kSetValue;
  reply.route = "xtest:keyboard:list";
  reply.expectation = request.expect;
  const auto verify_started = Clock::now();
  const std::string& label = request.argument;
  std::optional<std::string> name;
  comes_true([&] { return (name = name_now(observer, *combo, {label}, deadline)).has_value(); },
             std::min(deadline, Clock::now() + request.verify_timeout));
  // What it shows instead, when that is still its old item.
  if (!name) name = name_now(observer, *combo, {combo->node.name}, deadline);
  a11y::Verification shown;
  shown.check = "name";
  shown.expected = label;
  if (name) shown.read = *name;
  shown.matched = name == label;
  reply.verification = std::move(shown);
  bool verified = reply.verification->matched;
  if (expectation) {
    reply.expectation_result = expectation->after(deadline);
    verified = verified && reply.expectation_result->met;
  }
  reply.delivery = verified ? Delivery::kDeliveredVerified : Delivery::kDeliveredUnverified;
  const auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  reply.timings.deliver_ms = ms(verify_started - delivered);
  reply.timings.verify_ms = ms(Clock::now() - verify_started);
  reply.milliseconds = ms(Clock::now() - started);
  return reply;
}

}  // namespace companyos::daemon::methods::combo
