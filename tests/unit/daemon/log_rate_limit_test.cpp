#include "daemon/server/log_rate_limit.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace companyos::daemon {
namespace {

using namespace std::chrono_literals;

// One step of a scenario: advance the clock, then note `times` events (each answered the
// same) or ask for the summary, and what the limiter must answer.
enum class Do { kNote, kSummary };
struct Step {
  std::chrono::milliseconds advance;
  Do action;
  bool logged;          // kNote: logged; kSummary: a count came back
  std::uint64_t count;  // kNote: left_out_before; kSummary: the count
  int times = 1;
};

struct Scenario {
  const char* label;
  std::vector<Step> steps;
};

TEST(LogRateLimit, LogsTheFirstThenCountsUntilTheIntervalPasses) {
  constexpr Do kNote = Do::kNote;
  constexpr Do kSummary = Do::kSummary;
  const Scenario scenarios[] = {
      {"first event is logged", {{0ms, kNote, true, 0}}},
      {"a burst: one line, the rest counted", {{0ms, kNote, true, 0}, {1ms, kNote, false, 0, 3}}},
      {"the next line after the interval reports the count",
       {{0ms, kNote, true, 0}, {1ms, kNote, false, 0, 2}, {10'000ms, kNote, true, 2}}},
      {"just before the interval is still counted",
       {{0ms, kNote, true, 0}, {9'999ms, kNote, false, 0}, {1ms, kNote, true, 1}}},
      {"events spaced wider than the interval are all logged",
       {{0ms, kNote, true, 0}, {10'000ms, kNote, true, 0}, {25'000ms, kNote, true, 0}}},
      {"no summary while the last line is recent",
       {{0ms, kNote, true, 0}, {1ms, kNote, false, 0}, {5'000ms, kSummary, false, 0}}},
      {"a summary once the interval passed, then nothing left",
       {{0ms, kNote, true, 0}, {1ms, kNote, false, 0, 2}, {10'000ms, kSummary, true, 2},
        {0ms, kSummary, false, 0}}},
      {"the summary is a line: the next event is counted again",
       {{0ms, kNote, true, 0}, {1ms, kNote, false, 0}, {10'000ms, kSummary, true, 1},
        {1ms, kNote, false, 0}, {10'000ms, kNote, true, 1}}},
      {"no summary when nothing was left out", {{0ms, kNote, true, 0}, {20'000ms, kSummary, false, 0}}},
      {"a flood of 2,000: one line and one summary of 1,999",
       {{0ms, kNote, true, 0}, {1ms, kNote, false, 0, 1999}, {10'000ms, kSummary, true, 1999}}},
  };
  for (const Scenario& s : scenarios) {
    SCOPED_TRACE(s.label);
    FakeClock clock;
    LogRateLimit limit(clock, 10s);
    int index = 0;
    for (const Step& step : s.steps) {
      SCOPED_TRACE("step " + std::to_string(index++));
      clock.advance(step.advance);
      if (step.action == kSummary) {
        const auto count = limit.take_summary();
        EXPECT_EQ(count.has_value(), step.logged);
        if (count) {
          EXPECT_EQ(*count, step.count);
        }
        continue;
      }
      for (int i = 0; i < step.times; ++i) {
        const auto verdict = limit.note();
        EXPECT_EQ(verdict.log, step.logged);
        EXPECT_EQ(verdict.left_out_before, step.count);
      }
    }
  }
}

}  // namespace
}  // namespace companyos::daemon
