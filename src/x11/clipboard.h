// The X11 CLIPBOARD selection as data: what its owner offers (every target and its bytes),
// read the ICCCM way (ConvertSelection, INCR for large transfers), and what an owner
// answers when a client asks for one target. Serving it lives in clipboard_owner.h.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"
#include "x11/connection.h"

namespace companyos::x11 {

// The most a read takes in, over every target: a bigger clipboard is refused, not cut.
inline constexpr std::size_t kMaxClipboardBytes = 16U << 20;

// One target of a selection as its owner converted it. `data` is the property in Xlib's
// client form (format 32 items are C longs), so it can be written back unchanged.
struct SelectionTarget {
  std::string name;  // the target atom, e.g. "UTF8_STRING", "text/html", "image/png"
  std::string type;  // the property's type atom, e.g. "UTF8_STRING", "ATOM"
  int format = 8;    // 8, 16 or 32
  std::string data;
};

// Bytes one item of a property of `format` takes in Xlib's client form.
std::size_t property_item_size(int format);

struct ClipboardContents {
  bool owned = false;  // false: nobody owned the clipboard
  std::vector<SelectionTarget> targets;
  // Targets the owner listed but would not convert, or that were too big to keep.
  std::vector<std::string> unread;
};

// Targets about the selection itself rather than its content (TARGETS, MULTIPLE,
// TIMESTAMP, DELETE, SAVE_TARGETS, INSERT_*): never saved, always answered by the owner.
bool is_meta_target(std::string_view name);

// What a clipboard holding UTF-8 `text` offers: UTF8_STRING, TEXT and
// text/plain;charset=utf-8, plus STRING and text/plain when the text is plain ASCII
// (STRING is Latin-1, so other text is not offered as it).
ClipboardContents text_contents(std::string_view text);

// The UTF-8 text of `contents` (UTF8_STRING, else text/plain;charset=utf-8, else an ASCII
// STRING); nullopt when it holds no text.
std::optional<std::string> text_of(const ClipboardContents& contents);

// True when the owner marked its content as a secret (KDE's x-kde-passwordManagerHint
// target, set by password managers such as KeePassXC).
bool marked_secret(const ClipboardContents& contents);

// How an owner answers a request for `target`.
struct ConversionAnswer {
  enum class Kind { kRefuse, kTargets, kTimestamp, kData };
  Kind kind = Kind::kRefuse;
  const SelectionTarget* data = nullptr;  // for kData
};
// TARGETS and TIMESTAMP always; a content target when it is offered and at most
// `max_bytes` long (larger ones would need INCR, which the owner does not send); anything
// else, MULTIPLE included, is refused.
ConversionAnswer answer_conversion(const ClipboardContents& contents, std::string_view target, std::size_t max_bytes);

// The names an owner lists for TARGETS: TARGETS, TIMESTAMP, then every content target.
std::vector<std::string> offered_targets(const ClipboardContents& contents);

enum class ClipboardRead {
  kText,  // only the text targets
  kAll,   // every target the owner lists (to put it back later)
};
// Reads CLIPBOARD from its current owner. TIMEOUT when the whole read — every target, every
// INCR chunk — is not done by `deadline`; INVALID_ARGS {reason: too_big} past
// kMaxClipboardBytes.
Result<ClipboardContents> read_clipboard(Connection& connection, ClipboardRead what,
                                         std::chrono::steady_clock::time_point deadline);

}  // namespace companyos::x11
