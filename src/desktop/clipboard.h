// The daemon's use of the X11 clipboard: reading its text, setting it (the daemon then owns
// the clipboard and answers for it until another app copies), and pasting text into a
// window through it (ctrl+v) with the earlier content, every target of it, put back.
// Never logs or returns the text it pastes.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"
#include "x11/clipboard_owner.h"
#include "x11/connection.h"
#include "x11/windows.h"

namespace companyos::desktop {

// How long a whole read of another app's clipboard may take: every target and every chunk
// of an INCR transfer. An owner that drips its bytes ends the read at this bound; it is
// well under any client's own wait for the reply (the MCP server's is 20 s), so no caller
// is told of a failure that the daemon then turns into an effect.
inline constexpr std::chrono::milliseconds kClipboardReadTimeout{5000};
// How long a paste waits for the app to take the text after ctrl+v.
inline constexpr std::chrono::milliseconds kPasteTakeTimeout{2000};

// OK for text the clipboard takes (set or pasted): valid UTF-8 of at most
// kMaxClipboardTextBytes; else INVALID_ARGS {param: text, delivery: not_delivered}.
Status check_clipboard_text(std::string_view text);

// What became of the clipboard's earlier content after a paste.
enum class Restore {
  kRestored,    // put back whole (or, when nobody owned it, nobody owns it again)
  kPartly,      // put back without the targets in `lost`
  kEmptied,     // could not be read before the paste, so it is left empty, not holding the text
  kKeptNewer,   // another app copied during the paste; its content is left alone
};
const char* to_string(Restore restore);

struct PasteReport {
  bool taken = false;  // the app asked for the text within kPasteTakeTimeout
  Restore restore = Restore::kRestored;
  std::vector<std::string> lost;  // targets not put back
  std::string why;                // for kEmptied: why the earlier content was not read
};

class Clipboard {
 public:
  // The clipboard's UTF-8 text; nullopt when nobody owns it or it holds no text.
  // POLICY_DENIED {reason: secret} when its owner marked it a password manager's secret.
  Result<std::optional<std::string>> text();

  // Makes the daemon the clipboard's owner, offering `text`; then reads it back through the
  // X server as any app would. True when the read-back matched.
  Result<bool> set_text(std::string_view text);

  // Pastes `text` into `xid`: saves the clipboard, offers the text, checks `xid` is still
  // the active window and the caller is still there (caller_gone: it gave up waiting, so it
  // was told nothing happened — nothing must), presses ctrl+v, waits for the app to take it,
  // puts the earlier content back. The caller holds physical_input_mutex() and has made
  // `xid` active. Errors carry details.delivery.
  Result<PasteReport> paste(x11::Connection& connection, x11::WindowId xid, std::string_view text,
                            const std::stop_token& caller_gone = {});

 private:
  Result<x11::ClipboardOwner*> owner();
  Restore put_back(x11::ClipboardOwner& owner, const Result<x11::ClipboardContents>& saved, PasteReport& report);

  // One change of the clipboard at a time (set, paste). Reads take no lock: each reads on a
  // connection and window of its own, so a slow owner never holds up another client.
  std::mutex mutex_;
  std::unique_ptr<x11::ClipboardOwner> owner_;
};

}  // namespace companyos::desktop
