// Decides which of a stream of like events gets a log line, so that a flood (thousands of
// refused peers a second) cannot fill the disk or the journal: the first event is logged,
// the ones within `interval` of the last line are only counted, and the count is reported
// by the next line — the next event after the interval, or a summary the owner asks for.
// Time comes from the injected clock.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "core/clock.h"

namespace companyos::daemon {

class LogRateLimit {
 public:
  LogRateLimit(const Clock& clock, std::chrono::steady_clock::duration interval)
      : clock_(clock), interval_(interval) {}

  struct Verdict {
    bool log = false;
    std::uint64_t left_out_before = 0;  // events counted, not logged, since the last line
  };

  // One event: whether to log it, and how many were left out before it.
  Verdict note();
  // The count of events left out, once the interval since the last line has passed
  // (they count as reported then); nothing while a line is still recent or none were left out.
  std::optional<std::uint64_t> take_summary();
  // Events counted and not yet reported.
  std::uint64_t left_out() const { return left_out_; }

 private:
  bool interval_passed() const;

  const Clock& clock_;
  std::chrono::steady_clock::duration interval_;
  std::optional<std::chrono::steady_clock::time_point> last_line_;
  std::uint64_t left_out_ = 0;
};

}  // namespace companyos::daemon
