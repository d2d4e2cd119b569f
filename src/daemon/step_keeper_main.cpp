// companyos-step-keeper: the process every command step of companyosd runs under
// (automation/step_keeper.h). Not meant to be run by hand.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "automation/step_keeper.h"

int main(int argc, char** argv) {
  const std::vector<std::string_view> words(argv + 1, argv + argc);
  auto arguments = companyos::automation::parse_keeper_arguments(words);
  if (!arguments) {
    std::fprintf(stderr, "%s: %s\n%s\n", std::string(companyos::automation::kStepKeeperName).c_str(),
                 arguments.error().message.c_str(), arguments.error().suggestion.c_str());
    return 2;
  }
  return companyos::automation::run_step_keeper(*arguments);
}
