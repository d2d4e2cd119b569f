// automation list|get|create|update|delete|enable|disable|start|stop|runs|raise|lower|promote|
// gate, run show|approve|deny|answer|undo, approvals, stop-all: levelled automations. The CLI links
// no validator: it checks that FILE is JSON and sends it; the daemon's answer,
// with every problem and its path, is the verdict.
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

#include "cli/command_parts.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

// Unix seconds as "2025-03-01 07:00:00 UTC"; null (manual, disabled) as "-".
std::string when(const nlohmann::json& unix_seconds) {
  if (!unix_seconds.is_number_integer()) return "-";
  const std::time_t t = unix_seconds.get<std::time_t>();
  std::tm utc{};
  if (gmtime_r(&t, &utc) == nullptr) return unix_seconds.dump();
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc);
  return text;
}

// FILE's JSON, or a usage error naming what is wrong with the file; "-" reads stdin.
nlohmann::json read_definition(const std::string& path) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CLI::ValidationError("FILE", "cannot read " + path);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) throw CLI::ValidationError("FILE", "cannot read " + path);
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw CLI::ValidationError("FILE", path + " is not JSON: " + e.what());
  }
}

std::string level_text(const nlohmann::json& automation) {
  return plain(automation["level"]) + " (" + plain(automation.value("level_name", nlohmann::json())) + ")";
}

void print_automation(const nlohmann::json& a) {
  const nlohmann::json last = a.value("last_run", nlohmann::json());
  std::cout << "id:         " << plain(a["id"]) << '\n'
            << "name:       " << plain(a["name"]) << '\n'
            << "level:      " << level_text(a) << '\n'
            << "revision:   " << plain(a["revision"]) << '\n'
            << "enabled:    " << plain(a["enabled"]) << '\n'
            << "last run:   "
            << (last.is_object() ? plain(last["id"]) + " " + plain(last["status"]) + ", started " +
                                       when(last["started_at"])
                                 : std::string("-"))
            << '\n'
            << "next run:   " << when(a.value("nextRunAt", nlohmann::json())) << '\n'
            << "definition:\n"
            << a.value("definition", nlohmann::json()).dump(2) << '\n';
}

// INVALID_ARGS from validation: each problem on its own line, as "path: message".
void print_problems(const nlohmann::json& error) {
  const nlohmann::json details = error.value("details", nlohmann::json::object());
  if (!details.is_object() || !details.contains("problems") || !details["problems"].is_array()) return;
  std::cerr << "problems:\n";
  for (const auto& problem : details["problems"]) {
    const std::string path = plain(problem.value("path", nlohmann::json("")));
    std::cerr << "  " << (path.empty() || path == "-" ? "" : path + ": ")
              << plain(problem.value("message", nlohmann::json(""))) << '\n';
  }
  const auto shown = details["problems"].size();
  const auto count = details.value("problem_count", static_cast<std::int64_t>(shown));
  if (count > static_cast<std::int64_t>(shown)) {
    std::cerr << "  … and " << count - static_cast<std::int64_t>(shown) << " more\n";
  }
}

// GATE_NOT_MET from promote: the failing conditions, one a line.
void print_failing_conditions(const nlohmann::json& error) {
  const nlohmann::json details = error.value("details", nlohmann::json::object());
  if (!details.is_object() || !details.contains("failing")) return;
  std::cerr << "failing conditions:\n";
  for (const auto& line : details["failing"]) std::cerr << "  FAIL " << plain(line) << '\n';
}

void print_run_line(const std::string& verb, const nlohmann::json& run) {
  std::cout << verb << " run " << plain(run["id"]) << " of automation " << plain(run["automation_id"])
            << " (level " << plain(run["level"]) << "): " << plain(run["status"]);
  if (run.contains("reason") && !run["reason"].is_null()) std::cout << " — " << plain(run["reason"]);
  std::cout << '\n';
}

void print_run(const nlohmann::json& run) {
  std::cout << "run:        " << plain(run["id"]) << " of automation " << plain(run["automation_id"])
            << " (revision " << plain(run["revision"]) << ")\n"
            << "status:     " << plain(run["status"]) << '\n'
            << "level:      " << plain(run["level"]) << '\n'
            << "started by: " << plain(run["started_by"]) << '\n'
            << "supervised: " << plain(run["supervised"]) << '\n'
            << "started:    " << when(run["started_at"]) << '\n'
            << "finished:   " << when(run["finished_at"]) << '\n';
  if (!run["reason"].is_null()) std::cout << "reason:     " << plain(run["reason"]) << '\n';
  if (!run["waiting_description"].is_null()) {
    std::cout << "waiting on: " << plain(run["waiting_description"]) << '\n';
  }
  if (run.contains("checks")) {
    std::cout << "checks:     " << plain(run["checks"]["passed"]) << " passed, "
              << plain(run["checks"]["failed"]) << " failed\n";
  }
  if (run.contains("steps") && !run["steps"].empty()) {
    std::cout << '\n';
    render_table(std::cout, run["steps"],
                 {{"SEQ", "seq"}, {"PHASE", "phase"}, {"TYPE", "type"}, {"STATUS", "status"},
                  {"DELIVERY", "delivery"}, {"ERROR", "error_code"}, {"MS", "duration_ms"},
                  {"REASON", "reason"}});
    for (const auto& step : run["steps"]) {
      const std::string output = step.value("output", "");
      if (output.empty()) continue;
      std::cout << "\noutput of step " << plain(step["seq"])
                << (step.value("output_truncated", false) ? " (truncated)" : "") << ":\n"
                << output << (output.back() == '\n' ? "" : "\n");
    }
  }
}

void print_runs(const nlohmann::json& data) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& run : data["runs"]) {
    nlohmann::json row = run;
    row["started"] = when(run["started_at"]);
    row["finished"] = when(run["finished_at"]);
    rows.push_back(std::move(row));
  }
  if (rows.empty()) {
    std::cout << "no runs" << (data["status"].is_null() ? "" : " with status " + plain(data["status"])) << '\n';
  } else {
    render_table(std::cout, rows,
                 {{"RUN", "id"}, {"STATUS", "status"}, {"LEVEL", "level"}, {"SUPERVISED", "supervised"},
                  {"BY", "started_by"}, {"STARTED", "started"}, {"FINISHED", "finished"},
                  {"REASON", "reason"}});
  }
  const auto total = data.value("total", std::int64_t{0});
  const auto size = std::max<std::int64_t>(1, data.value("page_size", std::int64_t{20}));
  std::cout << "page " << plain(data["page"]) << " of " << std::max<std::int64_t>(1, (total + size - 1) / size)
            << " (" << total << " run" << (total == 1 ? "" : "s") << ")\n";
}

void print_gate(const nlohmann::json& data) {
  std::cout << "promotion gate of automation " << plain(data["id"]) << " (" << plain(data["name"])
            << "), level " << plain(data["level"]) << ", revision " << plain(data["revision"]) << ":\n";
  int failing = 0;
  for (const auto& condition : data["conditions"]) {
    const bool pass = condition.value("pass", false);
    failing += pass ? 0 : 1;
    std::cout << (pass ? "  pass  " : "  FAIL  ") << plain(condition["text"]) << '\n';
  }
  std::cout << (data.value("passed", false)
                    ? "every condition holds: `companyos automation promote " + plain(data["id"]) + "` may promote it to 4"
                    : std::to_string(failing) + " condition(s) fail: promote is refused")
            << '\n';
}

void print_level_change(const nlohmann::json& a) {
  std::cout << "automation " << plain(a["id"]) << " (" << plain(a["name"]) << "): level "
            << plain(a["previous_level"]) << " -> " << level_text(a) << '\n';
}

// The id positional of an automation or run command, bounded as its declaration says.
CLI::Option* add_id_positional(CLI::App* cmd, const methods::MethodDeclaration& method, std::int64_t& id) {
  return add_positional(cmd, method, "id", id)->check(CLI::PositiveNumber);
}

// A command taking an id: sends the method {"id": ID} and the options given for its other params.
bool register_id_command(const methods::MethodDeclaration& method, std::string details, std::string examples,
                         std::function<void(const nlohmann::json&)> human,
                         std::function<void(const nlohmann::json&)> human_error = {}) {
  return register_command(
      method, {.details = std::move(details),
               .examples = std::move(examples),
               .by_hand = {"id"},
               .bind = [&method, human_error = std::move(human_error)](const MethodCommand& made) -> CompleteRequest {
                 auto id = std::make_shared<std::int64_t>(0);
                 add_id_positional(made.cmd, method, *id);
                 return [id, human_error](Invocation& out) {
                   out.params["id"] = *id;
                   out.human_error = human_error;
                 };
               },
               .human = std::move(human)});
}

// automation list: a table of every automation, with its next run.
void print_automations(const nlohmann::json& data) {
  if (data["automations"].empty()) {
    std::cout << "no automations; create one with: companyos automation create FILE\n";
    return;
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& a : data["automations"]) {
    nlohmann::json row = a;
    row["next"] = when(a["nextRunAt"]);
    rows.push_back(std::move(row));
  }
  render_table(std::cout, rows,
               {{"ID", "id"}, {"NAME", "name"}, {"LEVEL", "level"}, {"ENABLED", "enabled"},
                {"LAST RUN", "last_run_status"}, {"NEXT RUN", "next"}});
  if (!data.value("automations_enabled", true)) {
    std::cout << "automations are switched off (settings: automations_enabled=false)\n";
  }
}

[[maybe_unused]] const bool automation_list_registered = register_command(
    methods::kAutomationList,
    {.examples = "  companyos automation list\n  companyos --json automation list\n", .human = print_automations});

// automation create FILE: the definition from a file or stdin.
[[maybe_unused]] const bool automation_create_registered = register_command(
    methods::kAutomationCreate,
    {.details = "FILE is the definition (JSON); - reads stdin.",
     .examples = "  companyos automation create data/examples/fixture-write-note.json\n"
                 "  companyos automation create - < routine.json\n",
     .by_hand = {"definition"},
     .bind = [](const MethodCommand& made) -> CompleteRequest {
       auto file = std::make_shared<std::string>();
       made.cmd->add_option("file", *file, "the definition (JSON); - reads stdin")->required();
       return [file](Invocation& out) {
         out.params["definition"] = read_definition(*file);
         out.human_error = print_problems;
       };
     },
     .human =
         [](const nlohmann::json& a) {
           std::cout << "created automation " << plain(a["id"]) << " (" << plain(a["name"]) << ") at level "
                     << level_text(a) << ", revision " << plain(a["revision"]) << '\n';
         }});

// automation update ID FILE: a new revision of the definition.
[[maybe_unused]] const bool automation_update_registered = register_command(
    methods::kAutomationUpdate,
    {.details = "The gate counts only the new revision's runs.",
     .examples =
         "  companyos automation update 1 routine.json\n"
         "  companyos --json automation get 1 | jq .data.definition > d.json; companyos automation update 1 d.json\n",
     .by_hand = {"id", "definition"},
     .bind = [](const MethodCommand& made) -> CompleteRequest {
       auto id = std::make_shared<std::int64_t>(0);
       auto file = std::make_shared<std::string>();
       add_id_positional(made.cmd, methods::kAutomationUpdate, *id);
       made.cmd->add_option("file", *file, "the new definition (JSON); - reads stdin")->required();
       return [id, file](Invocation& out) {
         out.params["id"] = *id;
         out.params["definition"] = read_definition(*file);
         out.human_error = print_problems;
       };
     },
     .human =
         [](const nlohmann::json& a) {
           std::cout << "updated automation " << plain(a["id"]) << " (" << plain(a["name"]) << "): revision "
                     << plain(a["revision"]) << (a.value("new_revision", false) ? " (new steps)" : " (same steps)")
                     << ", level " << level_text(a) << (a.value("demoted", false) ? ", dropped from 4" : "") << '\n';
         }});

// The commands that take only an automation's id, but get: delete, enable, disable, start,
// stop, runs, raise, lower, promote, gate.
[[maybe_unused]] const bool automation_id_commands_registered = [] {
  register_id_command(methods::kAutomationDelete, "", "  companyos automation delete 1\n", [](const nlohmann::json& d) {
    std::cout << "deleted automation " << plain(d["id"]) << " (" << plain(d["name"]) << ")\n";
  });
  const auto enabled_line = [](const nlohmann::json& a) {
    std::cout << "automation " << plain(a["id"]) << " (" << plain(a["name"]) << ") is "
              << (a.value("enabled", false) ? "enabled" : "disabled") << '\n';
  };
  register_id_command(methods::kAutomationEnable, "", "  companyos automation enable 1\n", enabled_line);
  register_id_command(methods::kAutomationDisable, "", "  companyos automation disable 1\n", enabled_line);
  register_id_command(methods::kAutomationStart,
                      "Start a run now, as a person: level 1 is a dry run, level 2 asks before each\n"
                      "effect (see `companyos approvals`), level 3 runs supervised.",
                      "  companyos automation start 1\n  companyos run show 7    # the run it started\n",
                      [](const nlohmann::json& run) { print_run_line("started", run); });
  register_id_command(methods::kAutomationStop,
                      "Stop the automation's active run: the active step is cancelled (a command's\n"
                      "process group is killed) and no postActions run.",
                      "  companyos automation stop 1\n",
                      [](const nlohmann::json& run) { print_run_line("stopped", run); });

  register_id_command(methods::kAutomationRuns, "",
                      "  companyos automation runs 1\n"
                      "  companyos automation runs 1 --status failed\n"
                      "  companyos automation runs 1 --page 2\n",
                      print_runs);

  register_id_command(methods::kAutomationRaise, "", "  companyos automation raise 1\n", print_level_change);
  register_id_command(methods::kAutomationLower, "", "  companyos automation lower 1\n", print_level_change);
  register_id_command(methods::kAutomationPromote,
                      "Promote from 3 to 4 (unattended) when every condition of the gate holds;\n"
                      "otherwise refused with each failing condition.",
                      "  companyos automation gate 1\n  companyos automation promote 1\n", print_level_change,
                      print_failing_conditions);
  register_id_command(methods::kAutomationGate, "",
                      "  companyos automation gate 1\n  companyos --json automation gate 1 | jq .data.conditions\n",
                      print_gate);
  return true;
}();

[[maybe_unused]] const bool automation_group_registered = register_group(
    "automation", {"Levelled automations: routines of steps that earn autonomy by evidence.\n"
                   "Levels: 1 suggest (dry runs), 2 assist (each effect asks), 3 supervised, 4 unattended (gate).",
                   "  companyos automation create data/examples/fixture-write-note.json\n"
                   "  companyos automation list\n"
                   "  companyos automation raise 1\n"
                   "  companyos automation start 1\n"
                   "  companyos automation gate 1\n"});

[[maybe_unused]] const bool automation_get_registered = register_id_command(
    methods::kAutomationGet, "",
    "  companyos automation get 1\n  companyos --json automation get 1 | jq .data.definition\n", print_automation);

[[maybe_unused]] const bool run_group_registered =
    register_group("run", {"One run of an automation: show it, decide on it, answer it, undo it.",
                           "  companyos run show 7\n  companyos run approve 7\n  companyos run undo 7\n"});

[[maybe_unused]] const bool run_commands_registered = [] {
  register_id_command(methods::kRunShow, "", "  companyos run show 7\n  companyos --json run show 7 | jq .data.steps\n",
                      print_run);
  register_id_command(methods::kRunApprove, "", "  companyos approvals\n  companyos run approve 7\n",
                      [](const nlohmann::json& r) { print_run_line("approved", r); });
  register_id_command(methods::kRunDeny, "", "  companyos run deny 7\n",
                      [](const nlohmann::json& r) { print_run_line("denied", r); });

  register_id_command(methods::kRunAnswer,
                      "Give exactly one of --value, --confirm and --cancel: `companyos approvals`\n"
                      "shows what the run asks. Unanswered by the step's timeout, the step fails.",
                      "  companyos approvals\n"
                      "  companyos run answer 7 --value staging\n"
                      "  companyos run answer 7 --confirm yes\n"
                      "  companyos run answer 7 --value \"$(cat notes.txt)\"   # an editor question\n"
                      "  companyos run answer 7 --cancel\n",
                      [](const nlohmann::json& r) { print_run_line("answered", r); });
  register_id_command(methods::kRunUndo,
                      "Run the recorded inverses in reverse order (restore values, undo commands, close\n"
                      "launched windows) and mark the run reverted; a level-4 automation drops to 3.",
                      "  companyos run undo 7\n", [](const nlohmann::json& r) {
                        print_run_line("undid", r);
                        std::cout << "inverses run (step seqs): " << plain(r["undone"]) << '\n';
                        if (!r["not_reversible"].empty()) {
                          std::cout << "not reversible, left as they are (step seqs): " << plain(r["not_reversible"])
                                    << '\n';
                        }
                        if (r.value("demoted", false)) std::cout << "the automation dropped from level 4 to 3\n";
                      });
  return true;
}();

void print_approvals(const nlohmann::json& data) {
  if (data["approvals"].empty()) {
    std::cout << "no run is waiting for a person\n";
    return;
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& waiting : data["approvals"]) {
    nlohmann::json row = waiting;
    row["since"] = when(waiting["waiting_since"]);
    row["until"] = when(waiting["approval_deadline"]);
    rows.push_back(std::move(row));
  }
  render_table(std::cout, rows,
               {{"RUN", "run_id"}, {"AUTOMATION", "automation_name"}, {"LEVEL", "level"},
                {"SINCE", "since"}, {"UNTIL", "until"}, {"ASKS", "waiting_description"}});
  for (const auto& waiting : data["approvals"]) {
    if (!waiting.contains("question") || !waiting["question"].is_object()) continue;
    const nlohmann::json& question = waiting["question"];
    const std::string run = plain(waiting["run_id"]);
    const std::string kind = plain(question["kind"]);
    std::cout << "\nrun " << run << " asks (" << kind << "): " << plain(question["title"]) << '\n';
    if (!question.value("message", "").empty()) std::cout << "  " << plain(question["message"]) << '\n';
    if (kind == "select") {
      for (const auto& option : question["options"]) std::cout << "  - " << plain(option) << '\n';
      std::cout << "  answer: companyos run answer " << run << " --value OPTION\n";
    } else if (kind == "confirm") {
      std::cout << "  answer: companyos run answer " << run << " --confirm yes|no\n";
    } else {
      if (!question.value("prefill", "").empty()) std::cout << "  prefilled: " << plain(question["prefill"]) << '\n';
      std::cout << "  answer: companyos run answer " << run << " --value TEXT\n";
    }
    std::cout << "  or: companyos run answer " << run << " --cancel\n";
  }
}

[[maybe_unused]] const bool approvals_registered = register_command(
    methods::kApprovals, {.details = "Unapproved, a run ends blocked. A step's question (a pi step's) is listed\n"
                                     "with how to answer it: `run answer`.",
                          .examples = "  companyos approvals\n  companyos run approve 7\n  companyos run deny 7\n"
                                      "  companyos run answer 8 --confirm yes\n",
                          .human = print_approvals});

[[maybe_unused]] const bool stop_all_registered = register_command(
    methods::kStopAll, {.details = "The same happens when the setting automations_enabled turns false. Re-enable\n"
                                   "each with `automation enable`.",
                        .examples = "  companyos stop-all\n  companyos settings set automations_enabled false\n",
                        .human = [](const nlohmann::json& data) {
                          std::cout << "disabled " << plain(data["disabled"]) << " automation(s); stopped "
                                    << data["stopped"].size() << " run(s)";
                          std::string ids;
                          for (const auto& run : data["stopped"]) ids += (ids.empty() ? "" : ", ") + plain(run["id"]);
                          std::cout << (ids.empty() ? "" : ": " + ids) << '\n';
                        }});

}  // namespace
}  // namespace companyos::cli
