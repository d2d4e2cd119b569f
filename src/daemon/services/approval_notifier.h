// Desktop notifications for runs waiting for a person's approval, through
// org.freedesktop.Notifications called directly (the daemon is no GApplication). It lives on
// the daemon's main loop: every interval it compares the runner's waiting runs with the
// notifications it posted (approval_notice.h) — posting one per new wait (with approve and
// deny actions when the server lists "actions"), closing those whose wait ended (approved,
// denied, stopped or expired). An ActionInvoked signal approves or denies a run only when it
// comes from the name's current owner and names a notification posted here. No session bus
// or no server: nothing is posted and nothing else changes. The `notifications` setting off:
// nothing is posted, and what was posted is closed.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/glib_handles.h"
#include "daemon/services/approval_notice.h"

namespace companyos::daemon {

class ApprovalNotifier {
 public:
  struct Hooks {
    std::function<std::vector<WaitingRun>()> waiting;  // the runner's waiting runs
    std::function<void(const DecidedRun&)> decide;     // approve or deny, as `run approve|deny`
    std::function<bool()> enabled;                     // the `notifications` setting
  };

  // Starts on the thread-default main context of the caller (the daemon's main loop).
  explicit ApprovalNotifier(Hooks hooks, std::chrono::milliseconds interval = std::chrono::seconds(1));
  ~ApprovalNotifier();
  ApprovalNotifier(const ApprovalNotifier&) = delete;
  ApprovalNotifier& operator=(const ApprovalNotifier&) = delete;

 private:
  static void on_bus(GObject* source, GAsyncResult* result, gpointer self);
  static void on_owner(GDBusConnection* bus, const gchar* name, const gchar* owner, gpointer self);
  static void on_owner_gone(GDBusConnection* bus, const gchar* name, gpointer self);
  static void on_capabilities(GObject* source, GAsyncResult* result, gpointer self);
  static void on_signal(GDBusConnection* bus, const gchar* sender, const gchar* path, const gchar* interface,
                        const gchar* signal, GVariant* parameters, gpointer self);
  static gboolean on_tick(gpointer self);

  void tick();
  void post(const WaitingRun& run);
  void close(std::uint32_t id);
  void forget(std::uint32_t id);

  Hooks hooks_;
  // Cancelled first in the destructor: a callback that comes after it touches nothing here.
  GObjectPtr<GCancellable> cancellable_;
  GObjectPtr<GDBusConnection> bus_;
  guint watch_ = 0;
  guint subscription_ = 0;
  guint timer_ = 0;
  std::optional<std::string> owner_;  // the unique name owning org.freedesktop.Notifications
  std::set<std::string> capabilities_;
  std::map<std::string, PostedNotice> posted_;  // by wait key
  std::set<std::string> handled_;               // wait keys posted, being posted or dismissed
  // Notify calls not answered yet; each owns its context until its callback, which the
  // destructor lets run (cancelled) so none is left behind.
  std::shared_ptr<int> posts_in_flight_ = std::make_shared<int>(0);
};

}  // namespace companyos::daemon
