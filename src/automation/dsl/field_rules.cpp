#include "automation/dsl/field_rules.h"

#include <algorithm>
#include <cstddef>

#include "a11y/action_expectation.h"
#include "a11y/policy.h"
#include "core/problems.h"
#include "core/text.h"
#include "launch/bridge_arguments.h"
#include "launch/exec_program.h"

namespace companyos::automation::dsl {

std::optional<std::string> absolute_path_problem(const std::string& path) {
  if (path.empty() || path.front() != '/') return "must be an absolute path (starting with /)";
  return std::nullopt;
}

// A program the daemon runs from argv: an absolute path or a bare name for $PATH, never a
// shell, an interpreter or a wrapper that would run code the definition does not name.
std::optional<std::string> executable_problem(const std::string& executable) {
  if (executable.empty()) return "must not be empty";
  std::string file_name = executable;
  if (executable.find('/') != std::string::npos) {
    if (executable.front() != '/') {
      return "must be an absolute path or a bare program name looked up in PATH, not a "
             "relative path";
    }
    if (executable.back() == '/') return "must name a program file, not a directory";
    file_name = executable.substr(executable.rfind('/') + 1);
  } else if (has_control_characters(executable) || executable.find(' ') != std::string::npos ||
             executable == "." || executable == "..") {
    return "must be an absolute path or a bare program name looked up in PATH";
  }
  if (launch::is_interpreter_name(file_name)) {
    return in_quotes(file_name) +
           " is a shell, script interpreter or command wrapper; commands run without a shell: "
           "name the program itself, or run a script by its own path";
  }
  return std::nullopt;
}

// Syntax only; whether an app handles the scheme is the launch step's check at run time.
std::optional<std::string> url_problem(const std::string& url) {
  if (has_control_characters(url) || url.find(' ') != std::string::npos) {
    return "must not contain spaces or control characters (escape a space as %20)";
  }
  const auto colon = url.find(':');
  auto scheme_char = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '-' || c == '.';
  };
  const bool has_scheme =
      colon != std::string::npos && colon > 0 &&
      ((url[0] >= 'A' && url[0] <= 'Z') || (url[0] >= 'a' && url[0] <= 'z')) &&
      std::all_of(url.begin(), url.begin() + static_cast<std::ptrdiff_t>(colon), scheme_char);
  if (!has_scheme) return "must be an absolute URL with a scheme, such as https://example.org/";
  std::string scheme = url.substr(0, colon);
  std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  });
  if (scheme == "file") return "file links are opened with an open_file step (give its path)";
  if (scheme == "http" || scheme == "https") {
    const std::string rest = url.substr(colon + 1);
    if (rest.rfind("//", 0) != 0) return "an " + scheme + " link needs //host";
    std::string authority = rest.substr(2, rest.find_first_of("/?#", 2) - 2);
    if (const auto at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
    if (authority.empty() || authority.front() == ':') return "an " + scheme + " link needs a host";
  }
  return std::nullopt;
}

std::optional<std::string> app_problem(const std::string& app) {
  if (auto status = launch::check_app_name(app); !status) return status.error().message;
  if (a11y::is_password_manager(app)) return "password managers are never observed or automated";
  return std::nullopt;
}

std::optional<std::string> title_problem(const std::string& title) {
  if (title.empty()) return "must not be empty";
  if (has_control_characters(title)) return "must not contain control characters";
  return std::nullopt;
}

std::optional<std::string> state_problem(const std::string& state) {
  if (a11y::state_from_name(state)) return std::nullopt;
  return "unknown state " + in_quotes(state) + "; use a state name as snapshots print it, e.g. " +
         "\"checked\" or \"focused\"";
}

std::optional<std::string> sha256_problem(const std::string& digest) {
  const bool hex =
      digest.size() == 64 && std::all_of(digest.begin(), digest.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
      });
  if (!hex) return "must be 64 hexadecimal digits (a SHA-256 digest)";
  return std::nullopt;
}

std::string lower_case_hex(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](char c) {
    return (c >= 'A' && c <= 'F') ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return text;
}

// "schedule: field 2 …" at path "schedule" reads better as "field 2 …".
std::string without_prefix(const std::string& message, std::string_view prefix) {
  if (message.rfind(prefix, 0) == 0) return message.substr(prefix.size());
  return message;
}

}  // namespace companyos::automation::dsl
