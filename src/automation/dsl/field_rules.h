// The rules of single fields of a definition's steps: each returns the problem's message, or
// nothing when the value is fine. Internal to the automation module.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace companyos::automation::dsl {

std::optional<std::string> absolute_path_problem(const std::string& path);
// A program the daemon runs from argv: an absolute path or a bare name for $PATH, never a
// shell, an interpreter or a wrapper that would run code the definition does not name.
std::optional<std::string> executable_problem(const std::string& executable);
// Syntax only; whether an app handles the scheme is the launch step's check at run time.
std::optional<std::string> url_problem(const std::string& url);
std::optional<std::string> app_problem(const std::string& app);
std::optional<std::string> title_problem(const std::string& title);
std::optional<std::string> state_problem(const std::string& state);
std::optional<std::string> sha256_problem(const std::string& digest);
std::string lower_case_hex(std::string text);
// "schedule: field 2 …" at path "schedule" reads better as "field 2 …".
std::string without_prefix(const std::string& message, std::string_view prefix);

}  // namespace companyos::automation::dsl
