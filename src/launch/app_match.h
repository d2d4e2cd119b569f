// Which desktop entry a step's app name means. Case-insensitive, trying StartupWMClass, then
// the desktop-file id (with or without ".desktop"), then Name (untranslated or the locale's):
// the first field that matches any entry decides; among its matches the highest precedence
// level wins, and two or more matches on that level are ambiguous.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "launch/desktop_index.h"

namespace companyos::launch {

enum class MatchField { kStartupWmClass, kDesktopId, kName };

// "startup_wm_class", "desktop_id", "name".
std::string_view to_string(MatchField field);

struct MatchCandidate {
  DesktopEntry entry;
  std::string matched_value;  // the field's value that matched, as the entry spells it
};

struct FieldTally {
  MatchField field;
  std::size_t matches = 0;
};

struct AppMatch {
  std::string query;
  std::vector<FieldTally> tried;  // each field in order, until one matched
  std::optional<MatchField> deciding_field;
  std::vector<MatchCandidate> candidates;  // every match of the deciding field, by level
  std::optional<MatchCandidate> chosen;    // the single match at the highest level

  bool found() const { return !candidates.empty(); }
  bool ambiguous() const { return found() && !chosen; }
  // The candidates on the highest level that matched (two or more when ambiguous).
  std::vector<MatchCandidate> top_level() const;
};

AppMatch match_app(const DesktopIndex& index, std::string_view name);

// Case folding for names: Unicode case folding of NFC text (ASCII lower-casing for text
// that is not UTF-8).
std::string fold_case(std::string_view text);

}  // namespace companyos::launch
