#include "a11y/action_target.h"

#include <array>

#include "a11y/ref.h"
#include "a11y/vocabulary.h"

namespace companyos::a11y {
std::string describe(const ActionTarget& target) {
  if (const auto* ref = std::get_if<RefTarget>(&target)) return ref->ref;
  const auto& selector = std::get<Selector>(target);
  std::string text = role_name(selector.role) + " \"" + selector.name + "\"";
  if (selector.accessible_id) text += " (id " + *selector.accessible_id + ")";
  return text + " in app " + selector.app;
}

}  // namespace companyos::a11y
