// One client connection to an X server, closed on destruction. One thread uses a
// Connection at a time (open one per call); Xlib's process-wide state (extension
// records, the error database) is shared even so, which is why a program that uses X11
// from several threads calls init_threads() first. The first open() installs
// process-wide Xlib error handlers so that X errors, and a lost server, never end the
// process (see error_trap.h).
#pragma once

#include <memory>
#include <string>

#include "companyos/result.h"

typedef struct _XDisplay Display;  // Xlib's own spelling; keeps Xlib out of this header

namespace companyos::x11 {

// Makes Xlib safe to call from several threads (XInitThreads). Must run before any other
// Xlib call in the process, and before a second thread exists: the first thing main does.
// False when Xlib cannot (then only one thread may ever use X11).
bool init_threads();

class Connection {
 public:
  // Opens `display_name`, or $DISPLAY when it is empty. PLATFORM_NOT_SUPPORTED when no X
  // server answers there.
  static Result<Connection> open(const std::string& display_name = {});

  Connection(Connection&&) noexcept;
  Connection& operator=(Connection&&) noexcept;
  ~Connection();

  Display* display() const;
  unsigned long root() const;
  int screen() const;
  int screen_width() const;
  int screen_height() const;
  // The display's name as Xlib resolved it, e.g. ":1".
  std::string name() const;

  // The atom named `name`, interned once per connection.
  unsigned long atom(const char* name);

  // False once the server connection broke; every later request is refused with this.
  bool alive() const;
  Status check_alive() const;

 private:
  struct State;
  explicit Connection(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace companyos::x11
