// Many D-Bus method calls in flight at once on one private sd-bus connection, all bounded
// by ONE deadline: call() queues a request without waiting for earlier ones, wait()
// dispatches replies to their handlers (which may queue more calls) until nothing is
// outstanding or the deadline passed. A peer that stops answering costs at most the
// deadline; one that goes away ends the wait at once. One thread at a time; no locks.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "a11y/bus/sd_bus_handles.h"
#include "core/deadline.h"

namespace companyos::a11y {

class Pipeline {
 public:
  // Runs for a reply — a method return or an error — and only inside wait() (or while
  // call() keeps replies moving). Calls that could not be sent, or were not answered
  // before the deadline, never run theirs: expired() and disconnected() say why.
  using ReplyHandler = std::function<void(sd_bus_message* reply)>;
  // Takes the connection back for reuse when the pipeline ends with nothing in flight.
  using Recycle = std::function<void(SdBusPtr connection)>;

  // destination: the bus name calls go to, or "" on a peer-to-peer connection.
  Pipeline(SdBusPtr connection, std::string destination, Deadline deadline,
           Recycle recycle = {});
  ~Pipeline();  // a connection with calls still in flight is closed, never reused
  Pipeline(Pipeline&&) noexcept;
  Pipeline& operator=(Pipeline&&) = delete;
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  void call(const char* path, const char* interface, const char* member, ReplyHandler handler);
  // With arguments, as sd_bus_message_append(types, args...) writes them.
  template <typename... Args>
  void call(const char* path, const char* interface, const char* member, ReplyHandler handler,
            const char* types, Args... args) {
    SdBusMessagePtr message = new_call(path, interface, member);
    if (message && sd_bus_message_append(message.get(), types, args...) < 0) message.reset();
    send(std::move(message), std::move(handler));
  }

  // Dispatches replies until every call is answered (true) or the deadline passed or the
  // connection closed (false).
  bool wait();
  // Hands the connection to KEEPER when the pipeline ends — calls in flight or not — instead
  // of giving it back for reuse. For calls that may leave the peer inside their handler
  // after it answered: GTK3's bridge answers DoAction, then runs the action — and a modal
  // dialog's gtk_dialog_run — while still dispatching that connection, which must then
  // get nothing more, not even its closing (bus/parked_connections.h).
  void hand_over_when_done(Recycle keeper);
  bool expired() const;
  bool disconnected() const;
  std::size_t calls_started() const;
  // Replies received so far, errors included: the peer answered this many calls.
  std::size_t calls_answered() const;
  Deadline deadline() const;

 private:
  struct State;
  static int on_reply(sd_bus_message* reply, void* userdata, sd_bus_error* error);
  SdBusMessagePtr new_call(const char* path, const char* interface, const char* member);
  void send(SdBusMessagePtr message, ReplyHandler handler);
  void drain_ready_replies();

  std::unique_ptr<State> state_;
};

// The D-Bus error name of an error reply, or nullptr for a method return.
const char* error_name(sd_bus_message* reply);
// True when an error reply says the object or its owner is gone (a stale path or an app
// that exited), as GTK's bridge and the bus report it.
bool reply_says_gone(sd_bus_message* reply);

}  // namespace companyos::a11y
