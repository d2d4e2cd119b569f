#include "automation/dsl/seed_spelling.h"

#include <array>
#include <string>
#include <string_view>
#include <utility>

namespace companyos::automation::dsl {
namespace {

using json = nlohmann::json;

// The seed's name of a command-line field, and ours.
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kRenamed{{
    {"command", "executable"},
    {"args", "argv"},
}};

void rename_command_line(json& object, const std::string& path, Problems& problems) {
  for (const auto& [theirs, ours] : kRenamed) {
    const std::string seed_name(theirs);
    if (!object.contains(seed_name)) continue;
    const std::string our_name(ours);
    if (object.contains(our_name)) {
      problems.add(path + "." + seed_name, "give " + our_name + " or " + seed_name + ", not both");
      object.erase(seed_name);  // reported once, here, not again as an unknown field
      continue;
    }
    object[our_name] = std::move(object[seed_name]);
    object.erase(seed_name);
  }
}

bool has_string(const json& object, const char* key, std::string_view value) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() && found->get_ref<const std::string&>() == value;
}

}  // namespace

json in_our_spelling(const json& input, Problems& problems) {
  if (!input.is_object()) return input;
  json output = input;
  for (const char* phase : {"preconditions", "actions", "postActions"}) {
    auto steps = output.find(phase);
    if (steps == output.end() || !steps->is_array()) continue;
    for (std::size_t i = 0; i < steps->size(); ++i) {
      json& step = (*steps)[i];
      if (!step.is_object()) continue;
      const std::string path = std::string(phase) + "[" + std::to_string(i) + "]";
      const bool command_step = has_string(step, "type", "command");
      const bool command_check = has_string(step, "type", "check") && has_string(step, "check", "command");
      if (!command_step && !command_check) continue;
      // The seed's command precondition skips the run when it exits non-zero: what a
      // command check means as a precondition here (a command step there is refused).
      const bool seed_precondition = command_step && std::string_view(phase) == "preconditions" &&
                                     step.contains("command") && !step.contains("undo");
      rename_command_line(step, path, problems);
      if (seed_precondition) {
        step["type"] = "check";
        step["check"] = "command";
        continue;
      }
      if (command_step && step.contains("undo") && step["undo"].is_object()) {
        rename_command_line(step["undo"], path + ".undo", problems);
      }
    }
  }
  return output;
}

}  // namespace companyos::automation::dsl
