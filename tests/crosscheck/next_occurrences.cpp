// Test helper: prints trigger times computed by companyos_schedule, for the cross-check.
//   next_occurrences EXPRESSION ZONE AFTER COUNT   the next COUNT triggers after AFTER (Unix
//                                                  seconds), one per line: unix, UTC, local
//   next_occurrences --batch                       reads "EXPRESSION<TAB>ZONE<TAB>AFTER<TAB>UNTIL"
//                                                  lines; answers each with the triggers in
//                                                  (AFTER, UNTIL) on one line, or "error: ..."
#include <date/tz.h>

#include <charconv>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schedule/schedule.h"

namespace {

using companyos::schedule::Schedule;

constexpr int kMaxTriggersPerLine = 200'000;

std::optional<std::int64_t> read_int(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> parts;
  for (;;) {
    auto tab = line.find('\t');
    parts.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) return parts;
    line.remove_prefix(tab + 1);
  }
}

std::string answer(std::string_view line) {
  auto parts = split_tabs(line);
  if (parts.size() != 4) return "error: expected 4 tab-separated columns";
  auto after = read_int(parts[2]);
  auto until = read_int(parts[3]);
  if (!after || !until) return "error: AFTER and UNTIL must be integers";
  auto schedule = Schedule::create(parts[0], parts[1]);
  if (!schedule) return "error: " + schedule.error().message;
  std::string out;
  std::int64_t at = *after;
  for (int count = 0; count < kMaxTriggersPerLine; ++count) {
    auto next = schedule->next_after(at);
    if (!next || *next >= *until) break;
    if (!out.empty()) out += ' ';
    out += std::to_string(*next);
    at = *next;
  }
  return out;
}

int run_batch() {
  std::string line;
  while (std::getline(std::cin, line)) std::cout << answer(line) << '\n';
  return 0;
}

int print_next(std::string_view expression, std::string_view zone, std::string_view after_text,
               std::string_view count_text) {
  auto after = read_int(after_text);
  auto count = read_int(count_text);
  if (!after || !count || *count < 0) {
    std::cerr << "next_occurrences: AFTER and COUNT must be integers\n";
    return 2;
  }
  auto schedule = Schedule::create(expression, zone);
  if (!schedule) {
    std::cerr << "next_occurrences: " << schedule.error().message << '\n';
    return 1;
  }
  std::int64_t at = *after;
  for (std::int64_t i = 0; i < *count; ++i) {
    auto next = schedule->next_after(at);
    if (!next) break;
    date::sys_seconds instant{std::chrono::seconds{*next}};
    date::zoned_seconds local{&schedule->zone(), instant};
    std::cout << *next << '\t' << date::format("%FT%TZ", instant) << '\t'
              << date::format("%F %T %Z", local) << '\n';
    at = *next;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--batch") return run_batch();
  if (argc == 5) return print_next(argv[1], argv[2], argv[3], argv[4]);
  std::cerr
      << "usage: next_occurrences EXPRESSION ZONE AFTER COUNT\n"
         "       next_occurrences --batch   (lines: EXPRESSION<TAB>ZONE<TAB>AFTER<TAB>UNTIL)\n";
  return 2;
}
