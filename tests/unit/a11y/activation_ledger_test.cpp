#include "a11y/act/activation_ledger.h"

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

using namespace std::chrono_literals;
using Clock = ActivationLedger::Clock;

TEST(ActivationLedger, SpacesActivationsOfOneElement) {
  const Clock::time_point t0{10s};
  struct Step {
    const char* element;
    Clock::duration at;  // after t0
    Clock::duration wait;
  };
  const Step steps[] = {
      {":1.2/a", 0ms, 0ms},      // first activation: no wait
      {":1.2/a", 100ms, 200ms},  // 100 ms later: until 300 ms after the first
      {":1.2/b", 100ms, 0ms},    // another element is not held up
      {":1.2/a", 150ms, 450ms},  // booked after the second (at 300 ms): 600 ms
      {":1.2/a", 2s, 0ms},       // long after: no wait
      {":1.3/a", 2s, 0ms},       // same path in another app
  };
  ActivationLedger ledger;
  for (const Step& step : steps) {
    EXPECT_EQ(ledger.reserve(step.element, t0 + step.at, 300ms), step.wait)
        << step.element << " at "
        << std::chrono::duration_cast<std::chrono::milliseconds>(step.at).count() << " ms";
  }
}

TEST(ActivationLedger, ZeroSpacingNeverWaits) {
  ActivationLedger ledger;
  const Clock::time_point t0{10s};
  EXPECT_EQ(ledger.reserve("x", t0, 0ms), Clock::duration{0});
  EXPECT_EQ(ledger.reserve("x", t0, 0ms), Clock::duration{0});
}

TEST(ActivationLedger, ForgetsOldBookingsButKeepsRecentOnes) {
  ActivationLedger ledger;
  const Clock::time_point t0{10s};
  for (int i = 0; i < 300; ++i) ledger.reserve("old" + std::to_string(i), t0, 300ms);
  ledger.reserve("recent", t0 + 60s, 300ms);
  // Pruning ran (more than 256 bookings) and must not have dropped the recent one.
  for (int i = 0; i < 300; ++i) ledger.reserve("new" + std::to_string(i), t0 + 60s, 300ms);
  EXPECT_EQ(ledger.reserve("recent", t0 + 60s + 100ms, 300ms), 200ms);
  EXPECT_EQ(ledger.reserve("old1", t0 + 60s, 300ms), Clock::duration{0});
}

TEST(ActivationLedger, ConcurrentActivationsOfOneElementAreAllSpaced) {
  ActivationLedger ledger;
  const Clock::time_point t0{10s};
  std::vector<Clock::duration> waits(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < waits.size(); ++i) {
    threads.emplace_back([&, i] { waits[i] = ledger.reserve("b", t0, 300ms); });
  }
  for (auto& thread : threads) thread.join();
  std::sort(waits.begin(), waits.end());
  for (std::size_t i = 0; i < waits.size(); ++i) EXPECT_EQ(waits[i], 300ms * i);
}

}  // namespace
}  // namespace companyos::a11y
