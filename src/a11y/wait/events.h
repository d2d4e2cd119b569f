// AT-SPI events for waits: asking the registry to make apps emit the kinds a wait needs,
// and receiving those events as D-Bus signals on the waiting thread's own main context.
//
// Toolkit bridges emit only the kinds some client registered with the registry
// (org.a11y.atspi.Registry.RegisterEvent). The registry keeps listeners per bus connection
// and DeregisterEvent drops every registration of a kind by that connection, so
// registrations are counted per connection across concurrent waits: the first wait
// registers, the last one deregisters. They are not kept for the daemon's life because,
// while they exist, every app on the desktop serializes and broadcasts every state, text
// and child change (the load a screen reader puts on a desktop).
#pragma once

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <gio/gio.h>

#include "a11y/bus/call_scope.h"
#include "core/glib_handles.h"

namespace companyos::a11y {

// The kinds a wait registers, spelled as the registry and libatspi spell them.
inline constexpr std::array<const char*, 5> kWaitEventKinds = {
    "window:", "object:children-changed", "object:property-change", "object:state-changed",
    "object:text-changed"};

inline constexpr const char* kWindowEventInterface = "org.a11y.atspi.Event.Window";
inline constexpr const char* kObjectEventInterface = "org.a11y.atspi.Event.Object";

struct ObjectRef {
  std::string bus_name;
  std::string path;
  friend bool operator==(const ObjectRef&, const ObjectRef&) = default;
};

// One event signal, e.g. Window "Destroy" (text = the window's title) or Object
// "ChildrenChanged" detail "remove" (object = the child removed).
struct AtspiEvent {
  enum class Family { kWindow, kObject };
  Family family = Family::kObject;
  std::string sender;  // the emitter's unique bus name
  std::string path;    // the accessible the event is about
  std::string member;  // "Destroy", "StateChanged", ...
  std::string detail;  // "add", "showing", "accessible-name", ... ("" when none)
  int detail1 = 0;
  int detail2 = 0;
  std::optional<std::string> text;  // any_data when it is a string
  std::optional<ObjectRef> object;  // any_data when it is an object reference
  std::chrono::steady_clock::time_point received;
};

// nullopt unless the signal is an AT-SPI event: interface Event.Window or Event.Object and
// parameters of type (siiva{sv}).
std::optional<AtspiEvent> parse_atspi_event(std::string_view sender, std::string_view path,
                                            std::string_view interface, std::string_view member,
                                            GVariant* parameters,
                                            std::chrono::steady_clock::time_point received);

// The registry announces apps joining and leaving as children of the desktop root whose
// any_data is the app's own root; an app's own root children are its windows.
bool is_app_joined_or_left(const AtspiEvent& event);

// Holds the registry registration of kWaitEventKinds on one bus connection while it lives.
class EventRegistration {
 public:
  // Registers unless a live registration on the same connection already did, waiting
  // (within the scope's deadline, no lock held) for the registry's answers. Never fails:
  // active() tells whether the registry accepted, and a wait without events polls.
  static EventRegistration acquire(CallScope& scope, const Channel& bus);

  EventRegistration(EventRegistration&& other) noexcept;
  EventRegistration& operator=(EventRegistration&&) = delete;
  EventRegistration(const EventRegistration&) = delete;
  ~EventRegistration();  // the last one on its connection deregisters (no reply awaited)

  bool active() const { return active_; }

 private:
  EventRegistration(ConnectionRef connection, bool active)
      : connection_(std::move(connection)), active_(active) {}
  ConnectionRef connection_;
  bool active_ = false;
};

// Receives every sender's Event.Window and Event.Object signals on a connection. The
// handler runs in the thread-default main context current at construction, only while
// that context is iterated. Destroy it on that thread with that context still the default:
// unsubscribing then iterates the context until GDBus has let go of the handler.
class EventSubscription {
 public:
  using Handler = std::function<void(AtspiEvent event)>;

  EventSubscription(ConnectionRef connection, Handler handler);
  ~EventSubscription();
  EventSubscription(const EventSubscription&) = delete;
  EventSubscription& operator=(const EventSubscription&) = delete;

 private:
  struct Sink;
  static void on_signal(GDBusConnection* connection, const gchar* sender, const gchar* path,
                        const gchar* interface, const gchar* member, GVariant* parameters,
                        gpointer data);
  static void on_unsubscribed(gpointer data);

  ConnectionRef connection_;
  MainContextPtr context_;
  std::unique_ptr<Sink> sink_;
  std::array<guint, 2> ids_{};
};

}  // namespace companyos::a11y
