#include "cli/command_parts.h"

#include <map>
#include <memory>
#include <stdexcept>

namespace companyos::cli {
namespace {

struct Registry {
  std::map<const methods::MethodDeclaration*, CommandParts> commands;
  std::map<std::string, GroupParts, std::less<>> groups;
  // Registered more than once, reported when the tree is built. A declaration's name is
  // read only then: at static initialization it may not be initialized yet.
  std::vector<const methods::MethodDeclaration*> commands_twice;
  std::vector<std::string> groups_twice;
};

Registry& registry() {
  static Registry all;
  return all;
}

CLI::App* find_subcommand(CLI::App& parent, std::string_view name) {
  for (CLI::App* sub : parent.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_name() == name) return sub;
  }
  return nullptr;
}

// The group a two-word command belongs to, created the first time with its registered help.
CLI::App& parent_of(CLI::App& app, std::string_view command) {
  const auto space = command.find(' ');
  if (space == std::string_view::npos) return app;
  const std::string_view group = command.substr(0, space);
  if (CLI::App* existing = find_subcommand(app, group)) return *existing;
  const auto parts = registry().groups.find(group);
  if (parts == registry().groups.end()) {
    throw std::logic_error("the command group `" + std::string(group) + "` has no registered help");
  }
  CLI::App* created = add_command(app, std::string(group), parts->second.description, parts->second.examples);
  created->require_subcommand(1);
  return *created;
}

}  // namespace

std::function<CompleteRequest(const MethodCommand&)> bind_positional(const methods::MethodDeclaration& method,
                                                                     std::string_view param, ArgumentSource source) {
  return [&method, param, source](const MethodCommand& made) -> CompleteRequest {
    auto value = std::make_shared<std::string>();
    add_positional(made.cmd, method, param, *value);
    return [value, param, source](Invocation& out) {
      out.params[std::string(param)] = source == ArgumentSource::kOrStdin ? argument_or_stdin(*value) : *value;
    };
  };
}

bool register_command(const methods::MethodDeclaration& method, CommandParts parts) {
  if (!registry().commands.emplace(&method, std::move(parts)).second) registry().commands_twice.push_back(&method);
  return true;
}

bool register_group(std::string_view name, GroupParts parts) {
  if (!registry().groups.emplace(std::string(name), std::move(parts)).second) {
    registry().groups_twice.emplace_back(name);
  }
  return true;
}

void add_method_commands(CLI::App& app, Invocation& out, std::span<const methods::MethodDeclaration* const> declared) {
  if (!registry().commands_twice.empty()) {
    throw std::logic_error("the command of `" + std::string(registry().commands_twice.front()->name) +
                           "` is registered twice");
  }
  if (!registry().groups_twice.empty()) {
    throw std::logic_error("the command group `" + registry().groups_twice.front() + "` is registered twice");
  }
  const CommandParts none;
  for (const methods::MethodDeclaration* method : declared) {
    if (method->command.empty()) continue;
    const auto found = registry().commands.find(method);
    const CommandParts& parts = found == registry().commands.end() ? none : found->second;
    const std::string examples =
        parts.examples.empty() ? "  companyos " + std::string(method->command) + "\n" : parts.examples;
    MethodCommand made =
        add_method_command(parent_of(app, method->command), *method, parts.details, examples, parts.by_hand);
    CompleteRequest complete = parts.bind ? parts.bind(made) : CompleteRequest{};
    made.cmd->callback([&out, method, options = made.options, complete, human = parts.human] {
      out.method = method->name;
      options->fill(out.params);
      out.human = human;
      if (complete) complete(out);
    });
  }
}

}  // namespace companyos::cli
