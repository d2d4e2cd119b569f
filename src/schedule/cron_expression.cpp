#include "schedule/cron_expression.h"

#include <date/date.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/text.h"

namespace companyos::schedule {
namespace {

constexpr std::string_view kSyntaxHint =
    "five fields: minute hour day-of-month month day-of-week, e.g. \"30 2 * * *\"; "
    "or one of @hourly @daily @midnight @weekly @monthly @yearly @annually";

constexpr std::array<std::string_view, 12> kMonthNames{"jan", "feb", "mar", "apr", "may", "jun",
                                                       "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<std::string_view, 7> kDayNames{"sun", "mon", "tue", "wed",
                                                    "thu", "fri", "sat"};

constexpr int kDayOfWeekField = 5;

struct FieldSpec {
  int number;  // 1-based position, as people count fields
  std::string_view name;
  int min;
  int max;
  std::span<const std::string_view> names;  // names[i] stands for min + i
};

constexpr std::array<FieldSpec, 5> kFields{{
    {1, "minute", 0, 59, {}},
    {2, "hour", 0, 23, {}},
    {3, "day of month", 1, 31, {}},
    {4, "month", 1, 12, kMonthNames},
    {5, "day of week", 0, 7, kDayNames},  // 7 is Sunday again
}};

struct Alias {
  std::string_view name;
  std::string_view fields;
};

constexpr std::array<Alias, 7> kAliases{{
    {"@hourly", "0 * * * *"},
    {"@daily", "0 0 * * *"},
    {"@midnight", "0 0 * * *"},
    {"@weekly", "0 0 * * 0"},
    {"@monthly", "0 0 1 * *"},
    {"@yearly", "0 0 1 1 *"},
    {"@annually", "0 0 1 1 *"},
}};

bool is_blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split_on_blanks(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && is_blank(text[pos])) ++pos;
    std::size_t end = pos;
    while (end < text.size() && !is_blank(text[end])) ++end;
    if (end > pos) words.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return words;
}

std::vector<std::string_view> split_list(std::string_view field) {
  std::vector<std::string_view> items;
  std::size_t start = 0;
  for (;;) {
    auto comma = field.find(',', start);
    items.push_back(field.substr(start, comma - start));  // npos - start takes the rest
    if (comma == std::string_view::npos) return items;
    start = comma + 1;
  }
}

// Plain decimal digits only: no sign, no blanks.
std::optional<long long> read_number(std::string_view token) {
  if (token.empty() || !std::ranges::all_of(token, [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  long long value = 0;
  auto [stop, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  // Digits too long for long long are still a number, just outside every range.
  if (ec == std::errc::result_out_of_range) return std::numeric_limits<long long>::max();
  return value;
}

// The first bad list item of a field and what is wrong with it.
struct FieldProblem {
  std::string_view item;
  std::string reason;
};

class FieldParser {
 public:
  explicit FieldParser(const FieldSpec& spec) : spec_(spec) {}

  // The field's value bits, or its first bad item.
  std::variant<std::uint64_t, FieldProblem> parse(std::string_view field) const {
    std::uint64_t bits = 0;
    for (std::string_view item : split_list(field)) {
      if (auto reason = add_item(item, bits)) return FieldProblem{item, std::move(*reason)};
    }
    return bits;
  }

 private:
  using Value = std::variant<long long, std::string>;  // the value or why it is bad

  // item := ('*' | value | value '-' value) ['/' step]; "5/15" means 5-max/15 as in Vixie cron.
  std::optional<std::string> add_item(std::string_view item, std::uint64_t& bits) const {
    if (item.empty()) return "empty list item";
    std::string_view range = item;
    long long step = 1;
    bool has_step = false;
    if (auto slash = item.find('/'); slash != std::string_view::npos) {
      has_step = true;
      range = item.substr(0, slash);
      std::string_view step_text = item.substr(slash + 1);
      auto number = read_number(step_text);
      if (!number) return "step \"" + std::string(step_text) + "\" is not a number";
      if (*number == 0) return "step 0 is not allowed";
      // Day of week 0-7 spans seven distinct days.
      long long span = spec_.number == kDayOfWeekField ? 7 : spec_.max - spec_.min + 1;
      if (*number > span) {
        return "step " + std::string(step_text) + " out of range 1-" + std::to_string(span);
      }
      step = *number;
    }
    if (range.empty()) return "missing range before '/'";

    long long low = spec_.min;
    long long high = spec_.max;
    if (range != "*") {
      auto dash = range.find('-');
      Value first = read_value(range.substr(0, dash), item);
      if (auto* reason = std::get_if<std::string>(&first)) return std::move(*reason);
      low = std::get<long long>(first);
      high = has_step ? spec_.max : low;
      if (dash != std::string_view::npos) {
        std::string_view end_token = range.substr(dash + 1);
        Value last = read_value(end_token, item);
        if (auto* reason = std::get_if<std::string>(&last)) return std::move(*reason);
        high = std::get<long long>(last);
        // "fri-sun" means Friday to Sunday: the name sun ending a range is day 7.
        if (spec_.number == kDayOfWeekField && high == 0 && low > 0 && !read_number(end_token)) {
          high = 7;
        }
        if (low > high) {
          return "reversed range " + std::to_string(low) + "-" + std::to_string(high) +
                 " (the start must not be after the end)";
        }
      }
    }
    for (long long v = low; v <= high; v += step) bits |= std::uint64_t{1} << v;
    return std::nullopt;
  }

  // A number in the field's range, or a three-letter name where the field has names.
  Value read_value(std::string_view token, std::string_view item) const {
    if (token.empty()) return std::string("missing value");
    for (std::size_t i = 0; i < spec_.names.size(); ++i) {
      if (equals_ignoring_ascii_case(token, spec_.names[i])) return spec_.min + static_cast<long long>(i);
    }
    auto number = read_number(token);
    if (!number) {
      std::string reason = "\"" + std::string(token) + "\" is not a number";
      if (!spec_.names.empty()) {
        reason += " or a name (" + std::string(spec_.names.front()) + "-" +
                  std::string(spec_.names.back()) + ")";
      }
      return reason;
    }
    if (*number < spec_.min || *number > spec_.max) {
      std::string range = std::to_string(spec_.min) + "-" + std::to_string(spec_.max);
      if (token == item) return "value out of range " + range;
      return "value " + std::string(token) + " out of range " + range;
    }
    return *number;
  }

  const FieldSpec& spec_;
};

Error field_error(const FieldSpec& spec, std::string_view item, std::string_view reason,
                  std::string_view expression) {
  std::string message = "schedule: field " + std::to_string(spec.number) + " (" +
                        std::string(spec.name) + ") \"" + std::string(item) +
                        "\": " + std::string(reason);
  return make_error(ErrorCode::kInvalidArgs, std::move(message),
                    {{"expression", std::string(expression)},
                     {"field", spec.number},
                     {"field_name", spec.name},
                     {"item", std::string(item)}},
                    std::string(kSyntaxHint));
}

// With the OR rule any weekday of any month fires; with the AND rule some selected day of
// month must exist in some selected month (every date meets every weekday over the years).
bool can_fire(const CronExpression& e) {
  if (!e.day_of_month_starred && !e.day_of_week_starred) return true;
  for (unsigned m = 1; m <= 12; ++m) {
    if ((e.months & (1u << m)) == 0) continue;
    // A leap year gives each month its longest length (February 29).
    auto longest =
        date::year_month_day_last{date::year{2000}, date::month_day_last{date::month{m}}}.day();
    std::uint64_t days_that_exist =
        ((std::uint64_t{1} << (static_cast<unsigned>(longest) + 1)) - 1) & ~std::uint64_t{1};
    if ((e.days_of_month & days_that_exist) != 0) return true;
  }
  return false;
}

Result<CronExpression> parse_fields(std::string_view fields_text, std::string_view expression) {
  auto fields = split_on_blanks(fields_text);
  if (fields.size() != kFields.size()) {
    return make_error(
        ErrorCode::kInvalidArgs,
        "schedule: expected 5 fields (minute hour day-of-month month day-of-week), got " +
            std::to_string(fields.size()),
        {{"expression", std::string(expression)}, {"fields", fields.size()}},
        std::string(kSyntaxHint));
  }
  std::array<std::uint64_t, 5> bits{};
  for (std::size_t i = 0; i < kFields.size(); ++i) {
    auto parsed = FieldParser(kFields[i]).parse(fields[i]);
    if (auto* problem = std::get_if<FieldProblem>(&parsed)) {
      return field_error(kFields[i], problem->item, problem->reason, expression);
    }
    bits[i] = std::get<std::uint64_t>(parsed);
  }
  CronExpression e;
  e.minutes = bits[0];
  e.hours = static_cast<std::uint32_t>(bits[1]);
  e.days_of_month = static_cast<std::uint32_t>(bits[2]);
  e.months = static_cast<std::uint16_t>(bits[3]);
  std::uint64_t weekdays = bits[4];
  if (weekdays & (std::uint64_t{1} << 7)) weekdays |= 1;  // 7 = Sunday = 0
  e.days_of_week = static_cast<std::uint8_t>(weekdays & 0x7f);
  e.day_of_month_starred = fields[2].front() == '*';
  e.day_of_week_starred = fields[4].front() == '*';
  e.text = std::string(expression);
  if (!can_fire(e)) {
    return make_error(
        ErrorCode::kInvalidArgs,
        "schedule: \"" + e.text + "\" never fires: none of its days of month exists in its months",
        {{"expression", e.text}},
        "February has at most 29 days; April, June, September and November have 30");
  }
  return e;
}

}  // namespace

Result<CronExpression> parse_cron(std::string_view text) {
  std::string_view expression = trim(text);
  if (expression.empty()) {
    return make_error(ErrorCode::kInvalidArgs, "schedule: empty expression",
                      {{"expression", std::string(text)}}, std::string(kSyntaxHint));
  }
  if (expression.front() != '@') return parse_fields(expression, expression);
  for (const Alias& alias : kAliases) {
    if (equals_ignoring_ascii_case(expression, alias.name)) return parse_fields(alias.fields, expression);
  }
  return make_error(ErrorCode::kInvalidArgs,
                    "schedule: unknown alias \"" + std::string(expression) + "\"",
                    {{"expression", std::string(expression)}}, std::string(kSyntaxHint));
}

}  // namespace companyos::schedule
