#include "daemon/methods/combo/option_keys.h"

#include <gtest/gtest.h>

namespace companyos::daemon::methods::combo {
namespace {

std::vector<ListedOption> listed(std::initializer_list<const char*> names, int selected) {
  std::vector<ListedOption> options;
  int i = 0;
  for (const char* name : names) options.push_back({name, i++ == selected});
  return options;
}

// "down 2 @2" for a plan; the error's code and kind otherwise.
std::string planned(const Result<OptionKeys>& keys) {
  if (!keys) return std::string(to_string(keys.error().code)) + " " + keys.error().details.value("kind", "");
  return std::string(keys->key) + " " + std::to_string(keys->presses) + " @" + std::to_string(keys->option);
}

TEST(KeysToOption, TheSelectionMovesFromWhereTheListStands) {
  struct Case {
    const char* what;
    std::vector<ListedOption> options;
    const char* label;
    std::string expected;
  };
  const std::initializer_list<const char*> compass = {"North", "South", "West", "East"};
  const Case cases[] = {
      {"down to a later option", listed(compass, 0), "West", "down 2 @2"},
      {"up to an earlier option", listed(compass, 3), "South", "up 2 @1"},
      {"the last from the first", listed(compass, 0), "East", "down 3 @3"},
      {"already standing on it: no press", listed(compass, 2), "West", "down 0 @2"},
      {"labels compare exactly", listed(compass, 0), "west", "ELEMENT_NOT_FOUND no_such_option"},
      {"no such option", listed(compass, 0), "Up", "ELEMENT_NOT_FOUND no_such_option"},
      {"an empty list", {}, "North", "ELEMENT_NOT_FOUND no_such_option"},
      {"two options with the label", listed({"A", "B", "A"}, 1), "A", "AMBIGUOUS_TARGET identity_not_unique"},
      {"nothing selected: where it stands is unknown", listed(compass, -1), "West",
       "ACTION_NOT_SUPPORTED list_position_unknown"},
      {"two selected: where it stands is unknown",
       {{"North", true}, {"South", false}, {"West", true}}, "South", "ACTION_NOT_SUPPORTED list_position_unknown"},
      {"an empty label names no option", listed(compass, 0), "", "ELEMENT_NOT_FOUND no_such_option"},
      {"an unnamed option can be asked for by its empty label", listed({"", "B"}, 1), "", "up 1 @0"},
  };
  for (const Case& c : cases) EXPECT_EQ(planned(keys_to_option(c.options, c.label)), c.expected) << c.what;
}

}  // namespace
}  // namespace companyos::daemon::methods::combo
