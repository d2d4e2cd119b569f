// Internal: finds the key that types a keysym. A keysym the keymap lacks is put on a
// spare keycode (one with no keysyms) while this object lives; the keycode is emptied again
// on destruction. A client translates a keycode with the keymap as it is when the client
// gets to the event, so a borrowed keycode changes again only once the client has caught
// up: after a ping round trip through the active window's client, or, for clients that
// do not answer pings, after a settle time.
#pragma once

#include <chrono>
#include <optional>
#include <vector>

#include "companyos/result.h"
#include "x11/connection.h"
#include "x11/keysyms.h"

namespace companyos::x11 {

struct KeyStroke {
  unsigned keycode = 0;
  bool shift = false;  // the keysym sits on the shifted level
};

class KeymapRemap {
 public:
  // ≥ 50 ms was measured to be enough for an idle GTK app; a loaded one needs the ping,
  // which may take this long before we give up and fall back on the settle time.
  static constexpr std::chrono::milliseconds kSettleTime{60};
  static constexpr std::chrono::milliseconds kPingTimeout{3000};

  explicit KeymapRemap(Connection& connection);
  ~KeymapRemap();
  KeymapRemap(const KeymapRemap&) = delete;
  KeymapRemap& operator=(const KeymapRemap&) = delete;

  // Reads the server's current keymap; call once before anything else.
  Status load();
  // The keycode that types `keysym` on the first group, without borrowing.
  std::optional<KeyStroke> find(Keysym keysym) const;
  // find(), else a borrowed spare keycode. PLATFORM_NOT_SUPPORTED when none is spare.
  Result<KeyStroke> stroke_for(Keysym keysym);
  // Records that the server has just handled a press of `stroke`.
  void mark_used(const KeyStroke& stroke);

 private:
  using Clock = std::chrono::steady_clock;
  struct Borrowed {
    unsigned keycode;
    Keysym keysym;
    Clock::time_point last_used;
  };

  Status set_keysym(unsigned keycode, std::optional<Keysym> keysym);
  // Returns once the receiving client has read the keys pressed up to `last_used`.
  void wait_for_client(Clock::time_point last_used);
  void restore();

  Connection& connection_;
  int min_keycode_ = 0;
  int keysyms_per_keycode_ = 0;
  std::vector<unsigned long> map_;  // the keymap as loaded, keysyms_per_keycode_ per keycode
  std::vector<unsigned> spare_;     // empty keycodes not borrowed yet
  std::vector<Borrowed> borrowed_;
};

}  // namespace companyos::x11
