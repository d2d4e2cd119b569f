// The CLI, the daemon's `methods` and docs/protocol.md read one list of declarations
// (companyos/methods.h). These tests fail when the CLI's command tree or the document
// drifts from it: a param with no option, an option whose help is not the declared one, a
// command for no method, a table row that is not the declaration's.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "cli/command.h"
#include "cli/command_parts.h"
#include "cli/declared_options.h"
#include "companyos/methods.h"
#include "mcp/tools.h"

namespace companyos::cli {
namespace {

// The tree these tests inspect; others are built to parse arguments.
CLI::App& command_tree() {
  static CLI::App app{"companyos"};
  static Invocation out;
  static const bool built = [] {
    add_all_commands(app, out);
    return true;
  }();
  (void)built;
  return app;
}

CLI::App* subcommand(CLI::App& app, const std::string& path) {
  CLI::App* at = &app;
  std::istringstream words(path);
  for (std::string word; words >> word;) {
    CLI::App* next = nullptr;
    for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; })) {
      if (sub->get_name() == word) next = sub;
    }
    if (next == nullptr) return nullptr;
    at = next;
  }
  return at;
}

// "--timeout" of "-i,--interactive": the long name CLI11 knows the option by.
std::string long_name(const std::string& option) {
  const auto comma = option.rfind(',');
  return comma == std::string::npos ? option : option.substr(comma + 1);
}

TEST(CliDeclarations, EveryDeclaredCommandExistsAndIsBoundOnce) {
  CLI::App& app = command_tree();
  std::map<std::string, int> bound;
  for (const CommandBinding& binding : command_bindings()) {
    if (binding.root == &app) ++bound[binding.path];
  }
  for (const methods::MethodDeclaration* method : methods::all()) {
    if (method->command.empty()) continue;
    const std::string path(method->command);
    EXPECT_NE(subcommand(app, path), nullptr) << method->name << ": no command `" << path << "`";
    EXPECT_EQ(bound[path], 1) << method->name << ": `" << path << "` is not built from its declaration once";
  }
  for (const CommandBinding& binding : command_bindings()) {
    if (binding.root != &app) continue;
    ASSERT_NE(binding.method, nullptr) << binding.path;
    EXPECT_EQ(binding.path, binding.method->command)
        << "the command `" << binding.path << "` sends " << binding.method->name << ", declared as `"
        << binding.method->command << "`";
  }
}

TEST(CliDeclarations, EveryParamIsAnOptionWithTheDeclaredHelpOrIsGivenByHand) {
  CLI::App& app = command_tree();
  for (const CommandBinding& binding : command_bindings()) {
    if (binding.root != &app) continue;
    CLI::App* cmd = subcommand(app, binding.path);
    ASSERT_NE(cmd, nullptr) << binding.path;
    const std::set<std::string> by_hand(binding.by_hand.begin(), binding.by_hand.end());
    for (const std::string& name : by_hand) {
      EXPECT_NE(binding.method->param(name), nullptr)
          << binding.path << " fills `" << name << "` by hand, but " << binding.method->name << " declares no such param";
    }
    for (const methods::ParamSpec& param : binding.method->params) {
      if (by_hand.count(std::string(param.name)) > 0) continue;
      const std::string option = long_name(option_name(param));
      const CLI::Option* found = cmd->get_option_no_throw(option);
      ASSERT_NE(found, nullptr) << binding.path << ": no " << option << " for param " << param.name;
      EXPECT_EQ(found->get_description(), methods::help_text(param)) << binding.path << " " << option;
      EXPECT_EQ(found->get_required(), param.required) << binding.path << " " << option;
    }
  }
}

// Parses a command line as a person types it (CLI11 takes the vector reversed).
void parse(CLI::App& app, std::vector<std::string> words) {
  std::reverse(words.begin(), words.end());
  app.parse(words);
}

TEST(CliDeclarations, ADeclaredRangeIsEnforcedByTheCli) {
  CLI::App app{"companyos"};
  Invocation out;
  add_all_commands(app, out);
  EXPECT_THROW(parse(app, {"audit", "--limit", "0"}), CLI::ValidationError);
  CLI::App again{"companyos"};
  Invocation out_again;
  add_all_commands(again, out_again);
  EXPECT_THROW(parse(again, {"snapshot", "--app", "mousepad", "--timeout", "70000"}), CLI::ValidationError);
}

// A declared exclusion ("title" excludes "window") holds on every command that has both
// options, so the CLI refuses what the daemon would.
TEST(CliDeclarations, DeclaredExclusionsAreEnforcedByTheCli) {
  int checked = 0;
  for (const methods::MethodDeclaration* method : methods::all()) {
    if (method->command.empty()) continue;
    for (const methods::ParamSpec& param : method->params) {
      if (param.excludes.empty()) continue;
      const methods::ParamSpec* other = method->param(param.excludes);
      ASSERT_NE(other, nullptr) << method->name << ": " << param.name << " excludes an undeclared param";
      CLI::App app{"companyos"};
      Invocation out;
      add_all_commands(app, out);
      CLI::App* cmd = subcommand(app, std::string(method->command));
      ASSERT_NE(cmd, nullptr) << method->command;
      const CLI::Option* mine = cmd->get_option_no_throw(long_name(option_name(param)));
      const CLI::Option* theirs = cmd->get_option_no_throw(long_name(option_name(*other)));
      if (mine == nullptr || theirs == nullptr) continue;  // one is a positional
      const auto& excluded = mine->get_excludes();
      EXPECT_TRUE(excluded.count(const_cast<CLI::Option*>(theirs)) > 0)
          << method->command << ": " << long_name(option_name(param)) << " does not exclude "
          << long_name(option_name(*other));
      ++checked;
    }
  }
  EXPECT_GE(checked, 7) << "snapshot, find, screenshot, focus-window, close-window, press and the element actions";
  CLI::App app{"companyos"};
  Invocation out;
  add_all_commands(app, out);
  EXPECT_THROW(parse(app, {"snapshot", "--app", "mousepad", "--window", "w1", "--title", "T"}), CLI::ExcludesError);
}

TEST(CliDeclarations, OptionsFillTheParamsTheirDeclarationsName) {
  CLI::App app{"companyos"};
  Invocation out;
  add_all_commands(app, out);
  parse(app, {"snapshot", "--app", "mousepad", "--timeout", "250", "-i", "--max-depth", "2"});
  EXPECT_EQ(out.method, "snapshot");
  EXPECT_EQ(out.params, (nlohmann::json{{"app", "mousepad"}, {"interactive", true}, {"max_depth", 2},
                                        {"timeout_ms", 250}}));
  EXPECT_EQ(out.human_params, (nlohmann::json{{"format", "outline"}}));
}

TEST(CliDeclarations, WaitTakesItsElementAndTimeoutUnderTheirCliNames) {
  CLI::App app{"companyos"};
  Invocation out;
  add_all_commands(app, out);
  parse(app, {"wait", "--element", "@s1:e2", "--predicate", "gone", "--timeout", "5000"});
  EXPECT_EQ(out.method, "wait");
  EXPECT_EQ(out.params, (nlohmann::json{{"ref", "@s1:e2"}, {"predicate", "gone"}, {"timeout_ms", 5000}}));
  EXPECT_EQ(out.reply_timeout, std::chrono::milliseconds(15000));
}

// Declarations no command file registers anything for: the loop alone makes their commands.
const methods::MethodDeclaration kUnregistered{
    .name = "test.unregistered",
    .command = "unregistered-thing",
    .summary = "a method only this test declares",
    .params = {{.name = "count", .type = methods::ParamType::kInteger, .help = "how many",
                .range = methods::IntRange{1, 9}},
               {.name = "label", .type = methods::ParamType::kString, .help = "what to call it"}}};
const methods::MethodDeclaration kInAGroupWithoutHelp{
    .name = "nohelp.thing", .command = "nohelp thing", .summary = "a command whose group has no help"};

TEST(CliMethodCommands, AMethodThatRegistersNothingGetsItsDeclaredCommand) {
  CLI::App app{"companyos"};
  Invocation out;
  const methods::MethodDeclaration* declared[] = {&kUnregistered};
  add_method_commands(app, out, declared);
  CLI::App* cmd = subcommand(app, "unregistered-thing");
  ASSERT_NE(cmd, nullptr);
  EXPECT_EQ(cmd->get_description(), "A method only this test declares.");
  EXPECT_NE(cmd->get_footer().find("companyos unregistered-thing"), std::string::npos) << cmd->get_footer();
  parse(app, {"unregistered-thing", "--count", "7", "--label", "x"});
  EXPECT_EQ(out.method, "test.unregistered");
  EXPECT_EQ(out.params, (nlohmann::json{{"count", 7}, {"label", "x"}}));
  EXPECT_FALSE(out.human);  // the generic field view

  CLI::App again{"companyos"};
  Invocation refused;
  add_method_commands(again, refused, declared);
  EXPECT_THROW(parse(again, {"unregistered-thing", "--count", "12"}), CLI::ParseError);  // the declared range
}

TEST(CliMethodCommands, AGroupWithoutRegisteredHelpIsAProgrammingError) {
  CLI::App app{"companyos"};
  Invocation out;
  const methods::MethodDeclaration* declared[] = {&kInAGroupWithoutHelp};
  EXPECT_THROW(add_method_commands(app, out, declared), std::logic_error);
}

TEST(CliMethodCommands, EveryRegisteredGroupHoldsACommandAndEveryCommandIsUnderItsGroup) {
  CLI::App& app = command_tree();
  for (const methods::MethodDeclaration* method : methods::all()) {
    const std::string path(method->command);
    const auto space = path.find(' ');
    if (space == std::string::npos) continue;
    CLI::App* group = subcommand(app, path.substr(0, space));
    ASSERT_NE(group, nullptr) << path;
    EXPECT_FALSE(group->get_description().empty()) << path;
    EXPECT_NE(subcommand(*group, path.substr(space + 1)), nullptr) << path;
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The table sits between these two lines of docs/protocol.md.
// The text of DOC between the lines START and END, or nullopt when either is missing.
std::optional<std::string> between(const std::string& doc, const std::string& start, const std::string& end) {
  const auto begin = doc.find(start);
  if (begin == std::string::npos) return std::nullopt;
  const auto from = begin + start.size();
  const auto until = doc.find(end, from);
  if (until == std::string::npos) return std::nullopt;
  return doc.substr(from, until - from);
}

TEST(ProtocolDoc, TheMethodsTableIsTheDeclarations) {
  const auto table = between(read_file(COMPANYOS_PROTOCOL_DOC),
                             "<!-- methods table: `companyos methods --markdown` writes it -->\n",
                             "<!-- end of methods table -->");
  ASSERT_TRUE(table.has_value()) << "docs/protocol.md has lost a marker line of its methods table";
  EXPECT_EQ(*table, methods::markdown_table())
      << "docs/protocol.md's methods table differs from the declarations; replace it with the output of "
         "`companyos methods --markdown`";
}

TEST(McpDoc, TheToolsTableIsTheToolDeclarations) {
  const auto table = between(read_file(COMPANYOS_MCP_DOC),
                             "<!-- tools table: `companyos mcp --tools-markdown` writes it -->\n",
                             "<!-- end of tools table -->");
  ASSERT_TRUE(table.has_value()) << "docs/mcp.md has lost a marker line of its tools table";
  EXPECT_EQ(*table, mcp::tools_markdown_table())
      << "docs/mcp.md's tools table differs from the tool declarations; replace it with the output of "
         "`companyos mcp --tools-markdown`";
}

}  // namespace
}  // namespace companyos::cli
