#include "launch/bridge_arguments.h"

#include <regex>
#include <string>

#include "launch/refusal.h"

namespace companyos::launch {
namespace {

bool matches(std::string_view text, const std::regex& pattern) {
  return std::regex_match(text.begin(), text.end(), pattern);
}

}  // namespace

Status check_app_name(std::string_view app) {
  static const std::regex kAppName("[A-Za-z0-9][A-Za-z0-9._+-]{0,127}");
  if (matches(app, kAppName)) return ok_status();
  return to_error(make_refusal(
      RefusalReason::kInvalidAppName,
      "app names are 1–128 letters, digits, '.', '_', '+' or '-', starting with a letter or digit",
      {{"app", std::string(app)}}, "use the app's desktop-file id or WM_CLASS, e.g. mousepad"));
}

Status check_key_chord(std::string_view chord) {
  static const std::regex kChord(
      "((ctrl|control|alt|shift|super|meta|win|cmdorctrl)\\+){0,4}"
      "([A-Za-z0-9]|[A-Za-z][A-Za-z0-9_]{1,31}|[!-*,-/:-@\\[-`{-~])",
      std::regex::icase);
  if (matches(chord, kChord)) return ok_status();
  return to_error(make_refusal(RefusalReason::kInvalidChord,
                               "key chords are modifiers joined by '+' and one key, e.g. ctrl+s",
                               {{"chord", std::string(chord)}},
                               "name special keys by their key name (Return, Escape, F5, plus), or give one punctuation character"));
}

}  // namespace companyos::launch
