#include "daemon/server/log_rate_limit.h"

namespace companyos::daemon {

bool LogRateLimit::interval_passed() const {
  return !last_line_ || clock_.steady() - *last_line_ >= interval_;
}

LogRateLimit::Verdict LogRateLimit::note() {
  if (!interval_passed()) {
    ++left_out_;
    return {};
  }
  Verdict verdict{true, left_out_};
  left_out_ = 0;
  last_line_ = clock_.steady();
  return verdict;
}

std::optional<std::uint64_t> LogRateLimit::take_summary() {
  if (left_out_ == 0 || !interval_passed()) return std::nullopt;
  const std::uint64_t count = left_out_;
  left_out_ = 0;
  last_line_ = clock_.steady();
  return count;
}

}  // namespace companyos::daemon
