// A store in memory with a fake clock and helpers that create automations and drive runs,
// shared by the automation, run, ledger and retention tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/clock.h"
#include "store/automation_store.h"
#include "store/database.h"
#include "store/run_store.h"

namespace companyos::store::fixture {

inline std::string definition_with_steps(const std::string& name, const std::string& command) {
  return R"({"name":")" + name + R"(","enabled":true,"schedule":null,"actions":[{"type":"command","argv":[")" +
         command + R"("],"cwd":"/"}]})";
}

inline StepRecord make_step(int seq, std::string phase, std::string type = "command",
                            std::string status = "ok", std::string output = {}) {
  StepRecord step;
  step.seq = seq;
  step.phase = std::move(phase);
  step.type = std::move(type);
  step.status = std::move(status);
  step.output = std::move(output);
  return step;
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = Database::open(":memory:");
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    db_.emplace(std::move(opened).value());
    automations_.emplace(*db_, clock_);
    runs_.emplace(*db_, clock_);
  }

  std::int64_t create(const std::string& name = "routine", int level = 1, int history_limit = 30) {
    auto created = automations_->create({name, definition_with_steps(name, "/bin/true"), true, history_limit});
    EXPECT_TRUE(created.ok()) << created.error().message;
    if (!created.ok()) return 0;
    if (level != 1) {
      EXPECT_TRUE(automations_->set_level(created->id, level).ok());
    }
    return created->id;
  }

  int level_of(std::int64_t id) {
    auto record = automations_->get(id);
    EXPECT_TRUE(record.ok());
    return record.ok() ? record->level : 0;
  }

  // Starts a run by a person, records `checks` check steps (passing unless told) and ends it.
  RunRecord run_once(std::int64_t automation_id, RunEvent event, int checks = 0,
                     int failing_checks = 0) {
    auto run = runs_->start({automation_id, RunStarter::kPerson, std::nullopt});
    EXPECT_TRUE(run.ok()) << run.error().message;
    if (!run.ok()) return {};
    for (int i = 0; i < checks; ++i) {
      StepRecord step = make_step(i, "post", "check");
      step.check_passed = i >= failing_checks;
      EXPECT_TRUE(runs_->record_step(run->id, step).ok());
    }
    auto finished = runs_->finish(run->id, event);
    EXPECT_TRUE(finished.ok()) << finished.error().message;
    return finished.ok() ? finished->run : RunRecord{};
  }

  FakeClock clock_{1'700'000'000};
  std::optional<Database> db_;
  std::optional<AutomationStore> automations_;
  std::optional<RunStore> runs_;
};

}  // namespace companyos::store::fixture
