// Key chords as `press` and press steps take them: the strict shape check every chord
// passes first (launch::check_key_chord), then parse_key_chord with the real keysym lookup
// (Xlib's name table; no display is opened), the session-chord rule and the canonical
// spelling; also the keysym of every character of the text, as `type` maps characters.
// Properties: a chord that parses has a key, and its canonical spelling (what the refusal
// of a session chord names) parses back to the same chord.
//
// Input: the chord text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "launch/bridge_arguments.h"
#include "x11/key_chord.h"
#include "x11/keysyms.h"
#include "x11/session_chord.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  const std::string_view text = fuzz::as_text(data, size);
  const Status shape = launch::check_key_chord(text);
  FUZZ_CHECK(shape.ok() || shape.error().code == ErrorCode::kInvalidArgs);

  auto chord = x11::parse_key_chord(text);
  if (!chord) {
    FUZZ_CHECK(chord.error().code == ErrorCode::kInvalidArgs);
  } else {
    FUZZ_CHECK(chord->key != 0);
    const bool session = x11::is_session_chord(*chord);
    auto again = x11::parse_key_chord(x11::to_string(*chord));
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(*again == *chord);
    FUZZ_CHECK(x11::is_session_chord(*again) == session);
  }

  if (const auto code_points = decode_utf8(text)) {
    for (const char32_t c : *code_points) (void)x11::keysym_for_code_point(c);
  }
  (void)x11::friendly_keysym(text);
  return 0;
}
