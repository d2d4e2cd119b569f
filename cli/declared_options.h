// A subcommand built from its method's declaration (companyos/methods.h): its description
// is the method's summary, and every param not given by hand (positionals, options that
// build an object) becomes an option with the declared name, help, type and range. What
// each command binds is recorded, so a test can hold the CLI to the declarations.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "companyos/methods.h"

namespace companyos::cli {

class DeclaredOptions {
 public:
  // Adds to cmd an option for every param of method except those named in by_hand.
  DeclaredOptions(CLI::App* cmd, const methods::MethodDeclaration& method,
                  std::vector<std::string_view> by_hand = {});
  DeclaredOptions(const DeclaredOptions&) = delete;
  DeclaredOptions& operator=(const DeclaredOptions&) = delete;

  // Every declared option given on the command line, into params under its param name.
  void fill(nlohmann::json& params) const;
  bool given(std::string_view param) const;
  CLI::Option* option(std::string_view param) const;
  std::optional<std::int64_t> integer(std::string_view param) const;

 private:
  struct Bound {
    const methods::ParamSpec* spec = nullptr;
    CLI::Option* option = nullptr;
    std::string text;
    std::int64_t number = 0;
    bool flag = false;
  };
  const Bound* find(std::string_view param) const;

  std::deque<Bound> bound_;  // CLI11 keeps pointers into each element
};

// The option a param gets unless its declaration names one: --max-depth for max_depth.
std::string option_name(const methods::ParamSpec& param);

// A subcommand of parent for method: named by the last word of its declared command,
// described by its summary and then `details` (may be empty), with an examples footer, and
// an option for every param but those in by_hand.
struct MethodCommand {
  CLI::App* cmd = nullptr;
  std::shared_ptr<DeclaredOptions> options;
};
MethodCommand add_method_command(CLI::App& parent, const methods::MethodDeclaration& method,
                                 const std::string& details, const std::string& examples,
                                 std::vector<std::string_view> by_hand = {});

// A positional argument for a by-hand param, with the param's declared help; required when
// the param is. `shown` is its name in usage lines (default: the param's).
template <typename T>
CLI::Option* add_positional(CLI::App* cmd, const methods::MethodDeclaration& method, std::string_view param,
                            T& into, std::string_view shown = {}) {
  const methods::ParamSpec* spec = method.param(param);
  if (spec == nullptr) throw std::logic_error(std::string(method.name) + " declares no param " + std::string(param));
  CLI::Option* option = cmd->add_option(std::string(shown.empty() ? param : shown), into, methods::help_text(*spec));
  if (spec->required) option->required();
  return option;
}

// What one subcommand binds: its method and the params it fills by hand.
struct CommandBinding {
  const CLI::App* root = nullptr;  // the command tree it belongs to
  std::string path;                // "automation create"
  const methods::MethodDeclaration* method = nullptr;
  std::vector<std::string> by_hand;
};
const std::vector<CommandBinding>& command_bindings();

}  // namespace companyos::cli
