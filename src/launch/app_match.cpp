#include "launch/app_match.h"

#include <glib.h>

#include "core/text.h"
#include "launch/glib_handles.h"

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
  }
  return std::nullopt;
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

}  // namespace companyos::launch
