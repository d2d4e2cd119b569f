#include "desktop/clipboard.h"

#include "companyos/reply_fields.h"
#include "companyos/methods.h"
#include "core/delivery.h"
#include "core/text.h"
#include "x11/key_chord.h"
#include "x11/keyboard.h"

namespace companyos::desktop {
namespace {

constexpr std::chrono::milliseconds kOfferTimeout{1000};

Error not_delivered(Error error) { return with_delivery(std::move(error), Delivery::kNotDelivered); }

std::chrono::steady_clock::time_point read_deadline() {
  return std::chrono::steady_clock::now() + kClipboardReadTimeout;
}

}  // namespace

Status check_clipboard_text(std::string_view text) {
  if (text.size() > static_cast<std::size_t>(methods::kMaxClipboardTextBytes)) {
    return not_delivered(make_error(
        ErrorCode::kInvalidArgs,
        "the text has " + with_thousands(static_cast<std::int64_t>(text.size())) + " bytes; the clipboard takes " +
            methods::length_text({methods::kMaxClipboardTextBytes, methods::LengthUnit::kBytes}),
        {{"param", "text"}, {"bytes", text.size()}, {"max", methods::kMaxClipboardTextBytes}}));
  }
  if (!is_valid_utf8(text)) {
    return not_delivered(make_error(ErrorCode::kInvalidArgs, "the text is not valid UTF-8", {{"param", "text"}}));
  }
  return ok_status();
}

const char* to_string(Restore restore) {
  switch (restore) {
    case Restore::kRestored: return "restored";
    case Restore::kPartly: return "partly";
    case Restore::kEmptied: return "emptied";
    case Restore::kKeptNewer: return "kept_newer";
  }
  return "restored";
}

Result<x11::ClipboardOwner*> Clipboard::owner() {
  // The owner's thread ends when its X connection breaks; a new X server gets a new one.
  if (!owner_ || !owner_->running()) {
    owner_.reset();
    auto started = x11::ClipboardOwner::start();
    if (!started) return std::move(started).take_error();
    owner_ = std::move(*started);
  }
  return owner_.get();
}

Result<std::optional<std::string>> Clipboard::text() {
  auto connection = x11::Connection::open();
  if (!connection) return std::move(connection).take_error();
  auto contents = x11::read_clipboard(*connection, x11::ClipboardRead::kText, read_deadline());
  if (!contents) return std::move(contents).take_error();
  if (x11::marked_secret(*contents)) {
    return make_error(ErrorCode::kPolicyDenied, "the clipboard holds a password manager's secret; it is not read",
                      {{"reason", "secret"}});
  }
  return x11::text_of(*contents);
}

Result<bool> Clipboard::set_text(std::string_view text) {
  std::lock_guard lock(mutex_);
  auto own = owner();
  if (!own) return not_delivered(std::move(own).take_error());
  if (auto st = (*own)->offer(x11::text_contents(text), kOfferTimeout); !st) {
    return not_delivered(std::move(st).take_error());
  }
  // Read back on a connection of its own, as another app would.
  auto connection = x11::Connection::open();
  if (!connection) return false;
  auto contents = x11::read_clipboard(*connection, x11::ClipboardRead::kText, read_deadline());
  return contents && x11::text_of(*contents) == std::string(text);
}

Restore Clipboard::put_back(x11::ClipboardOwner& owner, const Result<x11::ClipboardContents>& saved,
                            PasteReport& report) {
  if (!owner.owns()) return Restore::kKeptNewer;
  if (!saved) {
    report.why = saved.error().message;
    // Left holding the pasted text, the clipboard would hand it to the next paste anywhere.
    (void)owner.offer(x11::ClipboardContents{}, kOfferTimeout);
    return Restore::kEmptied;
  }
  if (auto st = owner.offer(*saved, kOfferTimeout); !st) {
    report.why = st.error().message;
    (void)owner.offer(x11::ClipboardContents{}, kOfferTimeout);
    return Restore::kEmptied;
  }
  report.lost = saved->unread;
  for (const x11::SelectionTarget& target : saved->targets) {
    if (target.data.size() > owner.max_target_bytes()) report.lost.push_back(target.name);
  }
  return report.lost.empty() ? Restore::kRestored : Restore::kPartly;
}

Result<PasteReport> Clipboard::paste(x11::Connection& connection, x11::WindowId xid, std::string_view text,
                                     const std::stop_token& caller_gone) {
  std::lock_guard lock(mutex_);
  auto own = owner();
  if (!own) return not_delivered(std::move(own).take_error());
  x11::ClipboardOwner& clipboard = **own;
  const auto paste_chord = x11::parse_key_chord("ctrl+v");
  if (!paste_chord) return not_delivered(paste_chord.error());

  auto saved = x11::read_clipboard(connection, x11::ClipboardRead::kAll, read_deadline());
  if (auto st = clipboard.offer(x11::text_contents(text), kOfferTimeout); !st) {
    return not_delivered(std::move(st).take_error());
  }
  PasteReport report;
  const std::uint64_t seen = clipboard.deliveries();
  auto active = x11::active_window(connection);
  if (!active || !*active || **active != xid) {
    put_back(clipboard, saved, report);
    return make_error(ErrorCode::kPolicyDenied, "the window is not the active one; nothing was pasted",
                      {{"reason", "not_active"}, {reply_fields::outcome::kDelivery, to_string(Delivery::kNotDelivered)}},
                      "close whatever holds the focus, then retry");
  }
  if (auto waiting = caller_still_waiting(caller_gone, "the paste"); !waiting) {
    put_back(clipboard, saved, report);
    return std::move(waiting).take_error();
  }
  if (auto st = x11::send_key_chord(connection, *paste_chord); !st) {
    put_back(clipboard, saved, report);
    return with_delivery(std::move(st).take_error(), Delivery::kDeliveredUnverified);
  }
  report.taken = clipboard.wait_for_delivery(seen, std::chrono::steady_clock::now() + kPasteTakeTimeout);
  report.restore = put_back(clipboard, saved, report);
  return report;
}

}  // namespace companyos::desktop
