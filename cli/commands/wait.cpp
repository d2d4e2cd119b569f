// wait: block until a window appears or closes, a text appears, or an element meets a
// predicate; or fail with TIMEOUT and what was seen last.
#include <iostream>

#include "cli/command.h"
#include "cli/render.h"

namespace companyos::cli {
namespace {

constexpr int kDefaultTimeoutMs = 30000;
constexpr int kMaxTimeoutMs = 600000;
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
  if (seen.contains("windows_read")) {
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

struct WaitArgs {
  std::string app, window, title, text, element, predicate, value;
  bool closed = false;
  int timeout_ms = kDefaultTimeoutMs;
};

}  // namespace

void add_wait_commands(CLI::App& app, Invocation& out) {
  auto args = std::make_shared<WaitArgs>();
  auto* wait = add_command(
      app, "wait",
      "Wait until a window appears or closes, a text appears, or an element meets a predicate.\n"
      "Exits 0 when it holds, 1 with TIMEOUT (and what was seen last) when it did not in time.",
      "  companyos wait --app mousepad --window 'Untitled 1'\n"
      "  companyos wait --app mousepad --closed --title 'Save As' --timeout 60000\n"
      "  companyos wait --app mousepad --text 'Saved' --timeout 5000\n"
      "  companyos wait --app mousepad --element @s3:e12 --predicate value --value 'done'\n"
      "  companyos wait --app mousepad --element @s3:e7 --predicate state --value checked\n"
      "  companyos wait --element @s3:e9 --predicate gone\n"
      "  companyos --json wait --app mousepad --closed   # evidence: which window, when\n");
  wait->add_option("--app", args->app, "application name (not needed with --element)");
  auto* window = wait->add_option("--window", args->window, "a window with this exact title appears");
  auto* closed = wait->add_flag("--closed", args->closed,
                                "a window of the app closes (one open at the start or opened since)");
  wait->add_option("--title", args->title, "with --closed: only a window with this exact title")
      ->needs(closed);
  auto* text = wait->add_option("--text", args->text, "this text appears in an element's name or value");
  auto* element = wait->add_option("--element", args->element, "a ref from snapshot or find, e.g. @s3:e12");
  wait->add_option("--predicate", args->predicate, "with --element: exists (default), gone, value, state")
      ->check(CLI::IsMember({"exists", "gone", "value", "state"}))
      ->needs(element);
  wait->add_option("--value", args->value, "the value (--predicate value) or state name (--predicate state)")
      ->needs(element);
  wait->add_option("--timeout", args->timeout_ms, "how long to wait, in ms (1 to 600000)")
      ->check(CLI::Range(1, kMaxTimeoutMs))
      ->capture_default_str();
  window->excludes(closed)->excludes(text)->excludes(element);
  closed->excludes(text)->excludes(element);
  text->excludes(element);

  wait->callback([&out, args, wait] {
    const auto given = [wait](const char* option) { return wait->count(option) > 0; };
    if (!given("--window") && !args->closed && !given("--text") && !given("--element")) {
      throw CLI::ValidationError("wait", "give one condition: --window, --closed, --text or --element");
    }
    if (!given("--element") && !given("--app")) throw CLI::RequiredError("--app");
    out.method = "wait";
    out.params = {{"timeout_ms", args->timeout_ms}};
    if (given("--app")) out.params["app"] = args->app;
    if (given("--window")) out.params["window"] = args->window;
    if (args->closed) out.params["closed"] = true;
    if (given("--title")) out.params["title"] = args->title;
    if (given("--text")) out.params["text"] = args->text;
    if (given("--element")) out.params["ref"] = args->element;
    if (!args->predicate.empty()) out.params["predicate"] = args->predicate;
    if (given("--value")) out.params["value"] = args->value;
    out.reply_timeout = std::chrono::milliseconds(args->timeout_ms) + kReplyMargin;
    out.human = [](const nlohmann::json& data) {
      std::cout << what_was_seen(data) << ": " << how_seen(data) << "\n";
    };
    out.human_error = [](const nlohmann::json& error) {
      const nlohmann::json details = error.value("details", nlohmann::json::object());
      if (details.contains("last_seen")) {
        std::cerr << "last seen: " << last_seen_text(details["last_seen"]) << "\n";
      }
    };
  });
}

}  // namespace companyos::cli
