#include "x11/keymap_remap.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "x11/client_ping.h"
#include "x11/error_trap.h"
#include "x11/windows.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

// Xlib queues a MappingNotify for every keymap change, ours included; handing them to
// XRefreshKeyboardMapping keeps Xlib's own keymap cache current and the queue short.
void refresh_from_mapping_notifies(Display* display) {
  XEvent event{};
  while (XCheckTypedEvent(display, MappingNotify, &event)) {
    XRefreshKeyboardMapping(&event.xmapping);
  }
}

}  // namespace

KeymapRemap::KeymapRemap(Connection& connection) : connection_(connection) {}

KeymapRemap::~KeymapRemap() { restore(); }

Status KeymapRemap::load() {
  if (auto alive = connection_.check_alive(); !alive) return alive;
  Display* display = connection_.display();
  refresh_from_mapping_notifies(display);
  int max_keycode = 0;
  XDisplayKeycodes(display, &min_keycode_, &max_keycode);
  const int count = max_keycode - min_keycode_ + 1;
  ErrorTrap trap(display);
  const XPtr<KeySym> mapping(XGetKeyboardMapping(display, static_cast<KeyCode>(min_keycode_), count,
                                                 &keysyms_per_keycode_));
  if (!mapping || keysyms_per_keycode_ < 1 || trap.first_error()) {
    return make_error(ErrorCode::kInternal, "could not read the keyboard mapping");
  }
  map_.assign(mapping.get(), mapping.get() + count * keysyms_per_keycode_);
  for (int index = 0; index < count; ++index) {
    const auto first = map_.begin() + index * keysyms_per_keycode_;
    if (std::all_of(first, first + keysyms_per_keycode_,
                    [](unsigned long keysym) { return keysym == NoSymbol; })) {
      spare_.push_back(static_cast<unsigned>(min_keycode_ + index));
    }
  }
  return ok_status();
}

std::optional<KeyStroke> KeymapRemap::find(Keysym keysym) const {
  for (const Borrowed& borrowed : borrowed_) {
    if (borrowed.keysym == keysym) return KeyStroke{borrowed.keycode, false};
  }
  if (keysyms_per_keycode_ < 1) return std::nullopt;
  std::optional<KeyStroke> shifted;
  const auto per = static_cast<std::size_t>(keysyms_per_keycode_);
  for (std::size_t at = 0; at + per <= map_.size(); at += per) {
    const auto keycode = static_cast<unsigned>(min_keycode_) + static_cast<unsigned>(at / per);
    KeySym lower = map_[at];
    KeySym upper = per > 1 ? map_[at + 1] : NoSymbol;
    if (upper == NoSymbol) XConvertCase(map_[at], &lower, &upper);  // core protocol rule
    if (map_[at] == keysym) return KeyStroke{keycode, false};
    if (!shifted && upper == keysym && lower != keysym) shifted = KeyStroke{keycode, true};
  }
  return shifted;
}

Result<KeyStroke> KeymapRemap::stroke_for(Keysym keysym) {
  if (auto found = find(keysym)) return *found;
  unsigned keycode = 0;
  if (!spare_.empty()) {
    keycode = spare_.back();
    spare_.pop_back();
  } else if (!borrowed_.empty()) {
    auto oldest = std::min_element(
        borrowed_.begin(), borrowed_.end(),
        [](const Borrowed& a, const Borrowed& b) { return a.last_used < b.last_used; });
    wait_for_client(oldest->last_used);
    keycode = oldest->keycode;
    borrowed_.erase(oldest);
  } else {
    return make_error(ErrorCode::kPlatformNotSupported,
                      "the keymap has no spare keycode to type " + keysym_name(keysym),
                      {{"keysym", keysym_name(keysym)}});
  }
  borrowed_.push_back(Borrowed{keycode, keysym, Clock::now()});
  if (auto set = set_keysym(keycode, keysym); !set) return std::move(set).take_error();
  return KeyStroke{keycode, false};
}

void KeymapRemap::mark_used(const KeyStroke& stroke) {
  for (Borrowed& borrowed : borrowed_) {
    if (borrowed.keycode == stroke.keycode) borrowed.last_used = Clock::now();
  }
}

Status KeymapRemap::set_keysym(unsigned keycode, std::optional<Keysym> keysym) {
  // Both levels carry the keysym, so a held Shift cannot turn it into something else.
  std::vector<KeySym> row(static_cast<std::size_t>(keysyms_per_keycode_), NoSymbol);
  if (keysym) {
    row[0] = *keysym;
    if (row.size() > 1) row[1] = *keysym;
  }
  ErrorTrap trap(connection_.display());
  XChangeKeyboardMapping(connection_.display(), static_cast<int>(keycode), keysyms_per_keycode_,
                         row.data(), 1);
  if (auto error = trap.sync()) {
    return make_error(ErrorCode::kInternal,
                      "could not change the keyboard mapping: " + error->text);
  }
  return ok_status();
}

void KeymapRemap::wait_for_client(Clock::time_point last_used) {
  auto active = active_window(connection_);
  if (active.ok() && *active && ping_client(connection_, **active, kPingTimeout)) return;
  std::this_thread::sleep_until(last_used + kSettleTime);
}

void KeymapRemap::restore() {
  if (borrowed_.empty() || !connection_.alive()) return;
  const auto latest = std::max_element(
      borrowed_.begin(), borrowed_.end(),
      [](const Borrowed& a, const Borrowed& b) { return a.last_used < b.last_used; });
  wait_for_client(latest->last_used);
  for (const Borrowed& borrowed : borrowed_) {
    // A failure here leaves a keysym on an otherwise unused keycode: harmless, so ignored.
    (void)set_keysym(borrowed.keycode, std::nullopt);
  }
  borrowed_.clear();
  XSync(connection_.display(), False);
  refresh_from_mapping_notifies(connection_.display());
}

}  // namespace companyos::x11
