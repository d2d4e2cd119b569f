#include "a11y/predicate.h"

namespace companyos::a11y {
namespace {

ElementVerdict holds() { return {ElementVerdict::Kind::kHolds, std::nullopt}; }
ElementVerdict not_yet() { return {ElementVerdict::Kind::kNotYet, std::nullopt}; }
ElementVerdict refused(Error error) { return {ElementVerdict::Kind::kRefused, std::move(error)}; }

}  // namespace

Result<Predicate> parse_predicate(std::string_view name) {
  if (name == "exists") return Predicate::kExists;
  if (name == "gone") return Predicate::kGone;
  if (name == "value") return Predicate::kValue;
  if (name == "state") return Predicate::kState;
  return make_error(ErrorCode::kInvalidArgs, "unknown predicate \"" + std::string(name) + "\"", nlohmann::json::object(),
                    "use exists, gone, value or state");
}

std::string_view predicate_name(Predicate predicate) {
  switch (predicate) {
    case Predicate::kExists:
      return "exists";
    case Predicate::kGone:
      return "gone";
    case Predicate::kValue:
      return "value";
    case Predicate::kState:
      return "state";
  }
  return "exists";
}

ElementVerdict judge_element(Predicate predicate, const std::optional<std::string>& value,
                             const ElementSighting& seen, NamedBy named_by, std::string_view what) {
  using Presence = ElementSighting::Presence;
  if (predicate == Predicate::kGone) {
    return seen.presence == Presence::kNone || seen.presence == Presence::kWindowGone ? holds() : not_yet();
  }
  switch (seen.presence) {
    case Presence::kNone:
      return not_yet();
    case Presence::kWindowGone:
      if (named_by == NamedBy::kSelector) return not_yet();
      // Identity lives within one window, and a closed window never comes back.
      return refused(make_error(ErrorCode::kStaleRef, "the window of " + std::string(what) + " is gone", {{"kind", "window_gone"}},
                                "take a new snapshot and use its refs"));
    case Presence::kSeveral:
      if (named_by == NamedBy::kRef) return not_yet();
      return refused(make_error(ErrorCode::kAmbiguousTarget,
                                std::to_string(seen.matches) + " elements match " + std::string(what),
                                {{"kind", "identity_not_unique"}, {"matches", seen.matches}},
                                "name the element so that one matches (an id, or a scope)"));
    case Presence::kOne:
      break;
  }
  switch (predicate) {
    case Predicate::kExists:
    case Predicate::kGone:
      return holds();
    case Predicate::kValue:
      if (seen.value_withheld) {
        return refused(make_error(ErrorCode::kPolicyDenied, std::string(what) + " is a password field: its value is never read", {},
                                  "wait for another element"));
      }
      return value && seen.value && *seen.value == *value ? holds() : not_yet();
    case Predicate::kState: {
      const auto state = state_from_name(value.value_or(""));
      if (!state) {
        return refused(make_error(ErrorCode::kInvalidArgs, "unknown state \"" + value.value_or("") + "\"",
                                  {{"param", "value"}}, "use a state name as snapshots print it, e.g. checked"));
      }
      return has_state(seen.states, *state) ? holds() : not_yet();
    }
  }
  return not_yet();
}

}  // namespace companyos::a11y
