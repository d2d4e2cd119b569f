#include "x11/error_trap.h"

#include <spdlog/spdlog.h>

#include <array>
#include <mutex>

namespace companyos::x11 {
namespace {

thread_local ErrorTrap* innermost_trap = nullptr;

int ignore_io_error(Display* /*display*/) noexcept { return 0; }

}  // namespace

int trap_protocol_error(Display* display, XErrorEvent* event) noexcept {
  for (ErrorTrap* trap = innermost_trap; trap != nullptr; trap = trap->outer_) {
    if (trap->display_ != display) continue;
    if (!trap->first_) {
      std::array<char, 160> text{};
      XGetErrorText(display, event->error_code, text.data(), static_cast<int>(text.size()));
      try {
        trap->first_ = XError{event->error_code, event->request_code, event->resourceid,
                              std::string(text.data())};
      } catch (...) {
        // Out of memory while recording: the trap still reports that an error happened.
        trap->first_.emplace();
        trap->first_->error_code = event->error_code;
      }
    }
    return 0;
  }
  try {
    spdlog::warn("x11: untrapped X error {} for request {} on resource 0x{:x}",
                 static_cast<int>(event->error_code), static_cast<int>(event->request_code),
                 event->resourceid);
  } catch (...) {
  }
  return 0;
}

void install_error_handlers() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    XSetErrorHandler(&trap_protocol_error);
    // The per-display exit handler (see Connection) decides what a lost server means;
    // this one only silences Xlib's message.
    XSetIOErrorHandler(&ignore_io_error);
  });
}

ErrorTrap::ErrorTrap(Display* display) : display_(display), outer_(innermost_trap) {
  innermost_trap = this;
}

ErrorTrap::~ErrorTrap() {
  // Errors of requests still in flight must land in this trap, not in whatever comes next.
  XSync(display_, False);
  innermost_trap = outer_;
}

std::optional<XError> ErrorTrap::sync() {
  XSync(display_, False);
  return first_;
}

}  // namespace companyos::x11
