// Routes method replies on one connection straight to the CallScope waiting for them.
// A GDBus filter (on GDBus's worker thread) matches each reply's serial against the calls
// sent through the router and hands the message to that scope's inbox; the scope's own
// thread runs the handler. This skips GDBus's per-call GTask, idle source, cancellable
// hook and main-context hop, which cost more than the D-Bus round trip itself when
// thousands of calls are in flight. Replies nobody waits for go on to GDBus unchanged.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

#include <gio/gio.h>

#include "core/glib_handles.h"

namespace companyos::a11y {

// Replies for one CallScope, filled on GDBus's worker thread, emptied on the scope's.
class Inbox {
 public:
  explicit Inbox(GMainContext* context) : context_(context) {}
  struct Delivery {
    std::uint64_t slot = 0;
    GDBusMessage* reply = nullptr;  // owned by the delivery
  };
  void deliver(std::uint64_t slot, GDBusMessage* reply);
  // Everything delivered so far, in order; the caller owns the messages.
  std::deque<Delivery> take();
  // Marks the scope asleep unless something is waiting; false when it must not sleep.
  bool prepare_to_sleep();
  void woke();
  ~Inbox();

 private:
  std::mutex mutex_;
  std::deque<Delivery> queue_;
  bool sleeping_ = false;
  GMainContext* context_;
};

class ReplyRouter {
 public:
  // Installs the filter on the connection; the filter keeps the router alive.
  static std::shared_ptr<ReplyRouter> attach(GDBusConnection* connection);

  // Sends message; its reply will be delivered to inbox under slot. False (error set)
  // when the connection refused it.
  bool send(GDBusConnection* connection, GDBusMessage* message,
            const std::shared_ptr<Inbox>& inbox, std::uint64_t slot, std::uint32_t* serial,
            GError** error);
  // Forgets a call; a reply that still comes is left to GDBus (which drops it).
  void forget(std::uint32_t serial);

 private:
  static GDBusMessage* filter(GDBusConnection* connection, GDBusMessage* message,
                              gboolean incoming, gpointer data);

  struct Waiter {
    std::shared_ptr<Inbox> inbox;
    std::uint64_t slot = 0;
  };
  std::mutex mutex_;
  std::unordered_map<std::uint32_t, Waiter> waiting_;
};

}  // namespace companyos::a11y
