// The one judgement of an element condition, for a ref (the wait method) and a selector (an
// automation's element wait and check): what each sighting means for each predicate.
#include <gtest/gtest.h>

#include <atspi/atspi.h>

#include <optional>
#include <string>

#include "a11y/predicate.h"

namespace companyos::a11y {
namespace {

using Kind = ElementVerdict::Kind;
using Presence = ElementSighting::Presence;

ElementSighting sighting(Presence presence, std::optional<std::string> value = std::nullopt,
                         bool withheld = false, StateSet states = 0) {
  ElementSighting seen;
  seen.presence = presence;
  seen.matches = presence == Presence::kSeveral ? 2 : (presence == Presence::kOne ? 1 : 0);
  seen.value = std::move(value);
  seen.value_withheld = withheld;
  seen.states = states;
  return seen;
}

struct Case {
  const char* what;
  Predicate predicate;
  std::optional<std::string> value;
  ElementSighting seen;
  Kind by_ref;
  Kind by_selector;
  ErrorCode refusal = ErrorCode::kInternal;  // when either refuses
};

TEST(JudgeElement, EachSightingMeansTheSameForEveryLookerButWhereTheNamingDiffers) {
  const StateSet checked = StateSet{1} << ATSPI_STATE_CHECKED;
  const Case cases[] = {
      {"exists: one", Predicate::kExists, {}, sighting(Presence::kOne), Kind::kHolds, Kind::kHolds},
      {"exists: none yet", Predicate::kExists, {}, sighting(Presence::kNone), Kind::kNotYet, Kind::kNotYet},
      {"exists: twins part again; a selector cannot say which", Predicate::kExists, {},
       sighting(Presence::kSeveral), Kind::kNotYet, Kind::kRefused, ErrorCode::kAmbiguousTarget},
      {"exists: a ref's window never comes back; a selector's may open", Predicate::kExists, {},
       sighting(Presence::kWindowGone), Kind::kRefused, Kind::kNotYet, ErrorCode::kStaleRef},
      {"gone: none", Predicate::kGone, {}, sighting(Presence::kNone), Kind::kHolds, Kind::kHolds},
      {"gone: with its window", Predicate::kGone, {}, sighting(Presence::kWindowGone), Kind::kHolds, Kind::kHolds},
      {"gone: still one", Predicate::kGone, {}, sighting(Presence::kOne), Kind::kNotYet, Kind::kNotYet},
      {"gone: still twins", Predicate::kGone, {}, sighting(Presence::kSeveral), Kind::kNotYet, Kind::kNotYet},
      {"value: equal", Predicate::kValue, "42", sighting(Presence::kOne, "42"), Kind::kHolds, Kind::kHolds},
      {"value: exactly, not numerically", Predicate::kValue, "42", sighting(Presence::kOne, "42.0"), Kind::kNotYet,
       Kind::kNotYet},
      {"value: empty equals empty", Predicate::kValue, "", sighting(Presence::kOne, ""), Kind::kHolds, Kind::kHolds},
      {"value: no value equals nothing", Predicate::kValue, "", sighting(Presence::kOne), Kind::kNotYet,
       Kind::kNotYet},
      {"value: a password field is never read", Predicate::kValue, "x",
       sighting(Presence::kOne, std::nullopt, true), Kind::kRefused, Kind::kRefused, ErrorCode::kPolicyDenied},
      {"value: of none", Predicate::kValue, "42", sighting(Presence::kNone), Kind::kNotYet, Kind::kNotYet},
      {"state: has it", Predicate::kState, "checked", sighting(Presence::kOne, {}, false, checked), Kind::kHolds,
       Kind::kHolds},
      {"state: lacks it", Predicate::kState, "checked", sighting(Presence::kOne), Kind::kNotYet, Kind::kNotYet},
      {"state: a name no state has", Predicate::kState, "Checked", sighting(Presence::kOne, {}, false, checked),
       Kind::kRefused, Kind::kRefused, ErrorCode::kInvalidArgs},
      {"state: a password field's states are read", Predicate::kState, "checked",
       sighting(Presence::kOne, std::nullopt, true, checked), Kind::kHolds, Kind::kHolds},
  };
  for (const Case& c : cases) {
    for (const NamedBy named_by : {NamedBy::kRef, NamedBy::kSelector}) {
      const Kind wanted = named_by == NamedBy::kRef ? c.by_ref : c.by_selector;
      const ElementVerdict verdict = judge_element(c.predicate, c.value, c.seen, named_by, "the element");
      const char* by = named_by == NamedBy::kRef ? " (ref)" : " (selector)";
      EXPECT_EQ(verdict.kind, wanted) << c.what << by;
      EXPECT_EQ(verdict.refusal.has_value(), wanted == Kind::kRefused) << c.what << by;
      if (verdict.refusal) {
        EXPECT_EQ(verdict.refusal->code, c.refusal) << c.what << by;
      }
    }
  }
}

TEST(JudgeElement, ARefusalSaysWhyInItsDetails) {
  const auto stale = judge_element(Predicate::kExists, std::nullopt, sighting(Presence::kWindowGone), NamedBy::kRef, "@abc1:e4");
  ASSERT_TRUE(stale.refusal);
  EXPECT_EQ(stale.refusal->details.value("kind", ""), "window_gone");
  ElementSighting twins = sighting(Presence::kSeveral);
  twins.matches = 3;
  const auto ambiguous = judge_element(Predicate::kExists, std::nullopt, twins, NamedBy::kSelector,
                                        "push button \"OK\" in app editor");
  ASSERT_TRUE(ambiguous.refusal);
  EXPECT_EQ(ambiguous.refusal->details.value("kind", ""), "identity_not_unique");
  EXPECT_EQ(ambiguous.refusal->details.value("matches", 0), 3);
  // The message names the element as the caller named it.
  EXPECT_EQ(ambiguous.refusal->message, "3 elements match push button \"OK\" in app editor");
  EXPECT_NE(stale.refusal->message.find("@abc1:e4"), std::string::npos) << stale.refusal->message;
}

TEST(Predicates, ParseTheirNamesAndRefuseOthers) {
  for (const Predicate predicate : {Predicate::kExists, Predicate::kGone, Predicate::kValue, Predicate::kState}) {
    auto parsed = parse_predicate(predicate_name(predicate));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, predicate);
  }
  for (const char* bad : {"", "present", "Exists", "exists "}) {
    auto parsed = parse_predicate(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgs) << bad;
  }
}

}  // namespace
}  // namespace companyos::a11y
