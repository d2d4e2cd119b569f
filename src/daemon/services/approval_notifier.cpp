#include "daemon/services/approval_notifier.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <utility>

namespace companyos::daemon {
namespace {

constexpr const char* kName = "org.freedesktop.Notifications";
constexpr const char* kPath = "/org/freedesktop/Notifications";
constexpr const char* kInterface = "org.freedesktop.Notifications";

bool cancelled(const GError* error) { return error != nullptr && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED); }

// A call's reply, or nullptr with the error (cancelled included).
VariantPtr finish(GObject* source, GAsyncResult* result, ErrorPtr& error) {
  GError* raw = nullptr;
  VariantPtr reply(g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &raw));
  error.reset(raw);
  return reply;
}

// What a posted Notify call must remember until its reply: whose wait it is.
struct PendingPost {
  ApprovalNotifier* notifier;
  std::string key;
  std::int64_t run_id;
  std::shared_ptr<int> in_flight;
};

// How long the destructor lets cancelled calls call back (each comes at once).
constexpr std::chrono::milliseconds kDrainLimit{1000};

}  // namespace

ApprovalNotifier::ApprovalNotifier(Hooks hooks, std::chrono::milliseconds interval)
    : hooks_(std::move(hooks)), cancellable_(g_cancellable_new()) {
  g_bus_get(G_BUS_TYPE_SESSION, cancellable_.get(), &ApprovalNotifier::on_bus, this);
  timer_ = g_timeout_add(static_cast<guint>(interval.count()), &ApprovalNotifier::on_tick, this);
}

ApprovalNotifier::~ApprovalNotifier() {
  g_cancellable_cancel(cancellable_.get());
  const auto until = std::chrono::steady_clock::now() + kDrainLimit;
  while (*posts_in_flight_ > 0 && std::chrono::steady_clock::now() < until) {
    g_main_context_iteration(nullptr, FALSE);
  }
  if (timer_ != 0) g_source_remove(timer_);
  if (watch_ != 0) g_bus_unwatch_name(watch_);
  if (bus_ && subscription_ != 0) g_dbus_connection_signal_unsubscribe(bus_.get(), subscription_);
}

void ApprovalNotifier::on_bus(GObject*, GAsyncResult* result, gpointer self) {
  GError* raw = nullptr;
  GDBusConnection* bus = g_bus_get_finish(result, &raw);
  const ErrorPtr error(raw);
  // Cancelled (the notifier is gone): the task reports it even when the bus had come, and
  // nothing here may be touched.
  if (bus == nullptr) {
    if (!cancelled(error.get())) spdlog::info("approval notifications: no session bus ({})", error->message);
    return;
  }
  auto* notifier = static_cast<ApprovalNotifier*>(self);
  notifier->bus_.reset(bus);
  // Any sender: the signal handler itself holds the sender to the name's current owner.
  notifier->subscription_ = g_dbus_connection_signal_subscribe(bus, nullptr, kInterface, nullptr, kPath, nullptr,
                                                               G_DBUS_SIGNAL_FLAGS_NONE, &ApprovalNotifier::on_signal,
                                                               notifier, nullptr);
  notifier->watch_ = g_bus_watch_name_on_connection(bus, kName, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                    &ApprovalNotifier::on_owner, &ApprovalNotifier::on_owner_gone,
                                                    notifier, nullptr);
}

void ApprovalNotifier::on_owner(GDBusConnection* bus, const gchar*, const gchar* owner, gpointer self) {
  auto* notifier = static_cast<ApprovalNotifier*>(self);
  notifier->owner_ = owner;
  notifier->capabilities_.clear();
  g_dbus_connection_call(bus, kName, kPath, kInterface, "GetCapabilities", nullptr, G_VARIANT_TYPE("(as)"),
                         G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, notifier->cancellable_.get(),
                         &ApprovalNotifier::on_capabilities, notifier);
}

void ApprovalNotifier::on_owner_gone(GDBusConnection*, const gchar*, gpointer self) {
  auto* notifier = static_cast<ApprovalNotifier*>(self);
  // The server took its notifications with it; a new one gets the waits posted again.
  notifier->owner_.reset();
  notifier->capabilities_.clear();
  notifier->posted_.clear();
  notifier->handled_.clear();
}

void ApprovalNotifier::on_capabilities(GObject* source, GAsyncResult* result, gpointer self) {
  ErrorPtr error;
  const VariantPtr reply = finish(source, result, error);
  if (!reply) return;  // cancelled, or a server without capabilities: posted without actions
  auto* notifier = static_cast<ApprovalNotifier*>(self);
  const VariantPtr list(g_variant_get_child_value(reply.get(), 0));
  for (gsize i = 0; i < g_variant_n_children(list.get()); ++i) {
    const VariantPtr item(g_variant_get_child_value(list.get(), i));
    notifier->capabilities_.insert(g_variant_get_string(item.get(), nullptr));
  }
}

void ApprovalNotifier::on_signal(GDBusConnection*, const gchar* sender, const gchar*, const gchar*,
                                 const gchar* signal, GVariant* parameters, gpointer self) {
  auto* notifier = static_cast<ApprovalNotifier*>(self);
  const std::string name(signal);
  if (name == "NotificationClosed" && g_variant_is_of_type(parameters, G_VARIANT_TYPE("(uu)"))) {
    guint32 id = 0;
    guint32 reason = 0;
    g_variant_get(parameters, "(uu)", &id, &reason);
    // Only ours, and only from the server itself: a forged close could hide a wait.
    if (notifier->owner_ && sender != nullptr && *notifier->owner_ == sender) notifier->forget(id);
    return;
  }
  if (name != "ActionInvoked" || !g_variant_is_of_type(parameters, G_VARIANT_TYPE("(us)"))) return;
  guint32 id = 0;
  const gchar* action = nullptr;
  g_variant_get(parameters, "(u&s)", &id, &action);
  const auto decided = decide(sender != nullptr ? sender : "", notifier->owner_, id, action, notifier->posted_);
  if (!decided) {
    spdlog::warn("approval notifications: ignored {} \"{}\" on notification {} from {}", name, action, id,
                 sender != nullptr ? sender : "?");
    return;
  }
  spdlog::info("run {} {} from its desktop notification", decided->run_id,
               decided->decision == Decision::kApprove ? "approved" : "denied");
  notifier->hooks_.decide(*decided);
}

gboolean ApprovalNotifier::on_tick(gpointer self) {
  static_cast<ApprovalNotifier*>(self)->tick();
  return G_SOURCE_CONTINUE;
}

void ApprovalNotifier::tick() {
  if (!bus_ || !owner_) return;
  std::vector<WaitingRun> waiting = hooks_.waiting();
  // The setting is read only when something waits or is posted: idle ticks touch no store.
  if ((!waiting.empty() || !posted_.empty()) && !hooks_.enabled()) waiting.clear();
  const NoticePlan plan = plan_notices(waiting, posted_, handled_);
  for (const std::uint32_t id : plan.close) close(id);
  for (const WaitingRun& run : plan.post) post(run);
  // Keys of waits that ended are dropped, so the set stays as small as what waits.
  std::set<std::string> still;
  for (const WaitingRun& run : waiting) {
    if (handled_.contains(run.key())) still.insert(run.key());
  }
  for (const WaitingRun& run : plan.post) still.insert(run.key());
  handled_ = std::move(still);
}

void ApprovalNotifier::post(const WaitingRun& run) {
  handled_.insert(run.key());
  const NoticeText text = notice_text(run, capabilities_.contains("body-markup"));
  GVariantBuilder actions;
  g_variant_builder_init(&actions, G_VARIANT_TYPE("as"));
  if (capabilities_.contains("actions") && !run.question) {
    for (const char* word : {"approve", "Approve", "deny", "Deny"}) g_variant_builder_add(&actions, "s", word);
  }
  GVariantBuilder hints;
  g_variant_builder_init(&hints, G_VARIANT_TYPE("a{sv}"));
  g_variant_builder_add(&hints, "{sv}", "urgency", g_variant_new_byte(1));
  g_variant_builder_add(&hints, "{sv}", "resident", g_variant_new_boolean(TRUE));
  auto pending = std::make_unique<PendingPost>(PendingPost{this, run.key(), run.run_id, posts_in_flight_});
  ++*posts_in_flight_;
  // Expires never (0): the run's own deadline ends the wait, and then this closes it.
  g_dbus_connection_call(
      bus_.get(), kName, kPath, kInterface, "Notify",
      g_variant_new("(susssasa{sv}i)", "companyOS", 0U, "", text.summary.c_str(), text.body.c_str(), &actions, &hints,
                    0),
      G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, cancellable_.get(),
      [](GObject* source, GAsyncResult* result, gpointer data) {
        const std::unique_ptr<PendingPost> post(static_cast<PendingPost*>(data));
        --*post->in_flight;
        ErrorPtr error;
        const VariantPtr reply = finish(source, result, error);
        if (cancelled(error.get())) return;
        ApprovalNotifier& notifier = *post->notifier;
        if (!reply) {
          spdlog::info("approval notifications: Notify failed ({})", error ? error->message : "no reply");
          return;
        }
        guint32 id = 0;
        g_variant_get(reply.get(), "(u)", &id);
        notifier.posted_[post->key] = PostedNotice{id, post->run_id};
      },
      pending.release());
}

void ApprovalNotifier::close(std::uint32_t id) {
  forget(id);
  g_dbus_connection_call(bus_.get(), kName, kPath, kInterface, "CloseNotification", g_variant_new("(u)", id), nullptr,
                         G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, cancellable_.get(), nullptr, nullptr);
}

void ApprovalNotifier::forget(std::uint32_t id) {
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if (it->second.id == id) {
      posted_.erase(it);
      return;
    }
  }
}

}  // namespace companyos::daemon
