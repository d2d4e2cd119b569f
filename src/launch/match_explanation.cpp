#include "launch/match_explanation.h"

namespace companyos::launch {
namespace {

nlohmann::json accepts_json(const DesktopEntry& entry) {
  auto exec = parse_exec(entry.exec);
  const bool urls = exec && exec->takes_urls();
  return {{"links", urls ? entry.handled_schemes() : std::vector<std::string>{}},
          {"files", exec && exec->takes_files()}};
}

nlohmann::json explained_candidate_json(const MatchCandidate& candidate) {
  nlohmann::json out = to_json(candidate.entry);
  out["matched"] = candidate.matched_value;
  return out;
}

}  // namespace

MatchExplanation explain_match(const DesktopIndex& index, std::string_view name,
                               const PlatformFacts& platform, const PolicyOptions& options) {
  MatchExplanation explanation;
  explanation.match = match_app(index, name);
  for (const auto& dir : index.dirs()) explanation.dirs.push_back(dir.string());
  explanation.refusals = platform_refusals(platform, options.gio_program);
  for (Refusal& refusal : match_refusals(explanation.match)) {
    explanation.refusals.push_back(std::move(refusal));
  }
  if (explanation.match.chosen) {
    for (Refusal& refusal : entry_refusals(explanation.match.chosen->entry, options.locate)) {
      explanation.refusals.push_back(std::move(refusal));
    }
  }
  const std::string folded = fold_case(name);
  for (const IgnoredFile& file : index.ignored()) {
    if (fold_case(file.id) == folded || fold_case(desktop_id_stem(file.id)) == folded) {
      explanation.ignored.push_back(file);
    }
  }
  return explanation;
}

nlohmann::json to_json(const DesktopEntry& entry) {
  return {{"id", entry.id},
          {"file", entry.file.string()},
          {"level", entry.level},
          {"name", entry.name},
          {"localized_name", entry.localized_name},
          {"startup_wm_class", entry.startup_wm_class},
          {"exec", entry.exec},
          {"terminal", entry.terminal},
          {"no_display", entry.no_display},
          {"categories", entry.categories},
          {"handled_schemes", entry.handled_schemes()}};
}

nlohmann::json to_json(const MatchExplanation& explanation) {
  const AppMatch& match = explanation.match;
  nlohmann::json tried = nlohmann::json::array();
  for (const FieldTally& tally : match.tried) {
    tried.push_back({{"field", to_string(tally.field)}, {"matches", tally.matches}});
  }
  nlohmann::json candidates = nlohmann::json::array();
  for (const MatchCandidate& candidate : match.candidates) {
    candidates.push_back(explained_candidate_json(candidate));
  }
  nlohmann::json refusals = nlohmann::json::array();
  for (const Refusal& refusal : explanation.refusals) refusals.push_back(to_json(refusal));
  nlohmann::json ignored = nlohmann::json::array();
  for (const IgnoredFile& file : explanation.ignored) {
    ignored.push_back({{"id", file.id},
                       {"file", file.file.string()},
                       {"level", file.level},
                       {"kind", file.kind},
                       {"why", file.why}});
  }
  return {
      {"query", match.query},
      {"dirs", explanation.dirs},
      {"fields_tried", tried},
      {"deciding_field", match.deciding_field ? nlohmann::json(to_string(*match.deciding_field))
                                              : nlohmann::json(nullptr)},
      {"chosen", match.chosen ? explained_candidate_json(*match.chosen) : nlohmann::json(nullptr)},
      {"candidates", candidates},
      {"launchable", explanation.refusals.empty()},
      {"refusals", refusals},
      {"accepts", match.chosen ? accepts_json(match.chosen->entry) : nlohmann::json(nullptr)},
      {"ignored", ignored},
  };
}

}  // namespace companyos::launch
