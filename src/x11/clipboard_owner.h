// Owning the X11 CLIPBOARD: under X the content stays with its owner, which must answer
// every client that asks for it for as long as it owns it. ClipboardOwner keeps one
// connection and one unmapped window on a thread of its own that answers those requests
// (TARGETS, TIMESTAMP and each offered target), until another client takes the clipboard
// or the owner is destroyed.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "companyos/result.h"
#include "x11/clipboard.h"

namespace companyos::x11 {

class ClipboardOwner {
 public:
  // Opens its own connection to $DISPLAY and starts the thread.
  static Result<std::unique_ptr<ClipboardOwner>> start();
  ~ClipboardOwner();  // gives the clipboard up if it still holds it, then stops the thread
  ClipboardOwner(const ClipboardOwner&) = delete;
  ClipboardOwner& operator=(const ClipboardOwner&) = delete;

  // Takes CLIPBOARD, offering `contents`; with contents.owned false, gives it up so that
  // nobody owns it. Returns once the X server has the new owner (TIMEOUT after `timeout`).
  Status offer(ClipboardContents contents, std::chrono::milliseconds timeout);

  // How many times a client has taken one of the offered targets since the last offer.
  std::uint64_t deliveries() const;
  // Waits until deliveries() is above `seen`, or `deadline`; true when it is.
  bool wait_for_delivery(std::uint64_t seen, std::chrono::steady_clock::time_point deadline) const;
  // The largest target the owner can hand over (one X request; it sends no INCR).
  std::size_t max_target_bytes() const;
  // True while CLIPBOARD is ours: offered, and not taken since by another client.
  bool owns() const;
  // False once the thread ended (the X connection broke).
  bool running() const;

  struct State;
  explicit ClipboardOwner(std::unique_ptr<State> state);  // start() builds the state

 private:
  std::unique_ptr<State> state_;
};

}  // namespace companyos::x11
