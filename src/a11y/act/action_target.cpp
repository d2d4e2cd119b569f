#include "a11y/action_target.h"

#include <array>

#include "a11y/ref.h"
#include "a11y/vocabulary.h"

namespace companyos::a11y {
std::string describe(const ActionTarget& target) {
  if (const auto* ref = std::get_if<RefTarget>(&target)) {
    return ref->cell ? "cell " + to_string(*ref->cell) + " of " + ref->ref : ref->ref;
  }
  const auto& selector = std::get<Selector>(target);
  std::string text = selector.cell && selector.role == 0 ? std::string("the table")
                                                         : role_name(selector.role) + " \"" + selector.name + "\"";
  if (selector.accessible_id) text += " (id " + *selector.accessible_id + ")";
  if (selector.cell) text = "cell " + to_string(*selector.cell) + " of " + text;
  return text + " in app " + selector.app;
}

}  // namespace companyos::a11y
