// Internal: X protocol errors are caught per thread and per display instead of reaching
// Xlib's default handler, which exits the process. Windows vanish at any moment, so every
// request about a window that is not ours runs inside an ErrorTrap.
#pragma once

#include <optional>
#include <string>

#include "x11/xlib.h"

namespace companyos::x11 {

struct XError {
  int error_code = 0;
  int request_code = 0;
  unsigned long resource = 0;
  std::string text;  // XGetErrorText, e.g. "BadWindow (invalid Window parameter)"
};

// Installs the process-wide handlers once: protocol errors go to the innermost trap for
// their display on the calling thread (errors outside any trap are logged and dropped),
// and an I/O error no longer ends the process.
void install_error_handlers();

// Catches errors of `display` raised on this thread while the trap is alive. Traps nest.
class ErrorTrap {
 public:
  explicit ErrorTrap(Display* display);
  ~ErrorTrap();
  ErrorTrap(const ErrorTrap&) = delete;
  ErrorTrap& operator=(const ErrorTrap&) = delete;

  // Waits until the server has handled every request sent so far (XSync) and returns
  // the first error they raised, if any.
  std::optional<XError> sync();
  // The first error seen so far, without a round trip.
  const std::optional<XError>& first_error() const { return first_; }

 private:
  friend int trap_protocol_error(Display* display, XErrorEvent* event) noexcept;

  Display* display_;
  ErrorTrap* outer_;
  std::optional<XError> first_;
};

}  // namespace companyos::x11
