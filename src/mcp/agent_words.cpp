#include "mcp/agent_words.h"

#include <array>
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

bool is_word_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_option_start(std::string_view text, std::size_t at) {
  return at + 2 < text.size() && text.compare(at, 2, "--") == 0 && text[at + 2] >= 'a' && text[at + 2] <= 'z';
}

// Every occurrence of `from` (as a whole word when `whole_word`) replaced by `to`.
std::string replaced(std::string_view text, std::string_view from, std::string_view to, bool whole_word) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t at = text.find(from); at != std::string_view::npos; at = text.find(from, at + 1)) {
    if (at < start) continue;
    const std::size_t end = at + from.size();
    if (whole_word && ((at > 0 && is_word_character(text[at - 1])) ||
                       (end < text.size() && is_word_character(text[end])))) {
      continue;
    }
    out.append(text.substr(start, at - start));
    out.append(to);
    start = end;
  }
  out.append(text.substr(start));
  return out;
}

// "--name" becomes "name", as an argument would be named.
std::string without_option_dashes(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (is_option_start(text, at)) ++at;  // both dashes: this one and the next
    else out.push_back(text[at]);
  }
  return out;
}

// ",? ?(then )?repeat(ing)? with --headed" taken out: advice only a terminal could follow.
std::string without_headed_advice(std::string text) {
  for (const std::string_view advice : {"repeating with --headed", "repeat with --headed"}) {
    for (std::size_t at = text.find(advice); at != std::string::npos; at = text.find(advice, at)) {
      std::size_t start = at;
      const auto take_before = [&](std::string_view word) {
        if (start >= word.size() && text.compare(start - word.size(), word.size(), word) == 0) start -= word.size();
      };
      take_before("then ");
      take_before(" ");
      take_before(",");
      text.erase(start, at + advice.size() - start);
      at = start;
    }
  }
  return text;
}

// The daemon's CLI words in a message or suggestion, as an agent says them. Plain string
// work, not std::regex: these texts hold app-supplied names of any length, and libstdc++'s
// regex recurses once per character it repeats over.
std::string rewrite_cli_words(std::string text) {
  struct Rewrite {
    std::string_view from;
    std::string_view to;
    bool whole_word;
  };
  // In order: "a snapshot" before "snapshot".
  static constexpr std::array<Rewrite, 9> kRewrites = {{
      {"--window ID", "window_id", false},
      {"--window", "window_id", false},
      {"--within", "within", false},
      {"with the action method", "with perform_action", false},
      {"set-value", "set_value", true},
      {"type-text", "type", true},
      {"click-at", "click at a point", true},
      {"a snapshot", "a state", true},
      {"snapshot", "state", true},
  }};
  text = without_headed_advice(std::move(text));
  for (const Rewrite& rewrite : kRewrites) text = replaced(text, rewrite.from, rewrite.to, rewrite.whole_word);
  return without_option_dashes(text);
}

}  // namespace

bool speaks_cli(const std::string& text) {
  // "--x" at the start or after a space, "(", "`", "'" or a double quote.
  for (std::size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at + 1)) {
    const bool after_boundary = at == 0 || std::string_view(" \t\n\r\f\v(`'\"").find(text[at - 1]) != std::string_view::npos;
    if (after_boundary && is_option_start(text, at)) return true;
  }
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
