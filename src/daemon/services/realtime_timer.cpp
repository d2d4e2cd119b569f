#include "daemon/services/realtime_timer.h"

#include <glib-unix.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <string>

#include <spdlog/spdlog.h>

namespace companyos::daemon {

Result<std::unique_ptr<RealtimeTimer>> RealtimeTimer::create(GMainContext* context) {
  UniqueFd fd(::timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC));
  if (!fd.valid()) {
    return make_error(ErrorCode::kInternal,
                      std::string("cannot create the scheduler's timer: ") + std::strerror(errno));
  }
  auto timer = std::make_unique<RealtimeTimer>(Token{}, std::move(fd));
  timer->source_.reset(g_unix_fd_source_new(timer->fd_.get(), G_IO_IN));
  g_source_set_callback(timer->source_.get(), G_SOURCE_FUNC(&RealtimeTimer::on_readable),
                        timer.get(), nullptr);
  g_source_attach(timer->source_.get(), context);
  // Disarmed, but already watching for a clock set.
  timer->settime();
  return timer;
}

void RealtimeTimer::arm(std::optional<std::int64_t> at_unix) {
  armed_ = at_unix;
  settime();
}

// Every settime also resets the cancel state: after a clock set the fd stays readable (each
// read fails with ECANCELED) until the timer is set again.
void RealtimeTimer::settime() {
  itimerspec spec{};
  if (armed_) {
    // 0 would disarm; the epoch itself is never a trigger worth keeping apart from "now".
    spec.it_value.tv_sec = static_cast<time_t>(*armed_ > 0 ? *armed_ : 1);
  }
  if (::timerfd_settime(fd_.get(), TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, nullptr) != 0) {
    spdlog::error("schedule: cannot arm the timer: {}", std::strerror(errno));
  }
}

gboolean RealtimeTimer::on_readable(gint fd, GIOCondition, gpointer self) {
  auto* timer = static_cast<RealtimeTimer*>(self);
  std::uint64_t expirations = 0;
  const ssize_t got = ::read(fd, &expirations, sizeof expirations);
  Event event = Event::kExpired;
  if (got < 0 && errno == ECANCELED) {
    event = Event::kClockSet;
    // Armed again as it was, so the fd is quiet even if the handler arms nothing new.
    timer->settime();
  } else if (got != static_cast<ssize_t>(sizeof expirations)) {
    return G_SOURCE_CONTINUE;  // EAGAIN: another reader or a spurious wake-up
  }
  // No exception may unwind into GLib.
  try {
    if (timer->handler_) timer->handler_(event);
  } catch (const std::exception& e) {
    spdlog::error("schedule: the trigger loop failed: {}", e.what());
  }
  return G_SOURCE_CONTINUE;
}

}  // namespace companyos::daemon
