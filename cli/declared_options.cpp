#include "cli/declared_options.h"

#include <algorithm>
#include <cctype>

namespace companyos::cli {
namespace {

std::vector<CommandBinding>& bindings() {
  static std::vector<CommandBinding> all;
  return all;
}

std::string command_path(const CLI::App* cmd) {
  std::string path;
  for (const CLI::App* at = cmd; at != nullptr && at->get_parent() != nullptr; at = at->get_parent()) {
    path = at->get_name() + (path.empty() ? "" : " " + path);
  }
  return path;
}

std::string sentence(std::string_view summary) {
  std::string text(summary);
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text + ".";
}

}  // namespace

std::string option_name(const methods::ParamSpec& param) {
  if (!param.option.empty()) return std::string(param.option);
  std::string name = "--" + std::string(param.name);
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

DeclaredOptions::DeclaredOptions(CLI::App* cmd, const methods::MethodDeclaration& method,
                                 std::vector<std::string_view> by_hand) {
  const CLI::App* root = cmd;
  while (root->get_parent() != nullptr) root = root->get_parent();
  CommandBinding binding{root, command_path(cmd), &method, {}};
  for (const methods::ParamSpec& param : method.params) {
    if (std::find(by_hand.begin(), by_hand.end(), param.name) != by_hand.end()) {
      binding.by_hand.emplace_back(param.name);
      continue;
    }
    Bound& bound = bound_.emplace_back();
    bound.spec = &param;
    const std::string name = option_name(param);
    const std::string help = methods::help_text(param);
    switch (param.type) {
      case methods::ParamType::kBoolean:
        bound.option = cmd->add_flag(name, bound.flag, help);
        break;
      case methods::ParamType::kInteger:
        bound.option = cmd->add_option(name, bound.number, help);
        if (param.range) {
          bound.option->check(CLI::Range(param.range->min, param.range->max.value_or(INT64_MAX)));
        }
        break;
      default:
        // Objects, arrays and values of any type are built by hand; a string is taken as is.
        bound.option = cmd->add_option(name, bound.text, help);
        break;
    }
    if (param.required) bound.option->required();
  }
  // Declared exclusions between options this command has (a positional keeps its own).
  for (const Bound& bound : bound_) {
    if (bound.spec->excludes.empty()) continue;
    if (const Bound* other = find(bound.spec->excludes)) bound.option->excludes(other->option);
  }
  bindings().push_back(std::move(binding));
}

const DeclaredOptions::Bound* DeclaredOptions::find(std::string_view param) const {
  for (const Bound& bound : bound_) {
    if (bound.spec->name == param) return &bound;
  }
  return nullptr;
}

bool DeclaredOptions::given(std::string_view param) const {
  const Bound* bound = find(param);
  return bound != nullptr && bound->option->count() > 0;
}

CLI::Option* DeclaredOptions::option(std::string_view param) const {
  const Bound* bound = find(param);
  return bound == nullptr ? nullptr : bound->option;
}

std::optional<std::int64_t> DeclaredOptions::integer(std::string_view param) const {
  if (!given(param)) return std::nullopt;
  return find(param)->number;
}

void DeclaredOptions::fill(nlohmann::json& params) const {
  for (const Bound& bound : bound_) {
    if (bound.option->count() == 0) continue;
    const std::string key(bound.spec->name);
    switch (bound.spec->type) {
      case methods::ParamType::kBoolean: params[key] = bound.flag; break;
      case methods::ParamType::kInteger: params[key] = bound.number; break;
      default: params[key] = bound.text; break;
    }
  }
}

MethodCommand add_method_command(CLI::App& parent, const methods::MethodDeclaration& method,
                                 const std::string& details, const std::string& examples,
                                 std::vector<std::string_view> by_hand) {
  const std::string_view command = method.command;
  const auto space = command.rfind(' ');
  const std::string name(space == std::string_view::npos ? command : command.substr(space + 1));
  CLI::App* sub = parent.add_subcommand(name, sentence(method.summary) + (details.empty() ? "" : "\n" + details));
  sub->footer("Examples:\n" + examples);
  return {sub, std::make_shared<DeclaredOptions>(sub, method, std::move(by_hand))};
}

const std::vector<CommandBinding>& command_bindings() { return bindings(); }

}  // namespace companyos::cli
