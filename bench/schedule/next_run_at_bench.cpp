// Scheduler benchmark: nextRunAt for 10,000 automations with mixed expressions and zones
// (target: <= 100 ms in total), beside the costs around it: loading the tz database, parsing,
// filling a TriggerPlanner, and the shortest-gap check done when a definition is saved.
// Prints JSON, then a table. Usage: schedule_next_run_at_bench [--quick]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "schedule/schedule.h"
#include "schedule/shortest_gap.h"
#include "schedule/time_zone.h"
#include "schedule/trigger_planner.h"

namespace {

using companyos::FakeClock;
using companyos::schedule::Schedule;
using companyos::schedule::ScheduledAutomation;
using companyos::schedule::TriggerPlanner;
using Steady = std::chrono::steady_clock;

constexpr int kAutomations = 10'000;
constexpr double kTargetMs = 100.0;

constexpr std::string_view kExpressions[] = {
    "* * * * *",          "*/5 * * * *", "*/15 9-17 * * 1-5", "0 * * * *",     "30 2 * * *",
    "0 9 * * mon-fri",    "0 0 1 * *",   "0 0 31 * *",        "0 0 29 2 *",    "0 12 13 * fri",
    "15,45 1-3 * * *",    "@daily",      "@weekly",           "@monthly",      "@yearly",
    "0 6,18 * jan-mar *", "59 23 * * *", "10-50/10 8 * * *",  "0 0 */2 * sat", "5/20 * * * *",
    "0 4 1-7 * 0",        "30 1 * * 7",  "0 22 * * 1,3,5",    "0 0 28-31 * *",
};

constexpr std::string_view kZones[] = {
    "UTC",
    "Europe/Berlin",
    "America/New_York",
    "Australia/Lord_Howe",
    "Asia/Jakarta",
    "Europe/London",
    "America/Santiago",
    "Asia/Kolkata",
    "Pacific/Chatham",
    "America/Los_Angeles",
    "Africa/Casablanca",
    "Asia/Kathmandu",
};

double ms_since(Steady::time_point start) {
  return std::chrono::duration<double, std::milli>(Steady::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

std::vector<ScheduledAutomation> mixed_automations() {
  // Every expression meets every zone: automation i has expression i mod E and zone
  // (i div E) mod Z.
  std::vector<ScheduledAutomation> automations;
  const std::size_t count = std::size(kExpressions);
  for (std::size_t i = 0; i < kAutomations; ++i) {
    automations.push_back({static_cast<std::int64_t>(i + 1), std::string(kExpressions[i % count]),
                           std::string(kZones[(i / count) % std::size(kZones)]), true});
  }
  return automations;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string_view(argv[1]) == "--quick";
  const int rounds = quick ? 3 : 15;
  int failures = 0;

  auto start = Steady::now();
  for (auto zone : kZones) {
    if (!companyos::schedule::find_time_zone(zone).ok()) {
      std::cerr << "zone " << zone << " not found\n";
      ++failures;
    }
  }
  const double tz_load_ms = ms_since(start);

  const auto automations = mixed_automations();
  std::vector<Schedule> schedules;
  schedules.reserve(automations.size());
  start = Steady::now();
  for (const auto& a : automations) {
    auto schedule = Schedule::create(*a.schedule, a.timezone);
    if (!schedule) {
      std::cerr << *a.schedule << ": " << schedule.error().message << '\n';
      ++failures;
      continue;
    }
    schedules.push_back(std::move(schedule).value());
  }
  const double parse_ms = ms_since(start);

  // "now" values: an ordinary day, the eve of Europe's autumn change, and this moment.
  const std::int64_t nows[] = {1'781'000'000, 1'792'880'000,
                               std::chrono::duration_cast<std::chrono::seconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count()};
  std::vector<double> next_ms;
  std::int64_t checksum = 0;
  for (int round = 0; round < rounds; ++round) {
    std::int64_t now = nows[static_cast<std::size_t>(round) % std::size(nows)];
    start = Steady::now();
    for (const auto& schedule : schedules) checksum += schedule.next_after(now).value_or(0);
    next_ms.push_back(ms_since(start));
  }
  const double next_median = median(next_ms);
  const double next_worst = *std::max_element(next_ms.begin(), next_ms.end());

  FakeClock clock(nows[0]);
  TriggerPlanner planner(clock);
  start = Steady::now();
  for (const auto& a : automations) {
    if (!planner.upsert(a).ok()) ++failures;
  }
  auto earliest = planner.earliest();
  const double planner_fill_ms = ms_since(start);
  if (!earliest) ++failures;

  // Save-time validation cost: one shortest-gap computation per expression, in Berlin.
  nlohmann::json gap_costs = nlohmann::json::object();
  double gap_worst_us = 0;
  for (auto expression : kExpressions) {
    auto schedule = Schedule::create(expression, "Europe/Berlin");
    if (!schedule) continue;
    start = Steady::now();
    auto gap = companyos::schedule::shortest_gap(*schedule, nows[0]);
    double us = ms_since(start) * 1000;
    if (!gap) ++failures;
    gap_worst_us = std::max(gap_worst_us, us);
    gap_costs[std::string(expression)] = {{"us", static_cast<long>(us)},
                                          {"gap_seconds", gap ? gap->seconds : -1}};
  }

  const bool met = next_worst <= kTargetMs;
  nlohmann::json report = {
      {"benchmark", "schedule_next_run_at"},
      {"automations", schedules.size()},
      {"distinct_expressions", std::size(kExpressions)},
      {"zones", std::size(kZones)},
      {"rounds", rounds},
      {"tz_database_first_load_ms", tz_load_ms},
      {"parse_and_zone_10k_ms", parse_ms},
      {"next_run_at_10k_ms_median", next_median},
      {"next_run_at_10k_ms_worst", next_worst},
      {"planner_fill_10k_ms", planner_fill_ms},
      {"shortest_gap_worst_us", gap_worst_us},
      {"shortest_gap_berlin", gap_costs},
      {"checksum", checksum},
      {"targets", {{"next_run_at_10k_ms_worst", "<= 100"}}},
      {"met", met},
  };
  std::cout << report.dump(2) << "\n\n";
  std::printf("%-46s %10s %10s\n", "measure", "value", "target");
  std::printf("%-46s %10.2f %10s\n", "nextRunAt, 10,000 automations (worst ms)", next_worst,
              "<= 100");
  std::printf("%-46s %10.2f %10s\n", "nextRunAt, 10,000 automations (median ms)", next_median, "-");
  std::printf("%-46s %10.2f %10s\n", "parse + zone lookup, 10,000 (ms)", parse_ms, "-");
  std::printf("%-46s %10.2f %10s\n", "TriggerPlanner filled with 10,000 (ms)", planner_fill_ms,
              "-");
  std::printf("%-46s %10.2f %10s\n", "tz database first load (ms)", tz_load_ms, "-");
  std::printf("%-46s %10.0f %10s\n", "shortest gap, slowest expression (us)", gap_worst_us, "-");
  return failures == 0 ? 0 : 1;
}
