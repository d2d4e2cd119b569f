#include "x11/connection.h"

#include <string_view>
#include <unordered_map>
#include <utility>

#include "x11/error_trap.h"
#include "x11/extension_lock.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

struct DisplayCloser {
  void operator()(Display* display) const {
    const auto lock = lock_extension_state();
    XCloseDisplay(display);
  }
};

// Runs when the server goes away; returning (instead of exiting, Xlib's default) leaves
// the Display marked dead so that later calls fail fast.
void mark_broken(Display* /*display*/, void* broken_flag) {
  *static_cast<bool*>(broken_flag) = true;
}

}  // namespace

bool init_threads() { return XInitThreads() != 0; }

std::unique_lock<std::mutex> lock_extension_state() {
  static std::mutex extension_state;
  return std::unique_lock<std::mutex>(extension_state);
}

struct Connection::State {
  std::unique_ptr<Display, DisplayCloser> display;
  std::unordered_map<std::string, Atom> atoms;
  bool broken = false;
};

Result<Connection> Connection::open(const std::string& display_name) {
  install_error_handlers();
  const char* name = display_name.empty() ? nullptr : display_name.c_str();
  auto state = std::make_unique<State>();
  state->display.reset(XOpenDisplay(name));
  if (!state->display) {
    const std::string shown = XDisplayName(name);
    return make_error(ErrorCode::kPlatformNotSupported,
                      "no X server answers on display '" + shown + "'", {{"display", shown}},
                      "run inside an X11 session or set DISPLAY");
  }
  XSetIOErrorExitHandler(state->display.get(), &mark_broken, &state->broken);
  return Connection(std::move(state));
}

Connection::Connection(std::unique_ptr<State> state) : state_(std::move(state)) {}
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&&) noexcept = default;
Connection::~Connection() = default;

Display* Connection::display() const { return state_->display.get(); }
unsigned long Connection::root() const { return DefaultRootWindow(display()); }
int Connection::screen() const { return DefaultScreen(display()); }
int Connection::screen_width() const { return DisplayWidth(display(), screen()); }
int Connection::screen_height() const { return DisplayHeight(display(), screen()); }
std::string Connection::name() const { return DisplayString(display()); }

unsigned long Connection::atom(const char* name) {
  auto found = state_->atoms.find(name);
  if (found != state_->atoms.end()) return found->second;
  const Atom atom = XInternAtom(display(), name, False);
  state_->atoms.emplace(name, atom);
  return atom;
}

bool Connection::alive() const { return state_ && !state_->broken; }

Status Connection::check_alive() const {
  if (alive()) return ok_status();
  return make_error(ErrorCode::kPlatformNotSupported, "the X server connection was lost", {},
                    "reconnect once the X server is back");
}

}  // namespace companyos::x11
