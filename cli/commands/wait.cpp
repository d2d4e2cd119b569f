// wait: block until a window appears or closes, a text appears, or an element meets a
// predicate; or fail with TIMEOUT and what was seen last.
#include <iostream>

#include "cli/command_parts.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

// The daemon answers at the wait's deadline, plus at most one check cut short and the
// time its request sat queued for a worker: the CLI waits this much longer than that.
constexpr std::chrono::milliseconds kReplyMargin{10000};

std::string quoted(const nlohmann::json& value) { return "\"" + plain(value) + "\""; }

std::string how_seen(const nlohmann::json& data) {
  const std::string by = data.value("seen_by", "");
  const std::string after = "after " + plain(data["elapsed_ms"]) + " ms";
  if (by == "start") return "already so when the wait began";
  if (by == "event") return after + ", seen through an event";
  return after + ", seen by polling";
}

std::string what_was_seen(const nlohmann::json& data) {
  const std::string condition = data.value("condition", "");
  const nlohmann::json evidence = data.value("evidence", nlohmann::json::object());
  if (condition == "window_appears" || condition == "window_closed") {
    const nlohmann::json window = evidence.value("window", nlohmann::json::object());
    std::string line = "window " + quoted(window["title"]) + " of " + plain(window["app"]) +
                       (condition == "window_appears" ? " is open" : " closed") + " (" +
                       plain(window["id"]);
    if (window.contains("pid") && !window["pid"].is_null()) line += ", pid " + plain(window["pid"]);
    return line + ")";
  }
  if (condition == "text_appears") {
    return "the text is in the " + plain(evidence["field"]) + " of " + plain(evidence["role"]) +
           " " + quoted(evidence["name"]) + " " + plain(evidence["ref"]) + " in window " +
           quoted(evidence["window"]["title"]);
  }
  if (condition == "surface_opens") {
    return plain(evidence["kind"]) + " " + plain(evidence["ref"]) + " is open (" + plain(evidence["role"]) + " " +
           quoted(evidence["name"]) + ", " + plain(evidence["items"]) + " items showing) in window " +
           quoted(evidence["window"]["title"]);
  }
  const std::string ref = plain(evidence["ref"]);
  if (evidence.contains("value")) return ref + " has the value " + quoted(evidence["value"]);
  if (evidence.contains("state")) return ref + " is " + plain(evidence["state"]);
  if (evidence.value("presence", "") == "one") return ref + " exists";
  return ref + " is gone";
}

// The TIMEOUT's details.last_seen in one line: the last check's view, then the counts.
std::string last_seen_text(const nlohmann::json& seen) {
  std::vector<std::string> parts;
  if (seen.contains("app_running") && !seen.value("app_running", true)) {
    parts.emplace_back("the app was not running");
  } else if (seen.contains("windows")) {
    std::string windows;
    for (const auto& window : seen["windows"]) {
      windows += (windows.empty() ? "" : ", ") + quoted(window["title"]);
    }
    parts.push_back(windows.empty() ? "no windows" : "windows " + windows);
  }
  if (seen.contains("surfaces_open")) {
    parts.push_back(plain(seen["windows_read"]) + " window(s) read, " + plain(seen["surfaces_open"]) +
                    " surface(s) open, none of the kind");
  } else if (seen.contains("windows_read")) {
    parts.push_back(plain(seen["windows_read"]) + " window(s), " + plain(seen["elements_read"]) +
                    " elements read, the text not among them");
  }
  if (seen.contains("presence")) parts.push_back("element presence " + plain(seen["presence"]));
  if (seen.contains("value")) parts.push_back("value " + quoted(seen["value"]));
  if (seen.contains("states")) parts.push_back("states " + plain(seen["states"]));
  if (seen.contains("problem")) {
    parts.push_back("problem " + plain(seen["problem"]["code"]) + ": " +
                    plain(seen["problem"]["message"]));
  }
  std::string counts = plain(seen["checks"]) + " checks, " + plain(seen["events"]) + " events";
  if (!seen.value("events_active", false)) counts += " (events off: polling only)";
  parts.push_back(counts);
  std::string line;
  for (const auto& part : parts) line += (line.empty() ? "" : "; ") + part;
  return line;
}

[[maybe_unused]] const bool wait_registered = register_command(
    methods::kWait,
    {.details = "Exits 0 when it holds, 1 with TIMEOUT (and what was seen last) when it did not in time.",
     .examples = "  companyos wait --app mousepad --window 'Untitled 1'\n"
                 "  companyos wait --app mousepad --closed --title 'Save As' --timeout 60000\n"
                 "  companyos wait --app mousepad --text 'Saved' --timeout 5000\n"
                 "  companyos wait --app mousepad --menu --timeout 3000   # then snapshot --surface menu\n"
                 "  companyos wait --app Firefox --surface list\n"
                 "  companyos wait --app mousepad --element @s3:e12 --predicate value --value 'done'\n"
                 "  companyos wait --app mousepad --element @s3:e7 --predicate state --value checked\n"
                 "  companyos wait --element @s3:e9 --predicate gone\n"
                 "  companyos --json wait --app mousepad --closed   # evidence: which window, when\n",
     .bind = [](const MethodCommand& made) -> CompleteRequest {
       const DeclaredOptions& options = *made.options;
       CLI::Option* window = options.option("window");
       CLI::Option* closed = options.option("closed");
       CLI::Option* text = options.option("text");
       CLI::Option* element = options.option("ref");
       CLI::Option* menu = options.option("menu");
       CLI::Option* surface = options.option("surface");
       surface->check(CLI::IsMember({"menu", "list", "tooltip", "any"}));
       options.option("title")->needs(closed);
       options.option("predicate")->check(CLI::IsMember({"exists", "gone", "value", "state"}))->needs(element);
       options.option("value")->needs(element);
       window->excludes(closed)->excludes(text)->excludes(element);
       closed->excludes(text)->excludes(element);
       text->excludes(element);
       for (CLI::Option* opens : {menu, surface}) {
         opens->excludes(window)->excludes(closed)->excludes(text)->excludes(element);
       }
       return [options = made.options](Invocation& out) {
         if (!options->given("window") && !options->given("closed") && !options->given("text") &&
             !options->given("menu") && !options->given("surface") && !options->given("ref")) {
           throw CLI::ValidationError("wait",
                                      "give one condition: --window, --closed, --text, --menu, --surface or --element");
         }
         if (!options->given("ref") && !options->given("app")) throw CLI::RequiredError("--app");
         const auto timeout =
             std::chrono::milliseconds(options->integer("timeout_ms").value_or(methods::kDefaultWaitTimeout.count()));
         out.reply_timeout = timeout + kReplyMargin;
         out.human_error = [](const nlohmann::json& error) {
           const nlohmann::json details = error.value("details", nlohmann::json::object());
           if (details.contains("last_seen")) {
             std::cerr << "last seen: " << last_seen_text(details["last_seen"]) << "\n";
           }
         };
       };
     },
     .human = [](const nlohmann::json& data) { std::cout << what_was_seen(data) << ": " << how_seen(data) << "\n"; }});

}  // namespace
}  // namespace companyos::cli
