#include "a11y/act/action_readback.h"

#include <charconv>
#include <cmath>

#include <glib.h>

namespace companyos::a11y {
namespace {

constexpr double kRelativeTolerance = 1e-9;

std::string state_nick(int atspi_state) {
  const auto names = state_names(StateSet{1} << atspi_state);
  return names.empty() ? std::to_string(atspi_state) : names.front();
}

}  // namespace

std::optional<double> parse_number(std::string_view text) {
  if (text.empty()) return std::nullopt;
  // from_chars accepts neither a leading '+' nor spaces; it does accept "inf" and "nan".
  double value = 0;
  const auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

bool numbers_match(double asked, double read) {
  return std::fabs(asked - read) <= kRelativeTolerance * std::max(1.0, std::fabs(asked));
}

std::size_t character_count(std::string_view text) {
  return static_cast<std::size_t>(g_utf8_strlen(text.data(), static_cast<gssize>(text.size())));
}

std::string text_after_insert(std::string_view before, int offset, std::string_view inserted) {
  const auto length = static_cast<long>(character_count(before));
  if (offset < 0 || offset > length) offset = static_cast<int>(length);
  const char* at = g_utf8_offset_to_pointer(before.data(), offset);
  const auto split = static_cast<std::size_t>(at - before.data());
  std::string after(before.substr(0, split));
  after += inserted;
  after += before.substr(split);
  return after;
}

Verification verify_text(std::string_view expected, const std::optional<std::string>& read,
                         bool secret) {
  Verification result;
  result.check = "text";
  result.matched = read && *read == expected;
  if (secret) {
    result.expected = Characters{character_count(expected)};
    if (read) result.read = Characters{character_count(*read)};
  } else {
    result.expected = std::string(expected);
    if (read) result.read = *read;
  }
  return result;
}

Verification verify_character_count(std::size_t expected, std::optional<int> read) {
  Verification result;
  result.check = "characters";
  result.matched = read && *read >= 0 && static_cast<std::size_t>(*read) == expected;
  result.expected = static_cast<std::int64_t>(expected);
  if (read) result.read = std::int64_t{*read};
  return result;
}

Verification verify_number(double expected, std::optional<double> read) {
  Verification result;
  result.check = "value";
  result.matched = read && numbers_match(expected, *read);
  result.expected = expected;
  if (read) result.read = *read;
  return result;
}

Verification verify_state(int atspi_state, bool wanted, std::optional<StateSet> read) {
  Verification result;
  result.check = "state";
  const std::string nick = state_nick(atspi_state);
  result.expected = StatePresence{nick, wanted};
  if (read) {
    const bool present = has_state(*read, atspi_state);
    result.matched = present == wanted;
    result.read = StatePresence{nick, present};
  }
  return result;
}

Verification verify_selected(int index, std::optional<bool> read) {
  Verification result;
  result.check = "selected";
  result.matched = read.value_or(false);
  result.expected = ChildSelection{index, true};
  if (read) result.read = ChildSelection{index, *read};
  return result;
}

}  // namespace companyos::a11y
