// Every method's command is built by one loop over the declared methods (companyos/methods.h):
// its name, summary and options come from the declaration. What a command adds by hand —
// help beyond the summary, examples, positionals, a renderer — its file registers here,
// beside the renderer; a method that registers nothing gets the declared options, a generic
// example and the generic field view. No list of commands is kept anywhere else.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "cli/declared_options.h"
#include "companyos/methods.h"

namespace companyos::cli {

// Completes the request when the command runs, after the loop has set its method and the
// declared options given on the command line.
using CompleteRequest = std::function<void(Invocation& out)>;

struct CommandParts {
  std::string details = {};                    // help after the summary; may be empty
  std::string examples = {};                   // the examples footer; empty: the bare command
  std::vector<std::string_view> by_hand = {};  // params the command binds itself
  // Adds the command's positionals and by-hand options; what it returns runs with the command.
  std::function<CompleteRequest(const MethodCommand& made)> bind = {};
  std::function<void(const nlohmann::json& data)> human = {};  // unset: the generic field view
};

// The bind of a command whose only by-hand param is one positional, sent as given; with
// kOrStdin, "-" stands for all of standard input (argument_or_stdin).
enum class ArgumentSource { kAsGiven, kOrStdin };
std::function<CompleteRequest(const MethodCommand&)> bind_positional(const methods::MethodDeclaration& method,
                                                                     std::string_view param,
                                                                     ArgumentSource source = ArgumentSource::kAsGiven);

// Records PARTS for METHOD's command; called at static initialization by the file that
// renders it. Returns true, so a file can keep the registration in a constant.
bool register_command(const methods::MethodDeclaration& method, CommandParts parts);

// A group of commands ("automation", "run"): the first word of a declared command that has
// two. Its help is registered as a command's is.
struct GroupParts {
  std::string description = {};
  std::string examples = {};
};
bool register_group(std::string_view name, GroupParts parts);

// Adds a command under app for every declared method with a command, in the declarations'
// order, creating groups as their first command needs them. A method registered twice, or a
// group with no registered help, is a programming error: std::logic_error.
// (A test passes its own declarations.)
void add_method_commands(CLI::App& app, Invocation& out,
                         std::span<const methods::MethodDeclaration* const> declared = methods::all());

}  // namespace companyos::cli
