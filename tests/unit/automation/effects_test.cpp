#include "automation/effects.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace companyos::automation {
namespace {

const ElementSelector kButton{"push button", "OK", std::nullopt};

CommandLine command_line(std::string executable) {
  CommandLine command;
  command.executable = std::move(executable);
  command.cwd = "/";
  return command;
}

Step with_undo() { return Step{CommandStep{command_line("/usr/bin/cp"), command_line("rm")}, {}}; }
Step without_undo() { return Step{CommandStep{command_line("/usr/bin/cp"), std::nullopt}, {}}; }
Step press() { return Step{PressStep{"ctrl+s", "gedit"}, {}}; }
Step click() { return Step{ClickStep{"gedit", std::nullopt, kButton}, {}}; }
Step set_value() { return Step{SetValueStep{"gedit", std::nullopt, kButton, "x"}, {}}; }
Step open_file() { return Step{OpenFileStep{"/srv/a.txt", "gedit"}, {}}; }
Step check_front() { return Step{CheckStep{FrontCheck{"gedit"}}, {}}; }

TEST(AutomationEffects, EveryStepTypeDeclaresItsClass) {
  struct Case {
    std::string_view what;
    Step step;
    Effect effect;
  };
  const Case cases[] = {
      {"wait", Step{WaitStep{TextAppearsWait{"gedit", "Saved"}}, {}}, Effect::kNone},
      {"front check", check_front(), Effect::kNone},
      {"command check", Step{CheckStep{CommandCheck{command_line("test")}}, {}}, Effect::kNone},
      {"focus", Step{FocusStep{"gedit"}, {}}, Effect::kNone},
      {"open_link", Step{OpenLinkStep{"https://example.org", "firefox"}, {}},
       Effect::kLocalReversible},
      {"open_file", open_file(), Effect::kLocalReversible},
      {"set_value", set_value(), Effect::kLocalReversible},
      {"command with undo", with_undo(), Effect::kLocalReversible},
      {"command without undo", without_undo(), Effect::kIrreversible},
      {"press", press(), Effect::kIrreversible},
      {"click", click(), Effect::kIrreversible},
      {"pi", Step{PiStep{"Summarise the log", "/srv", 900}, {}}, Effect::kIrreversible},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    EXPECT_EQ(effect_of(c.step), c.effect);
    EXPECT_EQ(has_effect(c.step), c.effect != Effect::kNone);
  }
}

TEST(AutomationEffects, NamesAreTheDesignsSpelling) {
  EXPECT_EQ(to_string(Effect::kNone), "none");
  EXPECT_EQ(to_string(Effect::kLocalReversible), "local_reversible");
  EXPECT_EQ(to_string(Effect::kIrreversible), "irreversible");
}

TEST(AutomationEffects, GateConditionThreeListsIrreversibleStepsInEveryPhase) {
  struct Case {
    std::string_view what;
    std::vector<Step> preconditions, actions, post_actions;
    std::vector<std::string> offending;
  };
  const Case cases[] = {
      {"all reversible",
       {check_front()},
       {open_file(), set_value(), with_undo()},
       {check_front()},
       {}},
      {"no effects at all", {}, {check_front()}, {}, {}},
      {"one click", {}, {open_file(), click()}, {}, {"actions[1]"}},
      {"in order across phases",
       {},
       {press(), with_undo(), without_undo()},
       {check_front(), click()},
       {"actions[0]", "actions[2]", "postActions[1]"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what));
    Definition definition;
    definition.preconditions = c.preconditions;
    definition.actions = c.actions;
    definition.post_actions = c.post_actions;
    EXPECT_EQ(all_effects_local_and_reversible(definition), c.offending);
  }
}

}  // namespace
}  // namespace companyos::automation
