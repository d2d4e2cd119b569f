#include "automation/step_description.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <type_traits>

namespace companyos::automation {
namespace {

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

std::string selector_text(const ElementSelector& target, const std::string& app,
                          const std::optional<std::string>& window) {
  std::string text = target.role;
  if (!target.name.empty()) text += " " + quoted(target.name);
  if (target.id) text += " (id " + quoted(*target.id) + ")";
  if (target.within) {
    text += " within " + target.within->role;
    if (!target.within->name.empty()) text += " " + quoted(target.within->name);
    if (target.within->id) text += " (id " + quoted(*target.within->id) + ")";
  }
  text += " in " + app;
  if (window) text += " window " + quoted(*window);
  return text;
}

// Whether TEXT is a URI scheme (RFC 3986: a letter, then letters, digits, "+", "-", ".").
bool is_scheme(std::string_view text) {
  if (text.empty() || std::isalpha(static_cast<unsigned char>(text.front())) == 0) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
  });
}

// A link's scheme and host only: user info, queries and paths can carry tokens. The scheme
// ends at the first ':' — a "://" further on is inside the rest, which is never shown — and
// a link that does not start with a scheme shows nothing of itself.
std::string link_text(const std::string& url) {
  const auto colon = url.find(':');
  if (colon == std::string::npos || !is_scheme(std::string_view(url).substr(0, colon))) return "a link";
  const std::string scheme = url.substr(0, colon);
  if (url.compare(colon + 1, 2, "//") != 0) return scheme;
  const auto authority_start = colon + 3;
  const auto host_end = url.find_first_of("/?#", authority_start);
  std::string authority = url.substr(authority_start, host_end - authority_start);
  // "user:password@host": what stands before the last '@' is a credential, not the host.
  if (const auto at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
  return scheme + "://" + authority;
}

// The prompt's first line, cut at a character boundary, for one line a person reads
// before approving.
std::string prompt_excerpt(const std::string& prompt) {
  constexpr std::size_t kLimit = 120;
  std::string line = prompt.substr(0, prompt.find('\n'));
  if (line.size() <= kLimit && line.size() == prompt.size()) return line;
  std::size_t cut = std::min(line.size(), kLimit);
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return line.substr(0, cut) + "…";
}

std::string body_text(const StepBody& body) {
  return std::visit(
      [](const auto& step) -> std::string {
        using T = std::decay_t<decltype(step)>;
        if constexpr (std::is_same_v<T, CommandStep>) {
          return "command " + step.command.executable;
        } else if constexpr (std::is_same_v<T, OpenLinkStep>) {
          return "open_link " + link_text(step.url) + " in " + step.app;
        } else if constexpr (std::is_same_v<T, OpenFileStep>) {
          return "open_file " + step.path + " in " + step.app;
        } else if constexpr (std::is_same_v<T, FocusStep>) {
          return "focus " + step.app;
        } else if constexpr (std::is_same_v<T, PressStep>) {
          return "press " + step.chord + " in " + step.app;
        } else if constexpr (std::is_same_v<T, ClickStep>) {
          return "click " + selector_text(step.target, step.app, step.window);
        } else if constexpr (std::is_same_v<T, SetValueStep>) {
          return "set_value on " + selector_text(step.target, step.app, step.window);
        } else if constexpr (std::is_same_v<T, WaitStep>) {
          return "wait";
        } else if constexpr (std::is_same_v<T, PiStep>) {
          return "pi in " + step.cwd + ": " + quoted(prompt_excerpt(step.prompt));
        } else {
          return "check";
        }
      },
      body);
}

}  // namespace

std::string describe_step(const Step& step, const std::string& path) {
  return path + ": " + (step.description ? *step.description : body_text(step.body));
}

}  // namespace companyos::automation
