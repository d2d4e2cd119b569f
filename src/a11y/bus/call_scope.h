// A CallScope runs asynchronous GDBus work for one synchronous public call: it pushes a
// private GMainContext as the thread's default for its lifetime, and everything started in
// it shares ONE deadline (a single timer source cancels one GCancellable and forgets routed
// calls), so thousands of calls in flight cost no per-call timers and a hung peer costs at
// most the deadline. Calls on connections with a ReplyRouter skip GDBus's per-call task
// machinery; their replies are handed to this scope's thread (see reply_router.h).
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gio/gio.h>

#include "a11y/bus/reply_router.h"
#include "core/glib_handles.h"
#include "core/deadline.h"

namespace companyos::a11y {

// Where a call goes: a connection plus the destination bus name (empty on a peer-to-peer
// connection, which has no bus to route through). Connections the library opens carry a
// ReplyRouter; calls on others go through GDBus's ordinary asynchronous calls.
struct Channel {
  ConnectionRef connection;
  std::string destination;
  std::shared_ptr<ReplyRouter> router;
  const char* destination_or_null() const {
    return destination.empty() ? nullptr : destination.c_str();
  }
};

class CallScope {
 public:
  // reply is the method's return tuple, or nullptr with error set. Handlers run on the
  // scope's thread inside wait() and may start further calls in the same scope.
  using ReplyHandler = std::function<void(GVariant* reply, const GError* error)>;
  using ConnectionHandler = std::function<void(ConnectionRef connection, const GError* error)>;

  explicit CallScope(Deadline deadline);
  ~CallScope();  // cancels what is in flight and collects the cancelled replies
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  void call(const Channel& channel, const char* path, const char* interface, const char* method,
            GVariant* args, ReplyHandler handler);
  // Opens a D-Bus connection to an address (client authentication, optionally as a
  // message-bus connection that says Hello).
  void open_connection(const std::string& address, bool message_bus, ConnectionHandler handler);
  // The session bus (GIO's shared connection).
  void session_bus(ConnectionHandler handler);

  // Iterates until nothing is in flight or the deadline passed; false when it passed.
  bool wait();
  bool expired() const;
  Deadline deadline() const { return deadline_; }
  std::size_t calls_started() const { return calls_started_; }

 private:
  struct Slot;
  static void on_call_reply(GObject* source, GAsyncResult* result, gpointer data);
  static void on_connection_ready(GObject* source, GAsyncResult* result, gpointer data);
  static void on_bus_ready(GObject* source, GAsyncResult* result, gpointer data);
  static gboolean on_deadline(gpointer data);
  static gboolean on_watch_connections(gpointer data);
  void fail_calls_on_closed_connections();
  Slot* new_slot();
  void finish(Slot* slot);
  void drain();
  void run_routed_replies();
  void forget_routed_calls(bool tell_handlers);
  void call_routed(const Channel& channel, const char* path, const char* interface,
                   const char* method, GVariant* args, ReplyHandler handler);

  Deadline deadline_;
  MainContextPtr context_;
  GObjectPtr<GCancellable> cancellable_;
  SourcePtr timer_;
  SourcePtr connection_watch_;  // notices routed calls' connections closing
  std::deque<Slot> slots_;
  std::shared_ptr<Inbox> inbox_;
  struct Routed {
    std::shared_ptr<ReplyRouter> router;
    std::uint32_t serial;
    std::uint64_t slot;
    GDBusConnection* connection;  // held in connections_
  };
  std::vector<ConnectionRef> connections_;  // every connection a routed call went out on
  std::vector<Routed> routed_;
  std::size_t in_flight_ = 0;
  std::size_t calls_started_ = 0;
  bool expired_ = false;
  bool abandoned_ = false;
};

// True when the error is a D-Bus "no such method" (e.g. a bridge without Cache.GetItems).
bool is_unknown_method(const GError* error);
// True when the error says the object or its owner is gone (a stale path or exited app).
bool is_gone(const GError* error);
// True when the error says nobody owns the bus name any more (the app exited or its
// connection closed): the bus daemon's answer, never the app's. An app that answers
// UnknownObject or UnknownMethod for an optional interface on its root (Qt 5 has no
// GetApplicationBusAddress) is still there.
bool has_no_owner(const GError* error);
bool is_cancelled(const GError* error);
// The bus's NoReply: the peer left with the call in flight, or the bus gave up waiting.
bool is_no_reply(const GError* error);

}  // namespace companyos::a11y
