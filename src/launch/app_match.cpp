#include "launch/app_match.h"

#include <filesystem>

#include <glib.h>

#include "core/text.h"
#include "launch/exec_line.h"
#include "core/glib_handles.h"

namespace companyos::launch {
namespace {

constexpr MatchField kFieldOrder[] = {MatchField::kStartupWmClass, MatchField::kDesktopId,
                                      MatchField::kName};

// The value of `field` that equals `folded_query` after case folding, if any.
std::optional<std::string> matching_value(const DesktopEntry& entry, MatchField field,
                                          const std::string& folded_query) {
  auto equal = [&folded_query](const std::string& value) {
    return !value.empty() && fold_case(value) == folded_query;
  };
  switch (field) {
    case MatchField::kStartupWmClass:
      if (equal(entry.startup_wm_class)) return entry.startup_wm_class;
      break;
    case MatchField::kDesktopId:
      if (equal(entry.id)) return entry.id;
      if (equal(entry.id_stem())) return entry.id_stem();
      break;
    case MatchField::kName:
      if (equal(entry.name)) return entry.name;
      if (equal(entry.localized_name)) return entry.localized_name;
      break;
    case MatchField::kExecutable:
      break;  // matched by file name, not folded text (match_running_app)
  }
  return std::nullopt;
}

// The file name of the program an entry's Exec line runs, "" when it cannot be parsed.
std::string exec_program_name(const DesktopEntry& entry) {
  auto line = parse_exec(entry.exec);
  if (!line) return {};
  auto program = line->arguments.front().literal();
  if (!program) return {};
  return std::filesystem::path(*program).filename().string();
}

}  // namespace

std::string_view to_string(MatchField field) {
  switch (field) {
    case MatchField::kStartupWmClass:
      return "startup_wm_class";
    case MatchField::kDesktopId:
      return "desktop_id";
    case MatchField::kName:
      return "name";
    case MatchField::kExecutable:
      return "executable";
  }
  return "unknown";
}

std::string fold_case(std::string_view text) {
  const auto length = static_cast<gssize>(text.size());
  if (!is_valid_utf8_without_nul(text)) {
    GCharPtr lowered(g_ascii_strdown(text.data(), length));
    return lowered.get();
  }
  GCharPtr composed(g_utf8_normalize(text.data(), length, G_NORMALIZE_DEFAULT_COMPOSE));
  GCharPtr folded(g_utf8_casefold(composed.get(), -1));
  return folded.get();
}

std::vector<MatchCandidate> AppMatch::top_level() const {
  std::vector<MatchCandidate> top;
  for (const MatchCandidate& candidate : candidates) {
    if (candidate.entry.level == candidates.front().entry.level) top.push_back(candidate);
  }
  return top;
}

AppMatch match_app(const DesktopIndex& index, std::string_view name) {
  AppMatch match;
  match.query = std::string(name);
  const std::string folded = fold_case(name);
  if (folded.empty()) return match;
  for (MatchField field : kFieldOrder) {
    for (const DesktopEntry& entry : index.entries()) {  // ordered by level
      if (auto value = matching_value(entry, field, folded)) {
        match.candidates.push_back({entry, std::move(*value)});
      }
    }
    match.tried.push_back({field, match.candidates.size()});
    if (match.found()) {
      match.deciding_field = field;
      break;
    }
  }
  if (match.found() && match.top_level().size() == 1) match.chosen = match.candidates.front();
  return match;
}

AppMatch match_running_app(const DesktopIndex& index, const RunningApp& app) {
  AppMatch by_name = match_app(index, app.name);
  if (by_name.found()) return by_name;
  for (const std::string& wm_class : app.wm_classes) {
    AppMatch by_class = match_app(index, wm_class);
    if (by_class.found()) return by_class;
  }
  AppMatch by_program = std::move(by_name);
  if (app.executable.empty()) return by_program;
  for (const DesktopEntry& entry : index.entries()) {  // ordered by level
    if (exec_program_name(entry) == app.executable) {
      by_program.candidates.push_back({entry, entry.exec});
    }
  }
  by_program.tried.push_back({MatchField::kExecutable, by_program.candidates.size()});
  if (by_program.found()) {
    by_program.deciding_field = MatchField::kExecutable;
    if (by_program.top_level().size() == 1) by_program.chosen = by_program.candidates.front();
  }
  return by_program;
}

}  // namespace companyos::launch
