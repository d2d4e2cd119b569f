#include "desktop/keyboard_typing.h"

#include <mutex>

#include "core/delivery.h"
#include "desktop/input_lock.h"
#include "desktop/target_window.h"
#include "desktop/window_input.h"
#include "desktop/window_resolver.h"
#include "x11/activation.h"
#include "x11/key_chord.h"
#include "x11/keyboard.h"
#include "x11/keysyms.h"
#include "x11/windows.h"

namespace companyos::desktop {
namespace {

Error nothing_typed(Error error) { return with_delivery(std::move(error), Delivery::kNotDelivered); }
Error some_typed(Error error) { return with_delivery(std::move(error), Delivery::kDeliveredUnverified); }

Status confirm_active(x11::Connection& connection, x11::WindowId xid) {
  auto active = x11::active_window(connection);
  if (active && *active && **active == xid) return ok_status();
  return nothing_typed(make_error(ErrorCode::kPolicyDenied, "the element's window did not stay active; nothing was typed",
                                  {{"reason", "not_active"}}, "close whatever holds the focus, then retry"));
}

x11::KeyChord chord(x11::Keysym key, bool ctrl) {
  x11::KeyChord result;
  result.modifiers.ctrl = ctrl;
  result.key = key;
  return result;
}

Status type_into(const a11y::KeyboardTyping& typing) {
  if (auto st = require_x11_session("typing with --headed"); !st) return nothing_typed(std::move(st).take_error());
  auto connection = x11::Connection::open();
  if (!connection) return nothing_typed(std::move(connection).take_error());
  auto clients = x11::list_windows(*connection);
  if (!clients) return nothing_typed(std::move(clients).take_error());
  const x11::WindowInfo* client = match_x11_window(typing.window, *clients);
  if (client == nullptr) {
    return nothing_typed(make_error(ErrorCode::kWindowNotFound,
                                    "cannot pair window \"" + typing.window.title + "\" with exactly one X11 window",
                                    {{"window", typing.window.id}}));
  }
  const x11::WindowId xid = client->id;

  std::lock_guard lock(physical_input_mutex());
  if (auto st = x11::activate_window(*connection, xid); !st) return nothing_typed(std::move(st).take_error());
  if (auto st = confirm_active(*connection, xid); !st) return st;
  if (auto focused = typing.focus_element(); !focused) return nothing_typed(std::move(focused).take_error());
  if (auto st = confirm_active(*connection, xid); !st) return st;

  // ctrl+a and ctrl+End only select or move: nothing is changed until the text is typed.
  if (typing.select_all || typing.to_end) {
    const auto keysym = typing.select_all ? x11::keysym_for_code_point(U'a') : x11::friendly_keysym("end");
    if (auto st = x11::send_key_chord(*connection, chord(*keysym, true)); !st) {
      return nothing_typed(std::move(st).take_error());
    }
  }
  bool sent_a_key = typing.select_all || typing.to_end;
  for (const std::string_view name : typing.keys) {
    const auto keysym = x11::friendly_keysym(name);
    if (!keysym) {
      Error unknown = make_error(ErrorCode::kInvalidArgs, "no key is named \"" + std::string(name) + "\"");
      return sent_a_key ? some_typed(std::move(unknown)) : nothing_typed(std::move(unknown));
    }
    if (auto st = x11::send_key_chord(*connection, chord(*keysym, false)); !st) {
      return sent_a_key ? some_typed(std::move(st).take_error()) : nothing_typed(std::move(st).take_error());
    }
    sent_a_key = true;
  }
  if (typing.text.empty()) {
    if (!typing.select_all) return ok_status();
    // Nothing to type over the selection: delete it.
    if (auto st = x11::send_key_chord(*connection, chord(*x11::friendly_keysym("backspace"), false)); !st) {
      return some_typed(std::move(st).take_error());
    }
    return ok_status();
  }
  return type_while_active(*connection, xid, typing.text);
}

}  // namespace

a11y::KeyboardRoute keyboard_typing() { return &type_into; }

}  // namespace companyos::desktop
