// The trigger loop's timer on the GLib main loop: a timerfd on CLOCK_REALTIME armed at an
// absolute time (TFD_TIMER_ABSTIME), so it fires at that wall time even when the machine slept
// in between, and cancelled by any set of the wall clock and by a resume
// (TFD_TIMER_CANCEL_ON_SET), which it reports as kClockSet. It wakes the process only when one
// of these happens.
#pragma once

#include <glib.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "companyos/result.h"
#include "core/unique_fd.h"
#include "daemon/services/trigger_loop.h"

namespace companyos::daemon {

class RealtimeTimer final : public WakeTimer {
  struct Token {
    explicit Token() = default;
  };

 public:
  enum class Event { kExpired, kClockSet };
  using Handler = std::function<void(Event)>;

  // The timer starts disarmed; events are delivered on `context` (attached there at once).
  static Result<std::unique_ptr<RealtimeTimer>> create(GMainContext* context);
  // Through create() only (Token is private).
  RealtimeTimer(Token, UniqueFd fd) : fd_(std::move(fd)) {}
  RealtimeTimer(const RealtimeTimer&) = delete;
  RealtimeTimer& operator=(const RealtimeTimer&) = delete;

  // Called on the context's thread (exceptions are caught and logged). Set it before the loop runs.
  void on_event(Handler handler) { handler_ = std::move(handler); }

  // Unix seconds (whole seconds, as triggers are), or nullopt to disarm. A time already past
  // fires at once.
  void arm(std::optional<std::int64_t> at_unix) override;

 private:
  struct SourceDeleter {
    void operator()(GSource* source) const {
      g_source_destroy(source);
      g_source_unref(source);
    }
  };

  static gboolean on_readable(gint fd, GIOCondition condition, gpointer self);
  void settime();

  UniqueFd fd_;
  Handler handler_;
  std::optional<std::int64_t> armed_;
  std::unique_ptr<GSource, SourceDeleter> source_;  // last member: gone before the rest
};

}  // namespace companyos::daemon
