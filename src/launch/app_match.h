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

enum class MatchField { kStartupWmClass, kDesktopId, kName, kExecutable };

// "startup_wm_class", "desktop_id", "name", "executable".
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

// A running app as the desktop shows it: the name AT-SPI reports, its windows' WM_CLASS
// instance and class, and the file name of its executable.
struct RunningApp {
  std::string name;
  std::vector<std::string> wm_classes;
  std::string executable;  // e.g. "gnome-calculator" (from /proc/PID/exe), "" unknown
};

// The entry of a running app whose AT-SPI name is not the entry's (GNOME Calculator's
// "gnome-calculator" is org.gnome.Calculator.desktop, Firefox's "Firefox" is
// firefox-esr.desktop, LibreOffice's "soffice" is libreoffice-writer.desktop): the name as
// match_app takes it, else each WM_CLASS value as match_app takes it, else the entries
// whose Exec program has the executable's file name (deciding field kExecutable).
AppMatch match_running_app(const DesktopIndex& index, const RunningApp& app);

// Case folding for names: Unicode case folding of NFC text (ASCII lower-casing for text
// that is not UTF-8).
std::string fold_case(std::string_view text);

}  // namespace companyos::launch
