#include "x11/keyboard.h"

#include <array>
#include <cstdio>
#include <vector>

#include "core/text.h"
#include "x11/capabilities.h"
#include "x11/error_trap.h"
#include "x11/extension_lock.h"
#include "x11/keymap_remap.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

// The keysyms a modifier may sit on, preferred first.
struct ModifierKeys {
  const char* name;
  std::array<Keysym, 2> keysyms;
};
constexpr ModifierKeys kCtrlKeys{"ctrl", {XK_Control_L, XK_Control_R}};
constexpr ModifierKeys kAltKeys{"alt", {XK_Alt_L, XK_Meta_L}};
constexpr ModifierKeys kShiftKeys{"shift", {XK_Shift_L, XK_Shift_R}};
constexpr ModifierKeys kSuperKeys{"super", {XK_Super_L, XK_Super_R}};

Result<unsigned> modifier_keycode(const KeymapRemap& keymap, const ModifierKeys& modifier) {
  for (Keysym keysym : modifier.keysyms) {
    if (auto stroke = keymap.find(keysym); stroke && !stroke->shift) return stroke->keycode;
  }
  return make_error(ErrorCode::kPlatformNotSupported,
                    std::string("the keymap has no ") + modifier.name + " key",
                    {{"modifier", modifier.name}});
}

Status delivered_or_error(ErrorTrap& trap, const char* what, nlohmann::json details, Retry retry) {
  if (auto error = trap.sync()) {
    return make_error(ErrorCode::kInternal, std::string(what) + ": " + error->text,
                      std::move(details), {}, retry);
  }
  return ok_status();
}

void fake_key(Display* display, unsigned keycode, bool press) {
  const auto lock = lock_extension_state();
  XTestFakeKeyEvent(display, keycode, press ? True : False, CurrentTime);
}

std::string code_point_label(char32_t code_point) {
  std::array<char, 16> label{};
  std::snprintf(label.data(), label.size(), "U+%04X", static_cast<unsigned>(code_point));
  return label.data();
}

// The keysym of each character, or why one cannot be typed.
Result<std::vector<Keysym>> keysyms_of(std::string_view text) {
  const auto code_points = decode_utf8(text);
  if (!code_points) {
    return make_error(ErrorCode::kInvalidArgs, "the text is not valid UTF-8");
  }
  std::vector<Keysym> keysyms;
  for (std::size_t i = 0; i < code_points->size(); ++i) {
    auto keysym = keysym_for_code_point((*code_points)[i]);
    if (!keysym) {
      const std::string label = code_point_label((*code_points)[i]);
      return make_error(ErrorCode::kInvalidArgs,
                        "the text holds control character " + label + ", which cannot be typed",
                        {{"character", label}, {"index", i}});
    }
    keysyms.push_back(*keysym);
  }
  return keysyms;
}

}  // namespace

Status send_key_chord(Connection& connection, const KeyChord& chord) {
  if (auto xtest = require_xtest(connection); !xtest) return xtest;
  KeymapRemap keymap(connection);
  if (auto loaded = keymap.load(); !loaded) return loaded;

  auto key = keymap.stroke_for(chord.key);
  if (!key) return std::move(key).take_error();
  Modifiers held = chord.modifiers;
  held.shift = held.shift || key->shift;

  std::vector<unsigned> modifiers;
  for (const auto& [wanted, keys] :
       {std::pair{held.ctrl, &kCtrlKeys}, std::pair{held.alt, &kAltKeys},
        std::pair{held.shift, &kShiftKeys}, std::pair{held.super, &kSuperKeys}}) {
    if (!wanted) continue;
    auto keycode = modifier_keycode(keymap, *keys);
    if (!keycode) return std::move(keycode).take_error();
    modifiers.push_back(*keycode);
  }

  Display* display = connection.display();
  ErrorTrap trap(display);
  for (unsigned keycode : modifiers) fake_key(display, keycode, true);
  fake_key(display, key->keycode, true);
  fake_key(display, key->keycode, false);
  for (auto it = modifiers.rbegin(); it != modifiers.rend(); ++it) fake_key(display, *it, false);
  auto delivered = delivered_or_error(trap, "the X server rejected the key events",
                                      {{"chord", to_string(chord)}}, Retry::kUnsafe);
  keymap.mark_used(*key);
  return delivered;
}

Status check_typable(std::string_view text) {
  auto keysyms = keysyms_of(text);
  if (!keysyms) return std::move(keysyms).take_error();
  return ok_status();
}

Status type_text(Connection& connection, std::string_view text) {
  auto typable = keysyms_of(text);
  if (!typable) return std::move(typable).take_error();
  const std::vector<Keysym>& keysyms = *typable;
  if (auto xtest = require_xtest(connection); !xtest) return xtest;
  KeymapRemap keymap(connection);
  if (auto loaded = keymap.load(); !loaded) return loaded;
  auto shift = modifier_keycode(keymap, kShiftKeys);

  Display* display = connection.display();
  for (std::size_t typed = 0; typed < keysyms.size(); ++typed) {
    // Says how far typing got; retrying is safe only if nothing was typed yet.
    const auto stopped_after = [typed](Error error) {
      error.details["typed"] = typed;
      error.retry = typed == 0 ? Retry::kSafe : Retry::kUnsafe;
      return error;
    };
    auto stroke = keymap.stroke_for(keysyms[typed]);
    if (!stroke) return stopped_after(std::move(stroke).take_error());
    if (stroke->shift && !shift) return stopped_after(shift.error());
    ErrorTrap trap(display);
    if (stroke->shift) fake_key(display, *shift, true);
    fake_key(display, stroke->keycode, true);
    fake_key(display, stroke->keycode, false);
    if (stroke->shift) fake_key(display, *shift, false);
    auto delivered = delivered_or_error(trap, "the X server rejected the key events",
                                        {{"typed", typed}}, Retry::kUnsafe);
    if (!delivered) return delivered;
    keymap.mark_used(*stroke);
  }
  return ok_status();
}

}  // namespace companyos::x11
