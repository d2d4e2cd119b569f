// The runner with the real DesktopStepExecutor against the GTK3 fixture, inside
// scripts/desktop-session. Effects are judged from outside the tool: the fixture writes the
// entry's text to its effect file when "Write effect" is clicked; the entry is read back by
// clicking that button through the action engine directly, never through the runner.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "a11y/action_engine.h"
#include "a11y/observer.h"
#include "a11y/vocabulary.h"
#include "automation/desktop_steps.h"
#include "automation/runner.h"
#include "automation/validation.h"
#include "core/clock.h"
#include "fixture_process.h"
#include "store/automation_store.h"
#include "store/database.h"
#include "store/run_store.h"

namespace companyos::automation {
namespace {

using namespace std::chrono_literals;
using a11y::testing::FixtureProcess;
using a11y::testing::in;
using a11y::testing::wait_for_app;
using nlohmann::json;
using store::RunStatus;

template <typename Condition>
bool eventually(Condition condition, std::chrono::milliseconds timeout = 10s) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(10ms);
  }
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Watches for a file that must never appear.
bool stays_absent(const std::string& path, std::chrono::milliseconds watch = 500ms) {
  return !eventually([&] { return std::filesystem::exists(path); }, watch);
}

class RunnerDesktop : public ::testing::Test {
 protected:
  RunnerDesktop()
      : dir_(make_dir()),
        effect_(dir_ + "/effect"),
        runner_db_(open()),
        db_(open()),
        automations_(db_, clock_),
        runs_(db_, clock_),
        actions_(observer_),
        executor_(observer_, actions_, clock_) {}

  ~RunnerDesktop() override {
    runner_.reset();
    fixture_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  static std::string make_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "companyos-runner-XXXXXX").string();
    return ::mkdtemp(pattern.data());
  }

  store::Database open() {
    auto db = store::Database::open(dir_ + "/companyos.db");
    EXPECT_TRUE(db.ok());
    return std::move(db).value();
  }

  void start_fixture(std::vector<std::string> extra = {}) {
    std::vector<std::string> arguments = {"--class", kApp, "--title", kTitle, "--effect", effect_};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    fixture_ = std::make_unique<FixtureProcess>(arguments);
    ASSERT_TRUE(fixture_->running());
    ASSERT_TRUE(wait_for_app(observer_, fixture_->pid()).has_value()) << "the fixture never appeared";
  }

  Runner& runner() {
    if (!runner_) runner_ = std::make_unique<Runner>(runner_db_, executor_, clock_);
    return *runner_;
  }

  // Vectors, since a braced single json element would be that element, not an array of it.
  std::int64_t create(const std::vector<json>& actions, const std::vector<json>& post, int level) {
    // Names are unique in the store: a test may create several.
    const std::string name = "desktop routine " + std::to_string(++created_);
    const json definition = {{"name", name}, {"actions", actions}, {"postActions", post}};
    store::AutomationFields fields;
    fields.name = name;
    fields.definition = definition.dump();
    auto created = automations_.create(fields);
    EXPECT_TRUE(created.ok());
    if (level != 1) {
      EXPECT_TRUE(automations_.set_level(created->id, level).ok());
    }
    return created->id;
  }

  json set_entry(const std::string& value) const {
    return {{"type", "set_value"}, {"app", kApp}, {"window", kTitle},
            {"target", {{"role", "text"}, {"name", "Text"}, {"id", "text-entry"}}}, {"value", value},
            {"description", "type into Text"}};
  }
  json click_write() const {
    return {{"type", "click"}, {"app", kApp}, {"window", kTitle},
            {"target", {{"role", "push button"}, {"name", "Write effect"}}}, {"description", "write the effect"}};
  }
  json entry_wait(const std::string& value, int timeout_seconds = 20) const {
    return {{"type", "wait"}, {"wait", "element"}, {"app", kApp}, {"window", kTitle},
            {"target", {{"role", "text"}, {"name", "Text"}, {"id", "text-entry"}}}, {"predicate", "value"},
            {"value", value}, {"timeoutSeconds", timeout_seconds}};
  }
  json effect_check(const std::string& expected) const {
    return {{"type", "check"}, {"check", "file"}, {"path", effect_}, {"equals", expected}, {"timeoutSeconds", 5}};
  }

  store::RunDetail finished(std::int64_t run_id) {
    runner().wait_idle();
    auto detail = runs_.detail(run_id);
    EXPECT_TRUE(detail.ok());
    return detail.ok() ? *detail : store::RunDetail{};
  }

  bool waiting(std::int64_t run_id) {
    return eventually([&] {
      for (const auto& active : runner().active()) {
        if (active.run_id == run_id && active.status == RunStatus::kWaiting) return true;
      }
      return false;
    });
  }

  // Through the action engine, not the runner: the entry's text reaches the effect file.
  void engine_set_entry(const std::string& value) {
    a11y::ActionRequest request;
    request.kind = a11y::ActionKind::kSetValue;
    request.target = a11y::Selector{kApp, static_cast<std::uint32_t>(a11y::role_from_name("text")), "Text",
                                    std::string("text-entry"), std::nullopt, std::string(kTitle)};
    request.argument = value;
    ASSERT_TRUE(actions_.perform(request, in(10s)).ok());
  }
  std::optional<std::string> entry_text_via_effect() {
    std::filesystem::remove(effect_);
    a11y::ActionRequest request;
    request.kind = a11y::ActionKind::kClick;
    request.target = a11y::Selector{kApp, static_cast<std::uint32_t>(a11y::role_from_name("push button")),
                                    "Write effect", std::nullopt, std::nullopt, std::string(kTitle)};
    if (!actions_.perform(request, in(10s)).ok()) return std::nullopt;
    if (!eventually([&] { return std::filesystem::exists(effect_); }, 5s)) return std::nullopt;
    return read_file(effect_);
  }

  static constexpr const char* kApp = "runner-fixture";
  static constexpr const char* kTitle = "Runner fixture";

  std::string dir_;
  std::string effect_;
  SystemClock clock_;
  store::Database runner_db_;
  store::Database db_;
  store::AutomationStore automations_;
  store::RunStore runs_;
  a11y::Observer observer_;
  a11y::ActionEngine actions_;
  DesktopStepExecutor executor_;
  std::unique_ptr<FixtureProcess> fixture_;
  std::unique_ptr<Runner> runner_;
  int created_ = 0;
};

TEST_F(RunnerDesktop, SetEntryClickAndFileCheckSucceed) {
  start_fixture();
  const auto id = create({set_entry("hello from companyOS"), click_write()}, {effect_check("hello from companyOS")}, 3);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok()) << run.error().message;
  const auto detail = finished(run->id);

  EXPECT_EQ(detail.run.status, RunStatus::kSucceeded) << detail.run.reason.value_or("");
  EXPECT_EQ(read_file(effect_), "hello from companyOS") << "the fixture itself wrote the effect";
  ASSERT_EQ(detail.steps.size(), 3U);
  EXPECT_EQ(detail.steps[0].delivery, "delivered_verified") << "set_value reads the text back";
  ASSERT_EQ(detail.checks.size(), 1U);
  EXPECT_TRUE(detail.checks[0].passed);
}

TEST_F(RunnerDesktop, AFileCheckThatDoesNotHoldFailsTheRun) {
  start_fixture();
  const auto id = create({set_entry("actual"), click_write()}, {effect_check("something else")}, 3);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok());
  const auto detail = finished(run->id);
  EXPECT_EQ(detail.run.status, RunStatus::kFailed);
  EXPECT_EQ(read_file(effect_), "actual");
  ASSERT_EQ(detail.checks.size(), 1U);
  EXPECT_FALSE(detail.checks[0].passed);
}

// Opening and closing the store's database (or its WAL) in the daemon's process drops
// SQLite's locks on it, and an outside client may then delete the WAL with confirmed writes.
TEST_F(RunnerDesktop, AFileCheckNeverOpensTheStoresOwnFiles) {
  DesktopStepOptions options;
  options.store_path = dir_ + "/companyos.db";
  DesktopStepExecutor guarded(observer_, actions_, clock_, options);
  ASSERT_TRUE(runner_db_.exec("CREATE TABLE IF NOT EXISTS t (x); INSERT INTO t VALUES (1)").ok());
  for (const std::string& path : {options.store_path, options.store_path + "-wal", dir_ + "/./companyos.db"}) {
    const json definition = {{"name", "store check"},
                             {"actions", json::array({{{"type", "check"}, {"check", "file"}, {"path", path},
                                                       {"equals", "x"}, {"timeoutSeconds", 1}}})}};
    auto parsed = validate_definition(definition, ValidationContext{});
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    const StepOutcome outcome = guarded.execute(parsed->actions.front(), StepContext{});
    EXPECT_EQ(outcome.status, StepStatus::kBlocked) << path << ": " << outcome.reason;
    EXPECT_EQ(outcome.error_code, ErrorCode::kPolicyDenied) << path;
    EXPECT_NE(outcome.reason.find("store files"), std::string::npos) << outcome.reason;
  }
  // Any other file is checked as before.
  { std::ofstream(effect_) << "x"; }
  const json other = {{"name", "other check"},
                      {"actions", json::array({effect_check("x")})}};
  auto parsed = validate_definition(other, ValidationContext{});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(guarded.execute(parsed->actions.front(), StepContext{}).status, StepStatus::kPassed);
}

TEST_F(RunnerDesktop, AnAmbiguousTargetBlocksTheRunAndNothingIsClicked) {
  start_fixture({"--ambiguous"});
  const auto id = create({click_write()}, {}, 3);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok());
  const auto detail = finished(run->id);
  EXPECT_EQ(detail.run.status, RunStatus::kBlocked);
  ASSERT_EQ(detail.steps.size(), 1U);
  EXPECT_EQ(detail.steps[0].error_code, "AMBIGUOUS_TARGET");
  EXPECT_EQ(detail.steps[0].delivery, "not_delivered");
  EXPECT_TRUE(stays_absent(effect_));
}

TEST_F(RunnerDesktop, ATwinAddedWhileTheRunWaitsBlocksTheClick) {
  const std::string control = dir_ + "/add-twin";
  start_fixture({"--add-twin", control});
  const auto id = create({click_write()}, {}, 2);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok());
  ASSERT_TRUE(waiting(run->id));

  std::ofstream(control).put('\n');
  ASSERT_TRUE(eventually([&] {
    a11y::FindQuery query;
    query.target.app = kApp;
    query.role = "push button";
    query.name = "Write effect";
    auto found = observer_.find(query, in(5s));
    return found.ok() && found->size() == 2;
  })) << "the twin never appeared";

  ASSERT_TRUE(runner().approve(run->id).ok());
  const auto detail = finished(run->id);
  EXPECT_EQ(detail.run.status, RunStatus::kBlocked);
  EXPECT_EQ(detail.steps.at(0).error_code, "AMBIGUOUS_TARGET");
  EXPECT_TRUE(stays_absent(effect_));
  EXPECT_TRUE(stays_absent(effect_ + ".twin", 100ms));
}

// An element wait runs on a11y's event-driven tracker: the entry changed from outside while
// the run waits lets it go on, and the click that follows writes what the entry then holds.
TEST_F(RunnerDesktop, AnElementWaitSeesAValueSetWhileItWaits) {
  start_fixture();
  engine_set_entry("before");
  std::filesystem::remove(effect_);
  const auto id = create({entry_wait("set from outside"), click_write()}, {}, 3);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_TRUE(eventually([&] { return !runner().active().empty(); }));
  EXPECT_TRUE(stays_absent(effect_)) << "the click ran before the wait held";
  engine_set_entry("set from outside");
  const auto detail = finished(run->id);
  EXPECT_EQ(detail.run.status, RunStatus::kSucceeded) << detail.run.reason.value_or("");
  EXPECT_EQ(read_file(effect_), "set from outside") << "the fixture itself wrote the effect";
  ASSERT_EQ(detail.steps.size(), 2U);
  EXPECT_EQ(detail.steps[0].status, "passed");
  EXPECT_NE(detail.steps[0].reason.value_or("").find("seen after"), std::string::npos)
      << detail.steps[0].reason.value_or("");
}

// Two elements match the wait's selector: no amount of waiting says which is meant.
TEST_F(RunnerDesktop, AnElementWaitThatTwoElementsMatchBlocksTheRun) {
  start_fixture({"--ambiguous"});
  const json wait = {{"type", "wait"}, {"wait", "element"}, {"app", kApp},
                     {"target", {{"role", "push button"}, {"name", "Write effect"}}}, {"timeoutSeconds", 30}};
  const auto id = create({wait, click_write()}, {}, 3);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok());
  const auto detail = finished(run->id);
  EXPECT_EQ(detail.run.status, RunStatus::kBlocked);
  ASSERT_EQ(detail.steps.size(), 1U);
  EXPECT_EQ(detail.steps[0].error_code, "AMBIGUOUS_TARGET");
  EXPECT_LT(detail.steps[0].duration_ms, 20'000) << "blocked at once, not at the wait's timeout";
  EXPECT_TRUE(stays_absent(effect_));
}

TEST_F(RunnerDesktop, ATargetThatIsGoneBlocksTheRun) {
  start_fixture();
  json gone = click_write();
  gone["target"]["name"] = "No such button";
  const auto id = create({gone}, {}, 3);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok());
  const auto detail = finished(run->id);
  EXPECT_EQ(detail.run.status, RunStatus::kBlocked);
  EXPECT_EQ(detail.steps.at(0).error_code, "ELEMENT_NOT_FOUND");
}

TEST_F(RunnerDesktop, Level2WaitsForApprovalBeforeEachEffect) {
  start_fixture();
  engine_set_entry("untouched");
  std::filesystem::remove(effect_);
  const auto id = create({set_entry("approved text"), click_write()}, {effect_check("approved text")}, 2);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok());
  ASSERT_TRUE(waiting(run->id));
  EXPECT_TRUE(stays_absent(effect_));

  ASSERT_TRUE(runner().approve(run->id).ok());
  ASSERT_TRUE(waiting(run->id));  // the click asks too
  EXPECT_TRUE(stays_absent(effect_)) << "nothing clicked before its approval";
  ASSERT_TRUE(runner().approve(run->id).ok());
  const auto detail = finished(run->id);
  EXPECT_EQ(detail.run.status, RunStatus::kSucceeded) << detail.run.reason.value_or("");
  EXPECT_EQ(read_file(effect_), "approved text");
}

TEST_F(RunnerDesktop, DenyAtLevel2LeavesTheEntryAsItWas) {
  start_fixture();
  engine_set_entry("kept");
  const auto id = create({set_entry("never typed")}, {}, 2);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok());
  ASSERT_TRUE(waiting(run->id));
  auto denied = runner().deny(run->id);
  ASSERT_TRUE(denied.ok());
  EXPECT_EQ(denied->status, RunStatus::kBlocked);
  EXPECT_EQ(entry_text_via_effect(), "kept");
}

TEST_F(RunnerDesktop, UndoRestoresTheEntrysPreviousText) {
  start_fixture();
  engine_set_entry("original text");
  const auto id = create({set_entry("changed text"), click_write()}, {effect_check("changed text")}, 3);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok());
  ASSERT_EQ(finished(run->id).run.status, RunStatus::kSucceeded);
  EXPECT_EQ(read_file(effect_), "changed text");

  auto undone = runner().undo(run->id);
  ASSERT_TRUE(undone.ok()) << undone.error().message;
  EXPECT_EQ(undone->run.status, RunStatus::kReverted);
  EXPECT_EQ(undone->undone, (std::vector<int>{1}));
  EXPECT_EQ(undone->not_reversible, (std::vector<int>{2})) << "the click cannot be taken back";
  EXPECT_EQ(entry_text_via_effect(), "original text");
}

TEST_F(RunnerDesktop, Level1DryRunResolvesTargetsAndChangesNothing) {
  start_fixture();
  engine_set_entry("before the dry run");
  std::filesystem::remove(effect_);
  const auto id = create({set_entry("dry"), click_write()}, {effect_check("dry")}, 1);
  auto run = runner().start(id, StartRequest{});
  ASSERT_TRUE(run.ok());
  const auto detail = finished(run->id);
  EXPECT_EQ(detail.run.status, RunStatus::kSucceeded) << detail.run.reason.value_or("");
  for (const auto& step : detail.steps) EXPECT_EQ(step.status, "would_run") << step.seq;
  EXPECT_TRUE(stays_absent(effect_));
  EXPECT_EQ(entry_text_via_effect(), "before the dry run");
}

// Every kind of wait that would run for two minutes ends with the stop; the bound is loose
// (the wait looks every 250 ms), the point is that it is not the wait's own timeout.
TEST_F(RunnerDesktop, StopEndsAWaitStepPromptly) {
  start_fixture();
  const json waits[] = {
      {{"type", "wait"}, {"wait", "text"}, {"app", kApp}, {"text", "never shown"},
       {"timeoutSeconds", 120}},
      {{"type", "wait"}, {"wait", "closed"}, {"app", kApp}, {"title", kTitle},
       {"timeoutSeconds", 120}},
      entry_wait("never typed", 120),
  };
  for (const json& wait : waits) {
    SCOPED_TRACE(wait.dump());
    const auto id = create({wait}, {click_write()}, 3);
    auto run = runner().start(id, StartRequest{});
    ASSERT_TRUE(run.ok());
    ASSERT_TRUE(eventually([&] { return !runner().active().empty(); }));
    const auto asked = std::chrono::steady_clock::now();
    auto stopped = runner().stop(id);
    ASSERT_TRUE(stopped.ok());
    EXPECT_EQ(stopped->status, RunStatus::kStopped);
    EXPECT_LT(std::chrono::steady_clock::now() - asked, 5s);
    EXPECT_TRUE(stays_absent(effect_)) << "no postActions after a stop";
  }
}

}  // namespace
}  // namespace companyos::automation
