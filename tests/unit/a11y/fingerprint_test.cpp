#include "a11y/fingerprint.h"

#include <atspi/atspi.h>
#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

FingerprintInput write_button() {
  FingerprintInput input;
  input.identity = Identity{ATSPI_ROLE_PUSH_BUTTON, "write-effect", true, "Write effect", ""};
  input.window_id = "w0123456789ab";
  input.pid = 4242;
  input.bounds = Bounds{556, 433, 168, 34};
  return input;
}

TEST(Fingerprint, CanonicalFormHasFixedFieldsInFixedOrder) {
  EXPECT_EQ(canonical_form(write_button()),
            "companyos-fingerprint/1\n"
            "role=43\n"
            "accessible_id=\"write-effect\"\n"
            "name=\"Write effect\"\n"
            "description=\"\"\n"
            "window=\"w0123456789ab\"\n"
            "pid=4242\n"
            "bounds=556,433,168,34\n");
  EXPECT_EQ(canonical_form(FingerprintInput{}),
            "companyos-fingerprint/1\n"
            "role=0\n"
            "accessible_id=null\n"
            "name=\"\"\n"
            "description=\"\"\n"
            "window=\"\"\n"
            "pid=null\n"
            "bounds=null\n");
}

TEST(Fingerprint, EscapesStringsSoNoValueCanForgeALine) {
  struct Case {
    std::string name;
    const char* line;  // the name line as it must appear
  };
  const Case cases[] = {
      {"plain", "name=\"plain\"\n"},
      {"say \"hi\"", "name=\"say \\\"hi\\\"\"\n"},
      {"back\\slash", "name=\"back\\\\slash\"\n"},
      {"two\nlines", "name=\"two\\x0alines\"\n"},
      {"tab\there\r", "name=\"tab\\x09here\\x0d\"\n"},
      {std::string("nul\0in", 6), "name=\"nul\\x00in\"\n"},
      {"del\x7f", "name=\"del\\x7f\"\n"},
      {"x\"\ndescription=\"forged", "name=\"x\\\"\\x0adescription=\\\"forged\"\n"},
      {"Grüße €", "name=\"Grüße €\"\n"},
  };
  for (const Case& c : cases) {
    FingerprintInput input = write_button();
    input.identity.name = c.name;
    const std::string form = canonical_form(input);
    EXPECT_NE(form.find(c.line), std::string::npos) << form;
    // Exactly eight lines whatever the name holds.
    EXPECT_EQ(std::count(form.begin(), form.end(), '\n'), 8) << form;
  }
}

TEST(Fingerprint, NullDiffersFromEveryValue) {
  FingerprintInput unknown_id = write_button();
  unknown_id.identity.accessible_id_known = false;
  FingerprintInput id_named_null = write_button();
  id_named_null.identity.accessible_id = "null";
  FingerprintInput empty_id = write_button();
  empty_id.identity.accessible_id = "";
  FingerprintInput no_bounds = write_button();
  no_bounds.bounds.reset();
  FingerprintInput zero_bounds = write_button();
  zero_bounds.bounds = Bounds{};
  FingerprintInput no_pid = write_button();
  no_pid.pid.reset();
  FingerprintInput pid_zero = write_button();
  pid_zero.pid = 0;
  const FingerprintInput all[] = {write_button(), unknown_id,  id_named_null, empty_id,
                                  no_bounds,      zero_bounds, no_pid,        pid_zero};
  for (std::size_t i = 0; i < std::size(all); ++i) {
    for (std::size_t j = i + 1; j < std::size(all); ++j) {
      EXPECT_NE(canonical_form(all[i]), canonical_form(all[j])) << i << " vs " << j;
      EXPECT_NE(fingerprint_sha256(all[i]), fingerprint_sha256(all[j])) << i << " vs " << j;
    }
  }
  EXPECT_NE(canonical_form(unknown_id).find("accessible_id=null\n"), std::string::npos);
  EXPECT_NE(canonical_form(no_bounds).find("bounds=null\n"), std::string::npos);
  FingerprintInput negative = write_button();
  negative.bounds = Bounds{-5, -2147483647, 0, 7};
  EXPECT_NE(canonical_form(negative).find("bounds=-5,-2147483647,0,7\n"), std::string::npos);
}

TEST(Fingerprint, IsTheSha256OfTheCanonicalForm) {
  // Computed independently over the canonical forms above.
  EXPECT_EQ(fingerprint_sha256(write_button()),
            "ffe35ca6722fb7a28f806dca88e08158ecdde355fdf2ff4e5dcf58ef66daecd8");
  EXPECT_EQ(fingerprint_sha256(FingerprintInput{}),
            "b7bb9dda44541b5383c43730fa0aeb21b1396e6e1b285d87846ad1a8525d4b39");
}

TEST(Fingerprint, NamesTheChangedFieldsInCanonicalOrder) {
  struct Case {
    const char* what;
    void (*change)(FingerprintInput&);
    std::vector<std::string> changed;
  };
  const Case cases[] = {
      {"nothing", [](FingerprintInput&) {}, {}},
      {"role", [](FingerprintInput& f) { f.identity.role = ATSPI_ROLE_CHECK_BOX; }, {"role"}},
      {"id", [](FingerprintInput& f) { f.identity.accessible_id = "other"; }, {"accessible_id"}},
      {"id unknown", [](FingerprintInput& f) { f.identity.accessible_id_known = false; },
       {"accessible_id"}},
      {"name", [](FingerprintInput& f) { f.identity.name = "Write"; }, {"name"}},
      {"description", [](FingerprintInput& f) { f.identity.description = "d"; }, {"description"}},
      {"window", [](FingerprintInput& f) { f.window_id = "w000000000000"; }, {"window"}},
      {"pid", [](FingerprintInput& f) { f.pid = 1; }, {"pid"}},
      {"pid lost", [](FingerprintInput& f) { f.pid.reset(); }, {"pid"}},
      {"moved", [](FingerprintInput& f) { f.bounds->x += 40; }, {"bounds"}},
      {"resized", [](FingerprintInput& f) { f.bounds->height = 1; }, {"bounds"}},
      {"offscreen", [](FingerprintInput& f) { f.bounds.reset(); }, {"bounds"}},
      {"several",
       [](FingerprintInput& f) {
         f.bounds.reset();
         f.identity.name = "x";
         f.pid = 7;
       },
       {"name", "pid", "bounds"}},
  };
  for (const Case& c : cases) {
    FingerprintInput after = write_button();
    c.change(after);
    EXPECT_EQ(changed_fields(write_button(), after), c.changed) << c.what;
    EXPECT_EQ(c.changed.empty(), fingerprint_sha256(after) == fingerprint_sha256(write_button()))
        << c.what;
  }
}

TEST(Fingerprint, TakesTheSnapshotsRecord) {
  Snapshot snapshot;
  snapshot.window.id = "w00000000002a";
  snapshot.pid = 99;
  Node node;
  node.role = ATSPI_ROLE_PUSH_BUTTON;
  node.name = "OK";
  node.bounds = Bounds{1, 2, 3, 4};
  const FingerprintInput input = fingerprint_input_of(snapshot, node);
  EXPECT_EQ(input.window_id, "w00000000002a");
  EXPECT_EQ(input.pid, 99);
  EXPECT_EQ(input.bounds, node.bounds);
  EXPECT_EQ(input.identity, identity_of(node));
}

TEST(Fingerprint, StrictCheckRefusesAChangeAndNamesIt) {
  FingerprintInput before;
  before.identity.role = ATSPI_ROLE_PUSH_BUTTON;
  before.identity.name = "OK";
  before.window_id = "w1";
  EXPECT_TRUE(check_unchanged(before, before));
  FingerprintInput after = before;
  after.identity.name = "Cancel";
  const Status changed = check_unchanged(before, after);
  ASSERT_FALSE(changed);
  EXPECT_EQ(changed.error().code, ErrorCode::kStaleRef);
  EXPECT_EQ(changed.error().details["kind"], "fingerprint_changed");
  EXPECT_EQ(changed.error().details["changed"], nlohmann::json::array({"name"}));
  EXPECT_EQ(changed.error().details["expected"], fingerprint_sha256(before));
  EXPECT_EQ(changed.error().details["actual"], fingerprint_sha256(after));
}

}  // namespace
}  // namespace companyos::a11y
