#include "mcp/agent_words.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mcp/outcome_line.h"
#include "mcp/tools/daemon_reply.h"

namespace companyos::mcp {
namespace {

const std::vector<ErrorCode> kEveryCode = {
    ErrorCode::kInvalidArgs,    ErrorCode::kNotFound,        ErrorCode::kAppNotFound,
    ErrorCode::kWindowNotFound, ErrorCode::kElementNotFound, ErrorCode::kAmbiguousTarget,
    ErrorCode::kStaleRef,       ErrorCode::kActionNotSupported, ErrorCode::kPolicyDenied,
    ErrorCode::kTimeout,        ErrorCode::kAppUnresponsive, ErrorCode::kPlatformNotSupported,
    ErrorCode::kBusUnavailable, ErrorCode::kConflict,        ErrorCode::kGateNotMet,
    ErrorCode::kPermDenied,     ErrorCode::kStorageFull,     ErrorCode::kInternal};

// Messages and suggestions the daemon really writes (src/), worded for its CLI.
const std::vector<std::string> kDaemonWords = {
    "add --window ID with one of the candidates' ids",
    "companyos settings set physical_input true, then repeat with --headed",
    "physical input needs --headed on the request",
    "pass --force if you really mean it",
    "pass --snapshot ID (the id a snapshot printed), or use the full ref @<snapshot>:e<N>",
    "read less of it (--max-depth, --surface) or give it longer (--timeout)",
    "take a new snapshot (twins are marked there) and pick an element with a unique name or id",
    "use one of the available actions with the action method",
    "bring it forward first (e.g. companyos focus-window --app mousepad)",
    "open it first (click or press what opens it), or wait for it: wait --app mousepad --surface menu",
    "option in that list (--within the list: the copy is a twin of this one)",
    "scroll it into view, or click without --headed",
    "see `companyos automation gate ID`, then `companyos automation promote ID`",
    "stop it first: companyos automation stop 4",
    "try again, or give a longer --timeout",
    "e.g. companyos find --app mousepad --role \"push button\"",
    "the agent-desktop bridge focuses an app by name; --window and --title cannot be used with it",
    "set-value is refused here; use type-text or click-at",
    "snapshot fxl1 is not known",
};

// Every daemon error code, with every CLI-worded text as its message and as its
// suggestion, reaches an agent in MCP words: both through the tools' error results and
// through an action's outcome line.
TEST(AgentWords, NoErrorReachesAnAgentInCliWords) {
  for (const ErrorCode code : kEveryCode) {
    for (const std::string& words : kDaemonWords) {
      const Error error = make_error(code, words, {{"delivery", "not_delivered"}}, words);
      const ToolResult result = nothing_done(error);
      const std::string text = result.content.at(0)["text"].get<std::string>();
      EXPECT_FALSE(speaks_cli(text)) << to_string(code) << ": " << text;
      const nlohmann::json envelope = {
          {"ok", false},
          {"error", {{"code", std::string(to_string(code))}, {"message", words}, {"suggestion", words},
                     {"details", {{"delivery", "not_delivered"}}}}}};
      const ActionOutcome outcome = describe_outcome("click", envelope);
      EXPECT_FALSE(speaks_cli(outcome.line)) << to_string(code) << ": " << outcome.line;
      EXPECT_EQ(outcome.line.rfind("Nothing was done: ", 0), 0u) << outcome.line;
    }
  }
}

TEST(AgentWords, SpeaksCliFindsOptionsAndCommands) {
  struct Case {
    std::string text;
    bool cli;
  };
  const std::vector<Case> cases = {
      {"repeat with --headed", true},     {"(--timeout)", true},          {"companyos windows", true},
      {"use set-value", true},            {"call get_app_state again", false},
      {"pass window_id", false},          {"a well-known value", false},  {"x -- y", false},
  };
  for (const Case& c : cases) EXPECT_EQ(speaks_cli(c.text), c.cli) << c.text;
}

TEST(AgentWords, CliWordsBecomeToolWords) {
  struct Case {
    std::string message;
    std::string said;
  };
  const std::vector<Case> cases = {
      {"add --window ID with one of them", "add window_id with one of them"},
      {"narrow it with --within REF", "narrow it with within REF"},
      {"the entry ignores it, then repeat with --headed", "the entry ignores it"},
      {"turn physical input on, repeating with --headed.", "turn physical input on."},
      {"type it,then repeat with --headed and check", "type it and check"},
      {"use one of the available actions with the action method", "use one of the available actions with perform_action"},
      {"set-value refused; take a snapshot", "set_value refused; take a state"},
      {"snapshots and the snapshot", "snapshots and the state"},
      {"click-at x y, or type-text", "click at a point x y, or type"},
      {"raise --timeout-ms and ---x", "raise timeout-ms and -x"},
      {"snapshotting stays", "snapshotting stays"},
  };
  for (const Case& c : cases) {
    const Error said = in_agent_words(make_error(ErrorCode::kInvalidArgs, c.message));
    EXPECT_EQ(said.message, c.said) << c.message;
  }
}

// App-supplied names reach these texts at any length: std::regex recursed per character
// and could run out of stack on them.
TEST(AgentWords, HugeAppSuppliedTextIsRewrittenWithoutTrouble) {
  const std::string name = "--" + std::string(500000, 'a') + " set-value " + std::string(500000, '-');
  const Error said = in_agent_words(make_error(ErrorCode::kElementNotFound, "no element named " + name));
  EXPECT_EQ(said.message.size(), std::string("no element named ").size() + name.size() - 2 + 0);
  EXPECT_FALSE(speaks_cli(said.message));
}

TEST(AgentWords, ARefusalThatNeedsAChoiceListsTheChoices) {
  const Error windows = make_error(
      ErrorCode::kAmbiguousTarget, "4 windows match; name exactly one",
      {{"app", "Chromium"},
       {"candidates", {{{"id", "wf71"}, {"title", "Form - Chromium"}}, {{"id", "wf61"}, {"title", ""}}}}},
      "add --window ID with one of the candidates' ids");
  EXPECT_EQ(in_agent_words(windows).suggestion, "pass window_id, one of: wf71 \"Form - Chromium\", wf61 (no title)");

  const Error twins = make_error(
      ErrorCode::kAmbiguousTarget, "2 elements under the scope have the ref's identity",
      {{"kind", "identity_not_unique"},
       {"count", 2},
       {"candidates",
        {{{"role", "menu"}, {"name", "Insert"}, {"parent", {{"role", "menu bar"}, {"name", ""}}}},
         {{"role", "menu"}, {"name", "Insert"}, {"parent", {{"role", "menu"}, {"name", "Table"}}}}}}},
      "take a new snapshot (twins are marked there) and pick an element with a unique name or id");
  EXPECT_EQ(in_agent_words(twins).suggestion,
            "several elements have its role and name (one under menu bar, one under menu \"Table\"); pass within: "
            "the number of an element of the same state that holds only the one you mean");

  const Error scoped = make_error(ErrorCode::kAmbiguousTarget, "2 elements of the window have the ref's identity",
                                  {{"kind", "identity_not_unique"}, {"count", 2}, {"scope", "@abc:e5"}},
                                  "repeat with --within @abc:e5: the element that holds only this one");
  EXPECT_EQ(in_agent_words(scoped).suggestion,
            "several elements have its role and name; pass within: 5 (the element that holds only the one you "
            "mean)");

  const Error physical = make_error(ErrorCode::kPolicyDenied, "physical input is off (setting physical_input)",
                                    {{"reason", "physical_input_disabled"}},
                                    "companyos settings set physical_input true, then repeat with --headed");
  const Error said = in_agent_words(physical);
  EXPECT_NE(said.suggestion.find("only the person can switch physical input on"), std::string::npos);
  EXPECT_EQ(said.code, ErrorCode::kPolicyDenied);
  EXPECT_EQ(said.details, physical.details);
}

}  // namespace
}  // namespace companyos::mcp
