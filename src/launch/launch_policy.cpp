#include "launch/launch_policy.h"

#include <glib.h>

#include <algorithm>

namespace companyos::launch {
namespace {

nlohmann::json tied_candidate_json(const MatchCandidate& candidate) {
  return {{"id", candidate.entry.id},
          {"file", candidate.entry.file.string()},
          {"level", candidate.entry.level},
          {"matched", candidate.matched_value}};
}

std::string joined_ids(const std::vector<MatchCandidate>& candidates) {
  std::string ids;
  for (const MatchCandidate& candidate : candidates) {
    if (!ids.empty()) ids += ", ";
    ids += candidate.entry.id;
  }
  return ids;
}

bool is_terminal_emulator(const DesktopEntry& entry) {
  return std::any_of(entry.categories.begin(), entry.categories.end(), [](const std::string& c) {
    return g_ascii_strcasecmp(c.c_str(), "TerminalEmulator") == 0;
  });
}

void add_unique(std::vector<std::string>& classes, const std::string& value) {
  if (value.empty()) return;
  const bool known = std::any_of(classes.begin(), classes.end(), [&value](const std::string& c) {
    return g_ascii_strcasecmp(c.c_str(), value.c_str()) == 0;
  });
  if (!known) classes.push_back(value);
}

Error with_app(Error error, std::string_view app) {
  error.details["app"] = std::string(app);
  return error;
}

}  // namespace

std::vector<Refusal> match_refusals(const AppMatch& match) {
  if (!match.found()) {
    return {make_refusal(
        RefusalReason::kNoEntry,
        "no desktop entry matches '" + match.query + "' by StartupWMClass, desktop-file id or Name",
        nlohmann::json::object(),
        "'companyos entries --match " + match.query + "' shows how a name resolves")};
  }
  if (!match.ambiguous()) return {};
  const auto tied = match.top_level();
  nlohmann::json candidates = nlohmann::json::array();
  for (const MatchCandidate& candidate : tied) candidates.push_back(tied_candidate_json(candidate));
  const std::string field(to_string(*match.deciding_field));
  return {make_refusal(RefusalReason::kAmbiguousEntry,
                       "'" + match.query + "' matches " + std::to_string(tied.size()) +
                           " entries by " + field + " on the same level: " + joined_ids(tied),
                       {{"field", field}, {"candidates", candidates}},
                       "name one of them by its desktop-file id")};
}

std::vector<Refusal> entry_refusals(const DesktopEntry& entry, const ProgramLocator& locate) {
  std::vector<Refusal> refusals;
  const nlohmann::json about{{"entry", entry.id}, {"file", entry.file.string()}};
  auto exec = parse_exec(entry.exec);
  if (!exec) {
    nlohmann::json details = about;
    details["exec"] = entry.exec;
    details["problem"] = exec.error().message;
    refusals.push_back(make_refusal(RefusalReason::kInvalidEntry,
                                    entry.id +
                                        " has an Exec line that breaks the desktop-entry "
                                        "specification: " +
                                        exec.error().message,
                                    std::move(details), "fix the entry's Exec key"));
  }
  if (entry.terminal || is_terminal_emulator(entry)) {
    nlohmann::json details = about;
    details["terminal"] = entry.terminal;
    details["terminal_emulator"] = is_terminal_emulator(entry);
    refusals.push_back(make_refusal(
        RefusalReason::kTerminalEntry,
        entry.id + (entry.terminal ? " runs in a terminal (Terminal=true)"
                                   : " is a terminal emulator (Categories has TerminalEmulator)"),
        std::move(details), "launch steps open links and files in graphical apps only"));
  }
  if (exec) {
    const ExecProgram program = resolve_exec_program(*exec, locate);
    if (program.interpreter) {
      nlohmann::json details = about;
      details["program"] = program.program;
      details["names_checked"] = program.names;
      details["interpreter"] = *program.interpreter;
      if (!program.note.empty()) details["note"] = program.note;
      refusals.push_back(make_refusal(RefusalReason::kShellEntry,
                                      entry.id + " starts '" + *program.interpreter +
                                          "', a shell, script interpreter or command wrapper" +
                                          (program.note.empty() ? "" : " (" + program.note + ")"),
                                      std::move(details),
                                      "name an entry whose Exec starts the app's own program"));
    }
  }
  return refusals;
}

std::vector<std::string> expected_window_classes(const DesktopEntry& entry, std::string_view app,
                                                 const ProgramLocator& locate) {
  if (!entry.startup_wm_class.empty()) return {entry.startup_wm_class};
  std::vector<std::string> classes;
  add_unique(classes, std::string(app));
  add_unique(classes, entry.id_stem());
  if (auto exec = parse_exec(entry.exec)) {
    add_unique(
        classes,
        std::filesystem::path(resolve_exec_program(*exec, locate).program).filename().string());
  }
  return classes;
}

Result<LaunchPlan> plan_launch(const DesktopIndex& index, std::string_view app,
                               const Target& target, const PlatformFacts& platform,
                               const PolicyOptions& options) {
  if (auto refusals = platform_refusals(platform, options.gio_program); !refusals.empty()) {
    return with_app(to_error(refusals.front()), app);
  }
  AppMatch match = match_app(index, app);
  if (auto refusals = match_refusals(match); !refusals.empty()) {
    return with_app(to_error(refusals.front()), app);
  }
  const DesktopEntry& entry = match.chosen->entry;
  if (auto refusals = entry_refusals(entry, options.locate); !refusals.empty()) {
    return with_app(to_error(refusals.front()), app);
  }
  const ExecLine exec = parse_exec(entry.exec).value();
  if (auto refusal = check_target(entry, exec, target)) {
    refusal->details["entry"] = entry.id;
    refusal->details["target"] = target.value;
    refusal->details["target_kind"] = to_string(target.kind);
    return with_app(to_error(*refusal), app);
  }

  LaunchPlan plan;
  plan.app = std::string(app);
  plan.entry = entry;
  plan.decided_by = *match.deciding_field;
  plan.target = target;
  plan.argv = {options.gio_program, "launch", entry.file.string()};
  if (target.kind != TargetKind::kApp) plan.argv.push_back(target.value);
  plan.expected_classes = expected_window_classes(entry, app, options.locate);
  return plan;
}

}  // namespace companyos::launch
