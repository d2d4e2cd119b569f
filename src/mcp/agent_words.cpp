#include "mcp/agent_words.h"

#include <array>
#include <regex>
#include <string_view>
#include <utility>

#include "mcp/element_numbers.h"

namespace companyos::mcp {
namespace {

// CLI commands an agent has no tool of that name for.
constexpr std::array<std::string_view, 12> kCliOnlyCommands = {
    "set-value", "type-text", "click-at", "focus-window", "open-link", "open-file",
    "stop-all",  "companyos", "companyosd", "systemctl", "snapshot --", "find --"};

std::string detail_text(const nlohmann::json& details, const char* key) {
  if (!details.is_object() || !details.contains(key) || !details[key].is_string()) return {};
  return details[key].get<std::string>();
}

// "w1 "Untitled 1", w2 (no title)": the windows an ambiguous request could mean.
std::string window_choices(const nlohmann::json& candidates) {
  std::string text;
  for (const auto& candidate : candidates) {
    if (!candidate.is_object() || !candidate.contains("id")) continue;
    if (!text.empty()) text += ", ";
    text += candidate.value("id", std::string("?"));
    const std::string title = candidate.value("title", std::string());
    text += title.empty() ? " (no title)" : " \"" + title + "\"";
  }
  return text;
}

// "under menu bar, under menu "Table"": what separates twins, by the parent of each.
std::string twin_parents(const nlohmann::json& candidates) {
  std::string text;
  for (const auto& candidate : candidates) {
    if (!candidate.is_object() || !candidate.contains("parent") || !candidate["parent"].is_object()) continue;
    const auto& parent = candidate["parent"];
    if (!text.empty()) text += ", ";
    text += "one under " + parent.value("role", std::string("?"));
    const std::string name = parent.value("name", std::string());
    if (!name.empty()) text += " \"" + name + "\"";
  }
  return text;
}

// Advice where the refusal itself says what the agent can do about it.
std::string advice_for(const Error& error) {
  const auto& details = error.details;
  const std::string kind = detail_text(details, "kind");
  const std::string reason = detail_text(details, "reason");
  if (reason == "physical_input_disabled") {
    return "only the person can switch physical input on (companyOS's physical_input setting); ask them, or "
           "use a tool that acts through the element itself (click, set_value, perform_action, insert_text)";
  }
  if (kind == "identity_not_unique" || (error.code == ErrorCode::kAmbiguousTarget && details.contains("count") &&
                                        details.contains("candidates") && !details.contains("app"))) {
    const std::string scope = detail_text(details, "scope");
    if (const auto at = scope.rfind(":e"); at != std::string::npos) {
      return "several elements have its role and name; pass within: " + scope.substr(at + 2) +
             " (the element that holds only the one you mean)";
    }
    const std::string parents = details.contains("candidates") ? twin_parents(details["candidates"]) : "";
    return "several elements have its role and name" + (parents.empty() ? "" : " (" + parents + ")") +
           "; pass within: the number of an element of the same state that holds only the one you mean";
  }
  if (error.code == ErrorCode::kAmbiguousTarget && details.contains("candidates")) {
    const std::string windows = window_choices(details["candidates"]);
    if (!windows.empty()) return "pass window_id, one of: " + windows;
  }
  if (error.code == ErrorCode::kStaleRef) return std::string(kStaleNumberAdvice);
  if (kind == "no_open_surface") return "open it first (click what opens it), or wait for it with the wait tool";
  if (reason == "too_big_for_deadline") return "the window is large or the app busy: call get_app_state again";
  if (kind == "toolkit_ignores_editable_text" || kind == "no_editable_text") {
    return "click the field, then send its text with the type tool (physical input)";
  }
  if (reason == "caller_gone") return "nothing reached the app; call the tool again";
  return {};
}

// Where the daemon's own suggestion could be followed only at a terminal.
std::string advice_by_code(ErrorCode code) {
  switch (code) {
    case ErrorCode::kAppNotFound:
      return "list_apps shows the apps there are";
    case ErrorCode::kWindowNotFound:
      return "list_windows shows the windows open now";
    case ErrorCode::kElementNotFound:
      return "call get_app_state and find the element by its label";
    case ErrorCode::kActionNotSupported:
      return "use perform_action with one of the names the element lists (actions= in the state)";
    case ErrorCode::kTimeout:
    case ErrorCode::kAppUnresponsive:
      return "the app may be busy; call get_app_state again before acting";
    case ErrorCode::kBusUnavailable:
      return "the desktop's accessibility bus is not reachable; ask the person to check the session";
    case ErrorCode::kPolicyDenied:
    case ErrorCode::kGateNotMet:
    case ErrorCode::kPermDenied:
      return "this is the person's decision; ask them";
    default:
      return {};
  }
}

// The daemon's CLI words in a message or suggestion, as an agent says them.
std::string rewrite_cli_words(std::string text) {
  static const std::array<std::pair<std::regex, const char*>, 10> kRewrites = {{
      {std::regex(R"(--window( ID)?)"), "window_id"},
      {std::regex(R"(--within)"), "within"},
      {std::regex(R"(,? ?(then )?repeat(ing)? with --headed)"), ""},
      {std::regex(R"(with the action method)"), "with perform_action"},
      {std::regex(R"(\bset-value\b)"), "set_value"},
      {std::regex(R"(\btype-text\b)"), "type"},
      {std::regex(R"(\bclick-at\b)"), "click at a point"},
      {std::regex(R"(\ba snapshot\b)"), "a state"},
      {std::regex(R"(\bsnapshot\b)"), "state"},
      // Any other option: its name alone, as an argument would be named.
      {std::regex(R"(--([a-z][a-z_-]*))"), "$1"},
  }};
  for (const auto& [pattern, replacement] : kRewrites) text = std::regex_replace(text, pattern, replacement);
  return text;
}

}  // namespace

bool speaks_cli(const std::string& text) {
  static const std::regex kOption(R"((^|[\s(`'"])--[a-z])");
  if (std::regex_search(text, kOption)) return true;
  for (const std::string_view word : kCliOnlyCommands) {
    if (text.find(word) != std::string::npos) return true;
  }
  return false;
}

Error in_agent_words(const Error& error) {
  Error said = error;
  said.message = rewrite_cli_words(error.message);
  if (speaks_cli(said.message)) said.message = std::string(to_string(error.code)) + ": the daemon refused";
  std::string advice = advice_for(error);
  if (advice.empty()) {
    advice = rewrite_cli_words(error.suggestion);
    // Advice only a terminal could follow gives way to the code's own.
    if (speaks_cli(advice)) advice = advice_by_code(error.code);
  }
  said.suggestion = std::move(advice);
  return said;
}

}  // namespace companyos::mcp
