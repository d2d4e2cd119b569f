#include "a11y/bus/reply_router.h"

namespace companyos::a11y {

void Inbox::deliver(std::uint64_t slot, GDBusMessage* reply) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({slot, reply});
    wake = sleeping_;
    sleeping_ = false;
  }
  if (wake) g_main_context_wakeup(context_);
}

std::deque<Inbox::Delivery> Inbox::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(queue_, {});
}

bool Inbox::prepare_to_sleep() {
  std::lock_guard lock(mutex_);
  if (!queue_.empty()) return false;
  sleeping_ = true;
  return true;
}

void Inbox::woke() {
  std::lock_guard lock(mutex_);
  sleeping_ = false;
}

Inbox::~Inbox() {
  for (Delivery& delivery : queue_) g_object_unref(delivery.reply);
}

std::shared_ptr<ReplyRouter> ReplyRouter::attach(GDBusConnection* connection) {
  auto router = std::make_shared<ReplyRouter>();
  // The connection holds a reference for its filter, released when it is finalized: as
  // object data, because GDBus calls a filter's own free function only when the filter is
  // removed, never when the connection goes (so a reference held there leaked, once per
  // connection). Its worker thread, which runs the filter, stops before that.
  auto held = std::make_unique<std::shared_ptr<ReplyRouter>>(router);
  g_dbus_connection_add_filter(connection, &ReplyRouter::filter, router.get(), nullptr);
  g_object_set_data_full(G_OBJECT(connection), "companyos-reply-router", held.release(),
                         [](gpointer data) {
                           std::unique_ptr<std::shared_ptr<ReplyRouter>> owned(
                               static_cast<std::shared_ptr<ReplyRouter>*>(data));
                         });
  return router;
}

bool ReplyRouter::send(GDBusConnection* connection, GDBusMessage* message,
                       const std::shared_ptr<Inbox>& inbox, std::uint64_t slot,
                       std::uint32_t* serial, GError** error) {
  // Registered under the same lock the filter takes, so a reply that comes back at once
  // still finds its waiter.
  std::lock_guard lock(mutex_);
  guint32 sent = 0;
  if (!g_dbus_connection_send_message(connection, message, G_DBUS_SEND_MESSAGE_FLAGS_NONE, &sent,
                                      error)) {
    return false;
  }
  waiting_.emplace(sent, Waiter{inbox, slot});
  *serial = sent;
  return true;
}

void ReplyRouter::forget(std::uint32_t serial) {
  std::lock_guard lock(mutex_);
  waiting_.erase(serial);
}

GDBusMessage* ReplyRouter::filter(GDBusConnection*, GDBusMessage* message, gboolean incoming,
                                  gpointer data) {
  if (!incoming) return message;
  const GDBusMessageType type = g_dbus_message_get_message_type(message);
  if (type != G_DBUS_MESSAGE_TYPE_METHOD_RETURN && type != G_DBUS_MESSAGE_TYPE_ERROR) {
    return message;
  }
  auto& router = *static_cast<ReplyRouter*>(data);
  std::lock_guard lock(router.mutex_);
  auto waiter = router.waiting_.find(g_dbus_message_get_reply_serial(message));
  if (waiter == router.waiting_.end()) return message;
  // Delivered under the router's lock: once forget() returns, nothing more arrives.
  waiter->second.inbox->deliver(waiter->second.slot, message);
  router.waiting_.erase(waiter);
  return nullptr;  // consumed: the inbox owns the message now
}

}  // namespace companyos::a11y
