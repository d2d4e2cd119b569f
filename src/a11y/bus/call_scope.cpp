#include "a11y/bus/call_scope.h"

#include <algorithm>
#include <exception>
#include <utility>

#include <spdlog/spdlog.h>

namespace companyos::a11y {
namespace {

// After the deadline, cancelled operations report back within microseconds; this bound only
// matters if something ignored its cancellable, and then we stop waiting rather than hang.
constexpr auto kDrainGrace = std::chrono::milliseconds(250);
// How often a wait checks whether a routed call's connection has closed (the app exited):
// such calls can never be answered, so they fail then instead of at the deadline.
constexpr guint kConnectionWatchMs = 100;

}  // namespace

struct CallScope::Slot {
  CallScope* scope = nullptr;
  bool pending = true;
  ReplyHandler on_reply;
  ConnectionHandler on_connection;
};

CallScope::CallScope(Deadline deadline)
    : deadline_(deadline),
      context_(g_main_context_new()),
      cancellable_(g_cancellable_new()),
      inbox_(std::make_shared<Inbox>(context_.get())) {
  g_main_context_push_thread_default(context_.get());
  const auto remaining = std::chrono::ceil<std::chrono::milliseconds>(
      deadline_ - std::chrono::steady_clock::now());
  if (remaining.count() <= 0) {
    expired_ = true;
    g_cancellable_cancel(cancellable_.get());
    return;
  }
  timer_.reset(g_timeout_source_new(static_cast<guint>(remaining.count())));
  g_source_set_callback(timer_.get(), &CallScope::on_deadline, this, nullptr);
  g_source_attach(timer_.get(), context_.get());
  connection_watch_.reset(g_timeout_source_new(kConnectionWatchMs));
  g_source_set_callback(connection_watch_.get(), &CallScope::on_watch_connections, this, nullptr);
  g_source_attach(connection_watch_.get(), context_.get());
}

gboolean CallScope::on_watch_connections(gpointer data) {
  static_cast<CallScope*>(data)->fail_calls_on_closed_connections();
  return G_SOURCE_CONTINUE;
}

void CallScope::fail_calls_on_closed_connections() {
  ErrorPtr closed(g_error_new_literal(G_IO_ERROR, G_IO_ERROR_CLOSED, "the connection closed"));
  // By index, with a copy: handlers may start calls, which appends to routed_.
  for (std::size_t i = 0; i < routed_.size(); ++i) {
    const Routed call = routed_[i];
    Slot* slot = &slots_[call.slot];
    if (!slot->pending || !g_dbus_connection_is_closed(call.connection)) continue;
    call.router->forget(call.serial);
    ReplyHandler handler = std::move(slot->on_reply);
    finish(slot);
    if (!handler) continue;
    try {
      handler(nullptr, closed.get());
    } catch (...) {
      spdlog::error("a11y: reply handler failed");
    }
  }
}

CallScope::~CallScope() {
  forget_routed_calls(false);
  g_cancellable_cancel(cancellable_.get());
  drain();
  timer_.reset();
  connection_watch_.reset();
  g_main_context_pop_thread_default(context_.get());
  if (abandoned_) {
    // Something still holds our callbacks' user data; it can only run if this context is
    // iterated again, which never happens, so keep the slots alive rather than risk it.
    spdlog::warn("a11y: {} asynchronous operations ignored cancellation; abandoning them",
                 in_flight_);
    (void)std::make_unique<std::deque<Slot>>(std::move(slots_)).release();
  }
}

gboolean CallScope::on_deadline(gpointer data) {
  auto* self = static_cast<CallScope*>(data);
  self->expired_ = true;
  g_cancellable_cancel(self->cancellable_.get());
  return G_SOURCE_REMOVE;
}

bool CallScope::expired() const {
  return expired_ || std::chrono::steady_clock::now() >= deadline_;
}

CallScope::Slot* CallScope::new_slot() {
  Slot& slot = slots_.emplace_back();
  slot.scope = this;
  ++in_flight_;
  return &slot;
}

void CallScope::finish(Slot* slot) {
  if (!slot->pending) return;
  slot->pending = false;
  --in_flight_;
  slot->on_reply = nullptr;
  slot->on_connection = nullptr;
}

void CallScope::call(const Channel& channel, const char* path, const char* interface,
                     const char* method, GVariant* args, ReplyHandler handler) {
  if (channel.router) {
    call_routed(channel, path, interface, method, args, std::move(handler));
    return;
  }
  Slot* slot = new_slot();
  slot->on_reply = std::move(handler);
  ++calls_started_;
  // No per-call timeout: the scope's single deadline cancels everything at once.
  g_dbus_connection_call(channel.connection.get(), channel.destination_or_null(), path,
                         interface, method, args, nullptr, G_DBUS_CALL_FLAGS_NO_AUTO_START,
                         G_MAXINT, cancellable_.get(), &CallScope::on_call_reply, slot);
}

void CallScope::call_routed(const Channel& channel, const char* path, const char* interface,
                            const char* method, GVariant* args, ReplyHandler handler) {
  ++calls_started_;
  if (expired_) {
    // Past the deadline nothing more is sent (the result is discarded anyway).
    if (args != nullptr) g_variant_unref(g_variant_ref_sink(args));
    return;
  }
  GObjectPtr<GDBusMessage> message(
      g_dbus_message_new_method_call(channel.destination_or_null(), path, interface, method));
  if (args != nullptr) g_dbus_message_set_body(message.get(), args);
  g_dbus_message_set_flags(message.get(), G_DBUS_MESSAGE_FLAGS_NO_AUTO_START);
  Slot* slot = new_slot();
  slot->on_reply = std::move(handler);
  const auto index = static_cast<std::uint64_t>(slots_.size() - 1);
  GError* raw_error = nullptr;
  std::uint32_t serial = 0;
  if (!channel.router->send(channel.connection.get(), message.get(), inbox_, index, &serial,
                            &raw_error)) {
    ErrorPtr error(raw_error);
    ReplyHandler failed = std::move(slot->on_reply);
    finish(slot);
    if (failed) failed(nullptr, error.get());
    return;
  }
  GDBusConnection* connection = channel.connection.get();
  if (std::none_of(connections_.begin(), connections_.end(),
                   [connection](const ConnectionRef& held) { return held.get() == connection; })) {
    connections_.push_back(channel.connection);
  }
  routed_.push_back({channel.router, serial, index, connection});
}

void CallScope::run_routed_replies() {
  for (Inbox::Delivery& delivery : inbox_->take()) {
    GObjectPtr<GDBusMessage> reply(delivery.reply);
    Slot* slot = &slots_[delivery.slot];
    ReplyHandler handler = std::move(slot->on_reply);
    finish(slot);
    if (expired_ || !handler) continue;
    GError* raw_error = nullptr;
    VariantPtr body;
    if (g_dbus_message_to_gerror(reply.get(), &raw_error)) {
      // an error reply: raw_error is set
    } else if (GVariant* value = g_dbus_message_get_body(reply.get())) {
      body.reset(g_variant_ref(value));
    } else {
      body.reset(g_variant_ref_sink(g_variant_new_tuple(nullptr, 0)));
    }
    ErrorPtr error(raw_error);
    try {
      handler(body.get(), error.get());
    } catch (const std::exception& e) {
      spdlog::error("a11y: reply handler failed: {}", e.what());
    } catch (...) {
      spdlog::error("a11y: reply handler failed");
    }
  }
}

void CallScope::forget_routed_calls(bool tell_handlers) {
  for (const Routed& routed : routed_) {
    if (slots_[routed.slot].pending) routed.router->forget(routed.serial);
  }
  // Replies that arrived before forgetting are dropped with the inbox's queue.
  for (Inbox::Delivery& delivery : inbox_->take()) g_object_unref(delivery.reply);
  const std::vector<Routed> routed = std::exchange(routed_, {});
  ErrorPtr cancelled(g_error_new_literal(G_IO_ERROR, G_IO_ERROR_CANCELLED, "deadline passed"));
  for (const Routed& call : routed) {
    Slot* slot = &slots_[call.slot];
    if (!slot->pending) continue;
    ReplyHandler handler = std::move(slot->on_reply);
    finish(slot);
    // As GDBus does for a cancelled call, so handlers can tell "no answer" from "no such".
    if (tell_handlers && handler) {
      try {
        handler(nullptr, cancelled.get());
      } catch (...) {
        spdlog::error("a11y: reply handler failed");
      }
    }
  }
}

void CallScope::on_call_reply(GObject* source, GAsyncResult* result, gpointer data) {
  auto* slot = static_cast<Slot*>(data);
  GError* raw_error = nullptr;
  VariantPtr reply(
      g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &raw_error));
  ErrorPtr error(raw_error);
  ReplyHandler handler = std::move(slot->on_reply);
  CallScope* scope = slot->scope;
  scope->finish(slot);
  try {
    if (handler) handler(reply.get(), error.get());
  } catch (const std::exception& e) {
    spdlog::error("a11y: reply handler failed: {}", e.what());
  } catch (...) {
    spdlog::error("a11y: reply handler failed");
  }
}

void CallScope::open_connection(const std::string& address, bool message_bus,
                                ConnectionHandler handler) {
  Slot* slot = new_slot();
  slot->on_connection = std::move(handler);
  auto flags = G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT;
  if (message_bus) {
    flags = static_cast<GDBusConnectionFlags>(flags |
                                              G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION);
  }
  g_dbus_connection_new_for_address(address.c_str(), flags, nullptr, cancellable_.get(),
                                    &CallScope::on_connection_ready, slot);
}

void CallScope::session_bus(ConnectionHandler handler) {
  Slot* slot = new_slot();
  slot->on_connection = std::move(handler);
  g_bus_get(G_BUS_TYPE_SESSION, cancellable_.get(), &CallScope::on_bus_ready, slot);
}

namespace {

void deliver_connection(CallScope::ConnectionHandler& handler, GDBusConnection* connection,
                        GError* raw_error) {
  ErrorPtr error(raw_error);
  auto ref = ConnectionRef::adopt(connection);
  try {
    if (handler) handler(std::move(ref), error.get());
  } catch (...) {
    spdlog::error("a11y: connection handler failed");
  }
}

}  // namespace

void CallScope::on_connection_ready(GObject*, GAsyncResult* result, gpointer data) {
  auto* slot = static_cast<Slot*>(data);
  GError* error = nullptr;
  GDBusConnection* connection = g_dbus_connection_new_for_address_finish(result, &error);
  ConnectionHandler handler = std::move(slot->on_connection);
  slot->scope->finish(slot);
  deliver_connection(handler, connection, error);
}

void CallScope::on_bus_ready(GObject*, GAsyncResult* result, gpointer data) {
  auto* slot = static_cast<Slot*>(data);
  GError* error = nullptr;
  GDBusConnection* connection = g_bus_get_finish(result, &error);
  ConnectionHandler handler = std::move(slot->on_connection);
  slot->scope->finish(slot);
  deliver_connection(handler, connection, error);
}

bool CallScope::wait() {
  while (in_flight_ > 0 && !expired_) {
    run_routed_replies();
    if (in_flight_ == 0 || expired_) break;
    if (inbox_->prepare_to_sleep()) {
      g_main_context_iteration(context_.get(), TRUE);
      inbox_->woke();
    }
  }
  if (expired_) {
    // Routed calls are forgotten; GDBus's own calls are cancelled and collected.
    forget_routed_calls(true);
    g_cancellable_cancel(cancellable_.get());
    drain();
  }
  return !expired_;
}

void CallScope::drain() {
  const auto give_up = std::chrono::steady_clock::now() + kDrainGrace;
  while (in_flight_ > 0) {
    if (std::chrono::steady_clock::now() >= give_up) {
      abandoned_ = true;
      return;
    }
    // Cancelled operations complete through idle sources; poll briefly rather than block
    // forever on one that never does.
    if (!g_main_context_iteration(context_.get(), FALSE)) g_usleep(1000);
  }
}

bool is_unknown_method(const GError* error) {
  return error != nullptr && g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD);
}

bool has_no_owner(const GError* error) {
  return error != nullptr && (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
                              g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
                              g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CLOSED));
}

bool is_gone(const GError* error) {
  if (error == nullptr) return false;
  if (has_no_owner(error) || g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT)) {
    return true;
  }
  // GTK's bridge answers calls on a destroyed accessible with UnknownMethod on a
  // path it no longer serves; the remote error name is the only reliable signal.
  GCharPtr remote(g_dbus_error_get_remote_error(error));
  return remote && g_str_equal(remote.get(), "org.freedesktop.DBus.Error.UnknownObject");
}

bool is_cancelled(const GError* error) {
  return error != nullptr && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

bool is_no_reply(const GError* error) {
  return error != nullptr && g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY);
}

}  // namespace companyos::a11y
