#include "automation/child_environment.h"

#include <algorithm>

extern char** environ;

namespace companyos::automation {
namespace {

bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

bool is_valid_name(std::string_view name) {
  return !name.empty() && is_name_start(name.front()) &&
         std::all_of(name.begin(), name.end(), is_name_char);
}

std::string_view name_of(std::string_view entry) { return entry.substr(0, entry.find('=')); }

}  // namespace

std::vector<std::string> daemon_environment() {
  std::vector<std::string> environment;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    environment.emplace_back(*entry);
  }
  return environment;
}

Result<std::vector<std::string>> child_environment(
    std::span<const std::string> inherited, const std::map<std::string, std::string>& extra) {
  for (const auto& [name, value] : extra) {
    if (!is_valid_name(name)) {
      return make_error(ErrorCode::kInvalidArgs,
                        "env name '" + name + "' must be letters, digits and '_'", {{"name", name}},
                        "name variables like PATH or MY_SETTING_2");
    }
    if (value.find('\0') != std::string::npos) {
      return make_error(ErrorCode::kInvalidArgs, "env " + name + " holds a NUL byte",
                        {{"name", name}});
    }
  }
  std::vector<std::string> environment;
  environment.reserve(inherited.size() + extra.size());
  for (const std::string& entry : inherited) {
    if (!extra.contains(std::string(name_of(entry)))) environment.push_back(entry);
  }
  for (const auto& [name, value] : extra) environment.push_back(name + "=" + value);
  return environment;
}

std::optional<std::string_view> environment_value(std::span<const std::string> environment,
                                                  std::string_view name) {
  for (const std::string& entry : environment) {
    if (entry.size() > name.size() && entry[name.size()] == '=' && entry.starts_with(name)) {
      return std::string_view(entry).substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

}  // namespace companyos::automation
