// Desktop tests of the semantic action engine against the GTK3 fixture, inside
// scripts/desktop-session. Effects are judged from outside the tool: the fixture writes
// every effect to a file (FILE, FILE.check, FILE.combo, FILE.tree, FILE.value, FILE.twin),
// and preconditions such as "the twin exists now" are checked with plain D-Bus calls on a
// connection of the test's own, never through the engine.
#include <signal.h>

#include <algorithm>
#include <fstream>
#include <thread>

#include <glib/gstdio.h>
#include <gtest/gtest.h>

#include "a11y/action_engine.h"
#include "fixture_process.h"
#include "daemon/wire/a11y_replies.h"
#include "daemon/wire/action_params.h"

namespace companyos::a11y {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using testing::FixtureProcess;
using testing::in;
using testing::wait_for_app;
using wire::action_reply_to_json;
using wire::parse_action_request;
using Clock = std::chrono::steady_clock;

// Polls condition every 5 ms until it holds or timeout passes.
template <typename Condition>
bool eventually(Condition condition, std::chrono::milliseconds timeout = 3s) {
  const auto until = Clock::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(5ms);
  }
}

// A private directory for control and effect files, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const GCharPtr made(g_dir_make_tmp("companyos-actions-XXXXXX", nullptr));
    path_ = made ? made.get() : "";
  }
  ~TempDir() {
    if (path_.empty()) return;
    if (GDir* dir = g_dir_open(path_.c_str(), 0, nullptr)) {
      while (const char* name = g_dir_read_name(dir)) g_remove((path_ + "/" + name).c_str());
      g_dir_close(dir);
    }
    g_rmdir(path_.c_str());
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::optional<std::string> read_file(const std::string& path) {
  gchar* contents = nullptr;
  gsize length = 0;
  if (!g_file_get_contents(path.c_str(), &contents, &length, nullptr)) return std::nullopt;
  const GCharPtr owned(contents);
  return std::string(contents, length);
}

bool file_exists(const std::string& path) { return g_file_test(path.c_str(), G_FILE_TEST_EXISTS); }

void touch(const std::string& path) { std::ofstream(path).put('\n'); }

// Watches for a file that must never appear: polls it for a while after a refusal.
bool stays_absent(const std::string& path, std::chrono::milliseconds watch = 300ms) {
  return !eventually([&] { return file_exists(path); }, watch);
}

bool process_gone(int pid) { return kill(pid, 0) != 0; }

// The test's own view of the accessibility bus: a separate connection and plain calls, so
// preconditions are not judged by the code under test.
class OwnBusView {
 public:
  OwnBusView() {
    const char* address = g_getenv("AT_SPI_BUS_ADDRESS");
    if (address == nullptr) return;
    connection_.reset(g_dbus_connection_new_for_address_sync(
        address,
        static_cast<GDBusConnectionFlags>(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                          G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION),
        nullptr, nullptr, nullptr));
  }
  // Accessible.ChildCount of an object, or -1.
  int child_count(const std::string& bus_name, const std::string& path) const {
    if (!connection_) return -1;
    VariantPtr reply(g_dbus_connection_call_sync(
        connection_.get(), bus_name.c_str(), path.c_str(), "org.freedesktop.DBus.Properties", "Get",
        g_variant_new("(ss)", "org.a11y.atspi.Accessible", "ChildCount"), G_VARIANT_TYPE("(v)"),
        G_DBUS_CALL_FLAGS_NONE, 2000, nullptr, nullptr));
    if (!reply) return -1;
    VariantPtr boxed = child_of(reply.get(), 0);
    VariantPtr value(g_variant_get_variant(boxed.get()));
    return g_variant_is_of_type(value.get(), G_VARIANT_TYPE_INT32) ? g_variant_get_int32(value.get())
                                                                   : -1;
  }

 private:
  GObjectPtr<GDBusConnection> connection_;
};

const Node* find_node(const Snapshot& snapshot, std::string_view role, std::string_view name) {
  for (const Node& node : snapshot.nodes) {
    if (role_name(node.role) == role && node.name == name) return &node;
  }
  return nullptr;
}

class ActionDesktop : public ::testing::Test {
 protected:
  // Starts the fixture with --class app_class --effect FILE (plus extra) and snapshots it.
  std::shared_ptr<const Snapshot> start(const std::string& app_class, std::vector<std::string> extra = {}) {
    std::vector<std::string> arguments = {"--class", app_class, "--title", app_class,
                                          "--effect", effect_};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    fixture_ = std::make_unique<FixtureProcess>(arguments);
    EXPECT_TRUE(fixture_->running());
    const auto app = wait_for_app(observer_, fixture_->pid());
    EXPECT_TRUE(app.has_value()) << app_class << " never appeared on the accessibility bus";
    if (!app) return nullptr;
    return snapshot(app_class);
  }

  std::shared_ptr<const Snapshot> snapshot(const std::string& app_class) {
    auto taken = observer_.snapshot(WindowQuery{app_class, std::nullopt, std::nullopt}, in(10s));
    EXPECT_TRUE(taken.ok()) << (taken.ok() ? "" : taken.error().message);
    return taken.ok() ? *taken : nullptr;
  }

  static std::string ref(const Snapshot& snapshot, std::string_view role, std::string_view name) {
    const Node* node = find_node(snapshot, role, name);
    EXPECT_NE(node, nullptr) << role << " \"" << name << "\" is not in the snapshot";
    return node ? format_ref(snapshot.id, node->ref) : std::string("@none:e1");
  }

  Result<ActionReply> act(ActionKind kind, json params, std::chrono::milliseconds budget = 10s) {
    auto request = parse_action_request(kind, params);
    EXPECT_TRUE(request.ok()) << params.dump() << ": "
                              << (request.ok() ? "" : request.error().message);
    if (!request) return std::move(request).take_error();
    return engine_.perform(*request, in(budget));
  }

  // An action that must succeed with this delivery.
  ActionReply expect_delivery(ActionKind kind, json params, Delivery delivery) {
    auto reply = act(kind, params);
    EXPECT_TRUE(reply.ok()) << params.dump() << ": "
                            << (reply.ok() ? "" : reply.error().message + " " + reply.error().details.dump());
    if (!reply) return {};
    EXPECT_EQ(reply->delivery, delivery) << params.dump() << " → " << action_reply_to_json(*reply).dump();
    return *reply;
  }

  // An action that must be refused with this code and nothing delivered.
  Error expect_refusal(ActionKind kind, json params, ErrorCode code) {
    auto reply = act(kind, params);
    EXPECT_FALSE(reply.ok()) << params.dump() << " was not refused: "
                             << (reply.ok() ? action_reply_to_json(*reply).dump() : "");
    if (reply) return make_error(ErrorCode::kInternal, "not refused");
    const Error& error = reply.error();
    EXPECT_EQ(error.code, code) << error.message << " " << error.details.dump();
    EXPECT_EQ(error.details.value("delivery", ""), "not_delivered") << error.details.dump();
    EXPECT_EQ(error.retry, Retry::kSafe);
    return error;
  }

  TempDir temp_;
  const std::string effect_ = temp_.file("effect");
  Observer observer_;
  ActionEngine engine_{observer_};
  OwnBusView bus_view_;
  std::unique_ptr<FixtureProcess> fixture_;
};

using Actions = ActionDesktop;
using Refusals = ActionDesktop;
using ActionSpeed = ActionDesktop;

TEST_F(Actions, SetValueThenClickWritesExactlyTheText) {
  const auto snapshot = start("act-clean");
  ASSERT_NE(snapshot, nullptr);
  const std::string entry = ref(*snapshot, "text", "Text");
  const std::string button = ref(*snapshot, "push button", "Write effect");
  const char* texts[] = {"plain", "cost $5; rm -rf / \"quoted\" 'single'", "Grüße, 東京 — ünïcödé €",
                         "back\\slash `tick` $(x) & | < >", ""};
  for (const char* text : texts) {
    for (const bool strict : {false, true}) {
      g_remove(effect_.c_str());
      const ActionReply set = expect_delivery(
          ActionKind::kSetValue, {{"ref", entry}, {"value", text}, {"strict", strict}},
          Delivery::kDeliveredVerified);
      EXPECT_EQ(set.route, "EditableText.SetTextContents");
      ASSERT_TRUE(set.verification.has_value());
      EXPECT_EQ(set.verification->read, Reading(std::string(text)));
      EXPECT_EQ(set.fingerprint.has_value(), strict);
      const ActionReply click = expect_delivery(ActionKind::kClick, {{"ref", button}, {"strict", strict}},
                                                Delivery::kDeliveredUnverified);
      EXPECT_EQ(click.route, "action:click");
      EXPECT_FALSE(click.verification.has_value());
      ASSERT_TRUE(eventually([&] { return file_exists(effect_); })) << text;
      EXPECT_EQ(read_file(effect_), text);
    }
  }
}

TEST_F(Actions, SelectorsActLikeRefs) {
  const auto snapshot = start("act-selector");
  ASSERT_NE(snapshot, nullptr);
  expect_delivery(ActionKind::kSetValue,
                  {{"app", "act-selector"}, {"role", "text"}, {"name", "Text"}, {"id", "text-entry"},
                   {"value", "by selector"}},
                  Delivery::kDeliveredVerified);
  expect_delivery(ActionKind::kClick,
                  {{"app", "act-selector"}, {"role", "push button"}, {"name", "Write effect"}, {"strict", true}},
                  Delivery::kDeliveredUnverified);
  ASSERT_TRUE(eventually([&] { return file_exists(effect_); }));
  EXPECT_EQ(read_file(effect_), "by selector");
  const Error missing = expect_refusal(
      ActionKind::kClick, {{"app", "act-selector"}, {"role", "push button"}, {"name", "Nope"}},
      ErrorCode::kElementNotFound);
  EXPECT_EQ(missing.details["kind"], "no_match");
  expect_refusal(ActionKind::kClick,
                 {{"app", "act-selector"}, {"role", "push button"}, {"name", "Write effect"},
                  {"id", "other-id"}},
                 ErrorCode::kElementNotFound);
}

TEST_F(Actions, ToggleTheCheckBox) {
  const auto snapshot = start("act-toggle");
  ASSERT_NE(snapshot, nullptr);
  const std::string check = ref(*snapshot, "check box", "Enable feature");
  const ActionReply on = expect_delivery(ActionKind::kToggle, {{"ref", check}}, Delivery::kDeliveredVerified);
  EXPECT_EQ(on.route, "action:click");
  EXPECT_TRUE(eventually([&] { return read_file(effect_ + ".check") == "1"; }));
  expect_delivery(ActionKind::kToggle, {{"ref", check}}, Delivery::kDeliveredVerified);
  EXPECT_TRUE(eventually([&] { return read_file(effect_ + ".check") == "0"; }));
  // A push button has no checked state to toggle.
  const Error refused = expect_refusal(ActionKind::kToggle, {{"ref", ref(*snapshot, "push button", "Write effect")}},
                                       ErrorCode::kActionNotSupported);
  EXPECT_EQ(refused.details["kind"], "no_semantic_route");
  EXPECT_TRUE(stays_absent(effect_));
}

TEST_F(Actions, SelectInTheCombo) {
  const auto snapshot = start("act-select");
  ASSERT_NE(snapshot, nullptr);
  const ActionReply green = expect_delivery(ActionKind::kSelect, {{"ref", ref(*snapshot, "menu item", "Green")}},
                                            Delivery::kDeliveredVerified);
  EXPECT_EQ(green.route, "Selection.SelectChild");
  EXPECT_TRUE(eventually([&] { return read_file(effect_ + ".combo") == "Green"; }));
  expect_delivery(ActionKind::kSelect, {{"app", "act-select"}, {"role", "menu item"}, {"name", "Blue"}},
                  Delivery::kDeliveredVerified);
  EXPECT_TRUE(eventually([&] { return read_file(effect_ + ".combo") == "Blue"; }));
}

TEST_F(Actions, ExpandAndCollapseTheTreeRow) {
  const auto snapshot = start("act-expand");
  ASSERT_NE(snapshot, nullptr);
  const std::string row = ref(*snapshot, "table cell", "Parent");
  const ActionReply expanded = expect_delivery(ActionKind::kExpand, {{"ref", row}}, Delivery::kDeliveredVerified);
  EXPECT_EQ(expanded.route, "action:expand or contract");
  EXPECT_TRUE(eventually([&] { return read_file(effect_ + ".tree") == "1"; }));
  // Already expanded: a toggling action must not be sent again.
  const ActionReply again = expect_delivery(ActionKind::kExpand, {{"ref", row}}, Delivery::kNotDelivered);
  EXPECT_TRUE(again.already);
  EXPECT_EQ(read_file(effect_ + ".tree"), "1");
  expect_delivery(ActionKind::kCollapse, {{"ref", row}}, Delivery::kDeliveredVerified);
  EXPECT_TRUE(eventually([&] { return read_file(effect_ + ".tree") == "0"; }));
  // The named action reaches the same row; nothing reads it back.
  expect_delivery(ActionKind::kNamed, {{"ref", row}, {"action", "expand or contract"}},
                  Delivery::kDeliveredUnverified);
  EXPECT_TRUE(eventually([&] { return read_file(effect_ + ".tree") == "1"; }));
  const Error unknown = expect_refusal(ActionKind::kNamed, {{"ref", row}, {"action", "explode"}},
                                       ErrorCode::kActionNotSupported);
  EXPECT_EQ(unknown.details["available_actions"], json({"expand or contract", "edit", "activate"}));
}

TEST_F(Actions, SetValueOnTheSpinButton) {
  const auto snapshot = start("act-spin");
  ASSERT_NE(snapshot, nullptr);
  const std::string level = ref(*snapshot, "spin button", "Level");
  const ActionReply set = expect_delivery(ActionKind::kSetValue, {{"ref", level}, {"value", "42"}},
                                          Delivery::kDeliveredVerified);
  EXPECT_EQ(set.route, "Value.CurrentValue");
  EXPECT_TRUE(eventually([&] { return read_file(effect_ + ".value") == "42"; }));
  g_remove((effect_ + ".value").c_str());
  expect_refusal(ActionKind::kSetValue, {{"ref", level}, {"value", "forty"}}, ErrorCode::kInvalidArgs);
  const Error range = expect_refusal(ActionKind::kSetValue, {{"ref", level}, {"value", "500"}},
                                     ErrorCode::kInvalidArgs);
  EXPECT_EQ(range.details["reason"], "out_of_range");
  EXPECT_TRUE(stays_absent(effect_ + ".value"));
}

TEST_F(Actions, TypeInsertsAtTheCaret) {
  const auto snapshot = start("act-type");
  ASSERT_NE(snapshot, nullptr);
  const std::string entry = ref(*snapshot, "text", "Text");
  expect_delivery(ActionKind::kSetValue, {{"ref", entry}, {"value", "base"}}, Delivery::kDeliveredVerified);
  const ActionReply typed = expect_delivery(ActionKind::kType, {{"ref", entry}, {"text", "ü$;"}},
                                            Delivery::kDeliveredVerified);
  EXPECT_EQ(typed.route, "EditableText.InsertText");
  ASSERT_TRUE(typed.verification.has_value());
  const std::string shown = std::get<std::string>(typed.verification->read);
  EXPECT_EQ(shown.size(), std::string("baseü$;").size());
  EXPECT_NE(shown.find("ü$;"), std::string::npos);
  expect_delivery(ActionKind::kClick, {{"ref", ref(*snapshot, "push button", "Write effect")}},
                  Delivery::kDeliveredUnverified);
  ASSERT_TRUE(eventually([&] { return file_exists(effect_); }));
  EXPECT_EQ(read_file(effect_), shown);
}

TEST_F(Actions, PasswordNeedsSecretAndIsNeverShown) {
  const auto snapshot = start("act-password");
  ASSERT_NE(snapshot, nullptr);
  const std::string password = ref(*snapshot, "password text", "Password");
  const std::string secret = "hunter2-ö";
  const Error denied = expect_refusal(ActionKind::kSetValue, {{"ref", password}, {"value", secret}},
                                      ErrorCode::kPolicyDenied);
  EXPECT_EQ(denied.details["reason"], "secret_required");
  expect_refusal(ActionKind::kType, {{"ref", password}, {"text", secret}}, ErrorCode::kPolicyDenied);

  const ActionReply set = expect_delivery(
      ActionKind::kSetValue, {{"ref", password}, {"value", secret}, {"secret", true}},
      Delivery::kDeliveredVerified);
  ASSERT_TRUE(set.verification.has_value());
  EXPECT_EQ(set.verification->check, "characters");
  EXPECT_EQ(set.verification->read, Reading(std::int64_t{9}));
  const ActionReply typed = expect_delivery(
      ActionKind::kType, {{"ref", password}, {"text", "xy"}, {"secret", true}}, Delivery::kDeliveredVerified);
  EXPECT_EQ(typed.verification->read, Reading(std::int64_t{11}));
  for (const ActionReply* reply : {&set, &typed}) {
    const std::string shown = action_reply_to_json(*reply).dump();
    EXPECT_EQ(shown.find("hunter2"), std::string::npos) << shown;
  }
  // secret also keeps an ordinary entry's text out of the reply.
  const ActionReply hidden = expect_delivery(
      ActionKind::kSetValue, {{"ref", ref(*snapshot, "text", "Text")}, {"value", "hunter2"}, {"secret", true}},
      Delivery::kDeliveredVerified);
  EXPECT_EQ(action_reply_to_json(hidden).dump().find("hunter2"), std::string::npos);
}

TEST_F(Actions, FocusAndUnsupportedRoutes) {
  const auto snapshot = start("act-focus");
  ASSERT_NE(snapshot, nullptr);
  const ActionReply focused = expect_delivery(
      ActionKind::kFocus, {{"ref", ref(*snapshot, "check box", "Enable feature")}}, Delivery::kDeliveredVerified);
  EXPECT_EQ(focused.route, "Component.GrabFocus");
  // A label lists no action: nothing is sent, and no physical click stands in.
  const Error label = expect_refusal(ActionKind::kClick, {{"ref", ref(*snapshot, "label", "Text")}},
                                     ErrorCode::kActionNotSupported);
  EXPECT_EQ(label.details["target"]["role"], "label");
  expect_refusal(ActionKind::kSetValue, {{"ref", ref(*snapshot, "push button", "Write effect")}, {"value", "x"}},
                 ErrorCode::kActionNotSupported);
  expect_refusal(ActionKind::kType, {{"ref", ref(*snapshot, "check box", "Enable feature")}, {"text", "x"}},
                 ErrorCode::kActionNotSupported);
  EXPECT_TRUE(stays_absent(effect_));
}

TEST_F(Actions, ClickExpectationsDecideVerification) {
  const auto snapshot = start("act-expect");
  ASSERT_NE(snapshot, nullptr);
  const std::string check = ref(*snapshot, "check box", "Enable feature");
  const ActionReply met = expect_delivery(
      ActionKind::kClick, {{"ref", check}, {"expect", {{"state", "checked"}, {"ref", check}}}},
      Delivery::kDeliveredVerified);
  ASSERT_TRUE(met.expectation_result.has_value());
  EXPECT_TRUE(met.expectation_result->met);
  EXPECT_TRUE(eventually([&] { return read_file(effect_ + ".check") == "1"; }));

  // The state held before the click: the click cannot be shown to have caused it.
  const ActionReply held = expect_delivery(
      ActionKind::kClick, {{"ref", check}, {"expect", {{"state", "focusable"}, {"ref", check}}}},
      Delivery::kDeliveredUnverified);
  EXPECT_EQ(held.expectation_result->reason, "held_before_the_action");

  const ActionReply timeout = expect_delivery(
      ActionKind::kClick,
      {{"ref", ref(*snapshot, "push button", "Write effect")},
       {"expect", {{"text", "never shown anywhere"}, {"timeout_ms", 200}}}},
      Delivery::kDeliveredUnverified);
  EXPECT_EQ(timeout.expectation_result->reason, "timeout");
  EXPECT_GE(timeout.expectation_result->waited_ms, 150);

  const ActionReply no_window = expect_delivery(
      ActionKind::kClick,
      {{"ref", ref(*snapshot, "push button", "Write effect")},
       {"expect", {{"window", "No Such Window"}, {"timeout_ms", 200}}}},
      Delivery::kDeliveredUnverified);
  EXPECT_FALSE(no_window.expectation_result->met);
}

// Expectations that are met: a window that opens because of the click (a second fixture
// started once the click's effect file appears), and a text that appears in the window.
TEST_F(Actions, ExpectationsThatAreMetVerify) {
  const auto snapshot = start("act-expect-met");
  ASSERT_NE(snapshot, nullptr);
  const std::string button = ref(*snapshot, "push button", "Write effect");
  std::unique_ptr<FixtureProcess> opened;
  std::thread opener([&] {
    if (eventually([&] { return file_exists(effect_); }, 8s)) {
      opened = std::make_unique<FixtureProcess>(
          std::vector<std::string>{"--class", "act-opened", "--title", "Opened By Click"});
    }
  });
  const ActionReply clicked = expect_delivery(
      ActionKind::kClick, {{"ref", button}, {"expect", {{"window", "Opened By Click"}, {"timeout_ms", 15000}}}},
      Delivery::kDeliveredVerified);
  opener.join();
  ASSERT_TRUE(clicked.expectation_result.has_value());
  EXPECT_EQ(clicked.expectation_result->reason, "met");

  const ActionReply typed = expect_delivery(
      ActionKind::kSetValue,
      {{"ref", ref(*snapshot, "text", "Text")}, {"value", "a fresh line 7"},
       {"expect", {{"text", "fresh line 7"}}}},
      Delivery::kDeliveredVerified);
  EXPECT_TRUE(typed.expectation_result->met);
  EXPECT_TRUE(typed.verification->matched);
}

TEST_F(Refusals, AmbiguousButtonsRefuseByRefAndBySelector) {
  const auto snapshot = start("act-ambiguous", {"--ambiguous"});
  ASSERT_NE(snapshot, nullptr);
  const std::string button = ref(*snapshot, "push button", "Write effect");
  for (const bool strict : {false, true}) {
    const Error error = expect_refusal(ActionKind::kClick, {{"ref", button}, {"strict", strict}},
                                       ErrorCode::kAmbiguousTarget);
    EXPECT_EQ(error.details["kind"], "identity_not_unique");
    EXPECT_EQ(error.details["candidates"].size(), 2u) << error.details.dump();
  }
  const Error by_selector = expect_refusal(
      ActionKind::kClick, {{"app", "act-ambiguous"}, {"role", "push button"}, {"name", "Write effect"}},
      ErrorCode::kAmbiguousTarget);
  EXPECT_EQ(by_selector.details["count"], 2);
  EXPECT_TRUE(stays_absent(effect_));
}

// A twin of the button appears a moment before the click — packed (GTK3's cache never lists
// it) or added (listed late) — and the click must refuse. The test sees the twin through
// its own D-Bus connection (the container's live child count) and acts at once.
class LateTwin : public ActionDesktop {
 protected:
  void run_trials(const std::string& method, int trials) {
    for (int trial = 0; trial < trials; ++trial) {
      SCOPED_TRACE(method + " trial " + std::to_string(trial));
      const std::string control = temp_.file("twin-" + method + std::to_string(trial));
      const std::string app = "act-twin-" + method + std::to_string(trial);
      g_remove(effect_.c_str());
      g_remove((effect_ + ".twin").c_str());
      const auto snapshot = start(app, {"--add-twin", control, "--twin-method", method});
      ASSERT_NE(snapshot, nullptr);
      const Node* button = find_node(*snapshot, "push button", "Write effect");
      ASSERT_NE(button, nullptr);
      const Node& box = snapshot->nodes[static_cast<std::size_t>(button->parent)];
      expect_delivery(ActionKind::kSetValue, {{"ref", ref(*snapshot, "text", "Text")}, {"value", "twin"}},
                      Delivery::kDeliveredVerified);
      const int before = bus_view_.child_count(snapshot->bus_name, box.path);
      ASSERT_GT(before, 0);
      touch(control);
      ASSERT_TRUE(eventually([&] { return bus_view_.child_count(snapshot->bus_name, box.path) == before + 1; }));
      const auto twin_seen = Clock::now();
      const Error error = expect_refusal(ActionKind::kClick, {{"ref", format_ref(snapshot->id, button->ref)}},
                                         ErrorCode::kAmbiguousTarget);
      EXPECT_LT(Clock::now() - twin_seen, 1s);
      EXPECT_EQ(error.details["candidates"].size(), 2u);
      expect_refusal(ActionKind::kClick,
                     {{"app", app}, {"role", "push button"}, {"name", "Write effect"}, {"strict", true}},
                     ErrorCode::kAmbiguousTarget);
      EXPECT_TRUE(stays_absent(effect_));
      EXPECT_FALSE(file_exists(effect_ + ".twin"));
      const int pid = fixture_->pid();
      fixture_->stop();
      EXPECT_TRUE(process_gone(pid));
    }
  }
};

TEST_F(LateTwin, PackedTwinRefuses) { run_trials("pack", 3); }
TEST_F(LateTwin, AddedTwinRefuses) { run_trials("add", 3); }

TEST_F(Refusals, StrictRefusesAMovedButtonAndPlainRefsStillAct) {
  const std::string control = temp_.file("stale");
  const auto snapshot = start("act-stale", {"--stale", control});
  ASSERT_NE(snapshot, nullptr);
  const Node* button = find_node(*snapshot, "push button", "Write effect");
  ASSERT_NE(button, nullptr);
  const std::string button_ref = format_ref(snapshot->id, button->ref);
  const Node& box = snapshot->nodes[static_cast<std::size_t>(button->parent)];
  expect_delivery(ActionKind::kSetValue, {{"ref", ref(*snapshot, "text", "Text")}, {"value", "moved on"}},
                  Delivery::kDeliveredVerified);
  const int before = bus_view_.child_count(snapshot->bus_name, box.path);
  touch(control);
  // A label inserted, a box added, the button moved into it: one child more.
  ASSERT_TRUE(eventually([&] { return bus_view_.child_count(snapshot->bus_name, box.path) == before + 1; }));

  const Error stale = expect_refusal(ActionKind::kClick, {{"ref", button_ref}, {"strict", true}},
                                     ErrorCode::kStaleRef);
  EXPECT_EQ(stale.details["kind"], "fingerprint_changed");
  const auto& changed = stale.details["changed"];
  EXPECT_NE(std::find(changed.begin(), changed.end(), "bounds"), changed.end()) << changed.dump();
  EXPECT_TRUE(stays_absent(effect_));

  // The identity is still unique in the window: a plain ref acts.
  expect_delivery(ActionKind::kClick, {{"ref", button_ref}}, Delivery::kDeliveredUnverified);
  ASSERT_TRUE(eventually([&] { return file_exists(effect_); }));
  EXPECT_EQ(read_file(effect_), "moved on");
}

TEST_F(Refusals, ClosedWindowRefusesWithNothingDelivered) {
  for (int trial = 0; trial < 2; ++trial) {
    const std::string control = temp_.file("close" + std::to_string(trial));
    const auto snapshot = start("act-close" + std::to_string(trial), {"--close-after-control", control});
    ASSERT_NE(snapshot, nullptr);
    const std::string entry = ref(*snapshot, "text", "Text");
    const std::string button = ref(*snapshot, "push button", "Write effect");
    const int pid = fixture_->pid();
    touch(control);
    ASSERT_TRUE(eventually([&] { return process_gone(pid); }, 5s));
    for (const bool strict : {false, true}) {
      for (const auto& [kind, params] :
           {std::pair{ActionKind::kClick, json{{"ref", button}, {"strict", strict}}},
            std::pair{ActionKind::kSetValue, json{{"ref", entry}, {"value", "late"}, {"strict", strict}}}}) {
        auto reply = act(kind, params);
        ASSERT_FALSE(reply.ok()) << params.dump();
        const ErrorCode code = reply.error().code;
        EXPECT_TRUE(code == ErrorCode::kWindowNotFound || code == ErrorCode::kStaleRef)
            << reply.error().message << " " << reply.error().details.dump();
        EXPECT_EQ(reply.error().details.value("delivery", ""), "not_delivered");
        EXPECT_EQ(reply.error().retry, Retry::kSafe);
      }
    }
    EXPECT_TRUE(stays_absent(effect_));
  }
}

TEST_F(Refusals, HungAppRefusesWithinTheDeadline) {
  const auto snapshot = start("act-hung");
  ASSERT_NE(snapshot, nullptr);
  const std::string button = ref(*snapshot, "push button", "Write effect");
  fixture_->pause();
  const auto started = Clock::now();
  auto reply = act(ActionKind::kClick, {{"ref", button}}, 700ms);
  const auto took = Clock::now() - started;
  fixture_->resume();
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error().code, ErrorCode::kAppUnresponsive) << reply.error().message;
  EXPECT_EQ(reply.error().details.value("delivery", ""), "not_delivered");
  EXPECT_LT(took, 2s);
  EXPECT_TRUE(stays_absent(effect_));
  // Resumed, it acts again.
  expect_delivery(ActionKind::kClick, {{"ref", button}}, Delivery::kDeliveredUnverified);
  EXPECT_TRUE(eventually([&] { return file_exists(effect_); }));
}

TEST_F(Refusals, PasswordManagersAreNeverActedOn) {
  // The fixture under a password manager's name: refused before anything is read.
  fixture_ = std::make_unique<FixtureProcess>(
      std::vector<std::string>{"--class", "keepassxc-fixture", "--title", "Vault", "--effect", effect_});
  ASSERT_TRUE(eventually([&] {
    auto apps = observer_.apps(in(2s));
    return apps && std::any_of(apps->begin(), apps->end(),
                               [&](const AppInfo& app) { return app.pid == fixture_->pid(); });
  }, 20s));
  const Error refused = expect_refusal(
      ActionKind::kClick, {{"app", "keepassxc-fixture"}, {"role", "push button"}, {"name", "Write effect"}},
      ErrorCode::kPolicyDenied);
  EXPECT_NE(refused.message.find("password managers"), std::string::npos) << refused.message;
  EXPECT_TRUE(stays_absent(effect_));
}

TEST_F(Refusals, StaleAndMalformedRefs) {
  const auto snapshot = start("act-refs");
  ASSERT_NE(snapshot, nullptr);
  const Error unknown = expect_refusal(ActionKind::kClick, {{"ref", "@zzzz:e1"}}, ErrorCode::kStaleRef);
  EXPECT_EQ(unknown.details["kind"], "snapshot_unknown");
  const Error outside = expect_refusal(
      ActionKind::kClick, {{"ref", format_ref(snapshot->id, static_cast<int>(snapshot->nodes.size()) + 5)}},
      ErrorCode::kStaleRef);
  EXPECT_EQ(outside.details["kind"], "element_unknown");
  const Error no_window = expect_refusal(
      ActionKind::kClick,
      {{"app", "act-refs"}, {"role", "push button"}, {"name", "Write effect"}, {"title", "Other"}},
      ErrorCode::kWindowNotFound);
  EXPECT_EQ(no_window.details["title"], "Other");
  EXPECT_TRUE(stays_absent(effect_));
}

// Median engine time of set-value with read-back and of click, on the 300-node fixture
// (--rows 100), with a daemon-like warm Observer. Recorded, and bounded loosely: the
// issue's target (<= 25 ms for the whole CLI process) is measured by the benchmark.
TEST_F(ActionSpeed, SetValueAndClickOnThe300NodeFixture) {
  const auto snapshot = start("act-speed", {"--rows", "100"});
  ASSERT_NE(snapshot, nullptr);
  EXPECT_GE(snapshot->nodes.size(), 300u);
  const std::string entry = ref(*snapshot, "text", "Text");
  const std::string button = ref(*snapshot, "push button", "Write effect");
  auto median = [](std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
  };
  std::vector<double> set_ms;
  std::vector<double> strict_ms;
  std::vector<double> click_ms;
  std::vector<double> resolve_ms;
  std::vector<double> preflight_ms;
  std::vector<double> deliver_ms;
  std::vector<double> verify_ms;
  for (int i = 0; i < 25; ++i) {
    const std::string text = "speed " + std::to_string(i);
    auto start_set = Clock::now();
    const ActionReply set = expect_delivery(ActionKind::kSetValue, {{"ref", entry}, {"value", text}},
                                            Delivery::kDeliveredVerified);
    set_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start_set).count());
    resolve_ms.push_back(set.timings.resolve_ms);
    preflight_ms.push_back(set.timings.preflight_ms);
    deliver_ms.push_back(set.timings.deliver_ms);
    verify_ms.push_back(set.timings.verify_ms);
    auto start_strict = Clock::now();
    expect_delivery(ActionKind::kSetValue, {{"ref", entry}, {"value", text}, {"strict", true}},
                    Delivery::kDeliveredVerified);
    strict_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start_strict).count());
    g_remove(effect_.c_str());
    auto start_click = Clock::now();
    expect_delivery(ActionKind::kClick, {{"ref", button}}, Delivery::kDeliveredUnverified);
    click_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start_click).count());
    ASSERT_TRUE(eventually([&] { return read_file(effect_) == text; }));
  }
  std::printf(
      "nodes=%zu set-value median %.1f ms (resolve %.1f, preflight %.1f, deliver %.1f, read-back "
      "%.1f), strict set-value %.1f ms, click %.1f ms\n",
      snapshot->nodes.size(), median(set_ms), median(resolve_ms), median(preflight_ms),
      median(deliver_ms), median(verify_ms), median(strict_ms), median(click_ms));
  RecordProperty("set_value_median_ms", std::to_string(median(set_ms)));
  RecordProperty("strict_set_value_median_ms", std::to_string(median(strict_ms)));
  RecordProperty("click_median_ms", std::to_string(median(click_ms)));
  EXPECT_LT(median(set_ms), 100.0);
  EXPECT_LT(median(click_ms), 100.0);
}

}  // namespace
}  // namespace companyos::a11y
