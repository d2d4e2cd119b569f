#include "a11y/wait/events.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include <spdlog/spdlog.h>

#include "a11y/bus.h"

namespace companyos::a11y {
namespace {

constexpr const char* kRegistryPath = "/org/a11y/atspi/registry";
constexpr const char* kRegistryInterface = "org.a11y.atspi.Registry";
// Unsubscribing hands GDBus's last reference to the sink back through an idle source of
// the subscriber's context; it runs within microseconds, this bound only guards a bug.
constexpr auto kUnsubscribeGrace = std::chrono::milliseconds(250);

enum class RegistrationState { kPending, kAccepted, kRefused };

// Registrations per connection, process-wide because connections are: the registry counts
// one listener per connection, however many waits share it.
struct Listeners {
  ConnectionRef connection;
  int holders = 0;
  RegistrationState state = RegistrationState::kPending;
};

class RegistrationTable {
 public:
  std::mutex mutex;
  std::vector<Listeners> entries;

  // Requires mutex held.
  Listeners& entry_for(const ConnectionRef& connection) {
    auto found = std::find_if(entries.begin(), entries.end(), [&](const Listeners& entry) {
      return entry.connection.get() == connection.get();
    });
    if (found != entries.end()) return *found;
    return entries.emplace_back(Listeners{connection, 0, RegistrationState::kPending});
  }
};

RegistrationTable& registrations() {
  static RegistrationTable table;
  return table;
}

struct RegistryAnswers {
  std::size_t accepted = 0;
  std::string refusal;
};

}  // namespace

std::optional<AtspiEvent> parse_atspi_event(std::string_view sender, std::string_view path,
                                            std::string_view interface, std::string_view member,
                                            GVariant* parameters,
                                            std::chrono::steady_clock::time_point received) {
  AtspiEvent event;
  if (interface == kWindowEventInterface) {
    event.family = AtspiEvent::Family::kWindow;
  } else if (interface == kObjectEventInterface) {
    event.family = AtspiEvent::Family::kObject;
  } else {
    return std::nullopt;
  }
  // Bridges send (siiva{sv}); very old ones sent (siiv).
  if (parameters == nullptr || (!g_variant_is_of_type(parameters, G_VARIANT_TYPE("(siiva{sv})")) &&
                                !g_variant_is_of_type(parameters, G_VARIANT_TYPE("(siiv)")))) {
    return std::nullopt;
  }
  event.sender = std::string(sender);
  event.path = std::string(path);
  event.member = std::string(member);
  event.detail = g_variant_get_string(child_of(parameters, 0).get(), nullptr);
  event.detail1 = g_variant_get_int32(child_of(parameters, 1).get());
  event.detail2 = g_variant_get_int32(child_of(parameters, 2).get());
  const VariantPtr boxed = child_of(parameters, 3);
  const VariantPtr any_data(g_variant_get_variant(boxed.get()));
  if (g_variant_is_of_type(any_data.get(), G_VARIANT_TYPE_STRING)) {
    event.text = g_variant_get_string(any_data.get(), nullptr);
  } else if (g_variant_is_of_type(any_data.get(), G_VARIANT_TYPE("(so)"))) {
    event.object = ObjectRef{g_variant_get_string(child_of(any_data.get(), 0).get(), nullptr),
                             g_variant_get_string(child_of(any_data.get(), 1).get(), nullptr)};
  }
  event.received = received;
  return event;
}

bool is_app_joined_or_left(const AtspiEvent& event) {
  return event.family == AtspiEvent::Family::kObject && event.member == "ChildrenChanged" &&
         event.path == kRootPath && event.object && event.object->path == kRootPath &&
         event.object->bus_name != event.sender;
}

EventRegistration EventRegistration::acquire(CallScope& scope, const Channel& bus) {
  RegistrationTable& table = registrations();
  // Handlers run inside scope.wait(), or when the scope cancels them, so they own their state.
  auto answers = std::make_shared<RegistryAnswers>();
  {
    std::lock_guard lock(table.mutex);
    Listeners& entry = table.entry_for(bus.connection);
    ++entry.holders;
    if (entry.holders > 1 && entry.state != RegistrationState::kRefused) {
      // Registered already, or being registered by a wait that started a moment ago.
      return EventRegistration(bus.connection, true);
    }
    entry.state = RegistrationState::kPending;
    // Sent under the lock so a concurrent last release's DeregisterEvent, sent under it
    // too, is ordered before or after these on the connection, never interleaved.
    const Channel registry{bus.connection, kRegistryName, bus.router};
    for (const char* kind : kWaitEventKinds) {
      scope.call(registry, kRegistryPath, kRegistryInterface, "RegisterEvent",
                 g_variant_new("(s@ass)", kind, g_variant_new_strv(nullptr, 0), ""),
                 [answers](GVariant* reply, const GError* error) {
                   if (reply != nullptr) {
                     ++answers->accepted;
                   } else if (error != nullptr) {
                     answers->refusal = error->message;
                   }
                 });
    }
  }
  scope.wait();
  const bool accepted = answers->accepted == kWaitEventKinds.size();
  if (!accepted) {
    spdlog::warn("a11y: the registry did not accept event listeners ({}); waits poll only",
                 answers->refusal.empty() ? "no answer" : answers->refusal);
  }
  std::lock_guard lock(table.mutex);
  table.entry_for(bus.connection).state =
      accepted ? RegistrationState::kAccepted : RegistrationState::kRefused;
  return EventRegistration(bus.connection, accepted);
}

EventRegistration::EventRegistration(EventRegistration&& other) noexcept
    : connection_(std::move(other.connection_)), active_(other.active_) {}

EventRegistration::~EventRegistration() {
  if (!connection_) return;
  RegistrationTable& table = registrations();
  std::lock_guard lock(table.mutex);
  Listeners& entry = table.entry_for(connection_);
  if (--entry.holders > 0) return;
  if (!g_dbus_connection_is_closed(connection_.get())) {
    for (const char* kind : kWaitEventKinds) {
      // No callback: GDBus sends it flagged no-reply-expected and needs no main context.
      g_dbus_connection_call(connection_.get(), kRegistryName, kRegistryPath, kRegistryInterface,
                             "DeregisterEvent", g_variant_new("(s)", kind), nullptr,
                             G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, nullptr, nullptr, nullptr);
    }
  }
  std::erase_if(table.entries, [&](const Listeners& listeners) { return listeners.holders <= 0; });
}

struct EventSubscription::Sink {
  Handler handler;
  int held_by_gdbus = 0;  // subscriptions whose destroy notify has not run yet
};

EventSubscription::EventSubscription(ConnectionRef connection, Handler handler)
    : connection_(std::move(connection)),
      context_(g_main_context_ref_thread_default()),
      sink_(std::make_unique<Sink>()) {
  sink_->handler = std::move(handler);
  const std::array<const char*, 2> interfaces = {kWindowEventInterface, kObjectEventInterface};
  for (std::size_t i = 0; i < interfaces.size(); ++i) {
    ids_[i] = g_dbus_connection_signal_subscribe(connection_.get(), nullptr, interfaces[i], nullptr,
                                                 nullptr, nullptr, G_DBUS_SIGNAL_FLAGS_NONE,
                                                 &EventSubscription::on_signal, sink_.get(),
                                                 &EventSubscription::on_unsubscribed);
    ++sink_->held_by_gdbus;
  }
}

EventSubscription::~EventSubscription() {
  sink_->handler = nullptr;  // deliveries still queued in the context are dropped
  for (guint id : ids_) g_dbus_connection_signal_unsubscribe(connection_.get(), id);
  const auto give_up = std::chrono::steady_clock::now() + kUnsubscribeGrace;
  while (sink_->held_by_gdbus > 0 && std::chrono::steady_clock::now() < give_up) {
    if (!g_main_context_iteration(context_.get(), FALSE)) g_usleep(1000);
  }
  if (sink_->held_by_gdbus > 0) {
    // GDBus may still touch the sink if this context is ever iterated again; keep it.
    spdlog::warn("a11y: event subscription not released in time; abandoning it");
    (void)sink_.release();
  }
}

void EventSubscription::on_signal(GDBusConnection*, const gchar* sender, const gchar* path,
                                  const gchar* interface, const gchar* member, GVariant* parameters,
                                  gpointer data) {
  auto* sink = static_cast<Sink*>(data);
  if (!sink->handler) return;
  try {
    auto event =
        parse_atspi_event(sender ? sender : "", path ? path : "", interface ? interface : "",
                          member ? member : "", parameters, std::chrono::steady_clock::now());
    if (event) sink->handler(std::move(*event));
  } catch (const std::exception& e) {
    spdlog::error("a11y: event handler failed: {}", e.what());
  } catch (...) {
    spdlog::error("a11y: event handler failed");
  }
}

void EventSubscription::on_unsubscribed(gpointer data) {
  --static_cast<Sink*>(data)->held_by_gdbus;
}

}  // namespace companyos::a11y
