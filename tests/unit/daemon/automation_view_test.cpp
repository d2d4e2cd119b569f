#include "daemon/methods/automation_view.h"

#include <gtest/gtest.h>

namespace companyos::daemon::methods {
namespace {

using nlohmann::json;

struct IdCase {
  const char* name;
  json params;
  bool ok;
};

class PositiveIdTest : public ::testing::TestWithParam<IdCase> {};

TEST_P(PositiveIdTest, AcceptsOnlyPositiveIntegers) {
  auto id = positive_id(GetParam().params, "id");
  EXPECT_EQ(id.ok(), GetParam().ok);
  if (!id.ok()) {
    EXPECT_EQ(id.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(id.error().details["param"], "id");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Params, PositiveIdTest,
    ::testing::Values(IdCase{"one", {{"id", 1}}, true}, IdCase{"large", {{"id", 9'000'000'000}}, true},
                      IdCase{"missing", json::object(), false}, IdCase{"zero", {{"id", 0}}, false},
                      IdCase{"negative", {{"id", -3}}, false}, IdCase{"fraction", {{"id", 1.5}}, false},
                      IdCase{"string", {{"id", "1"}}, false}, IdCase{"null", {{"id", nullptr}}, false},
                      IdCase{"boolean", {{"id", true}}, false}),
    [](const ::testing::TestParamInfo<IdCase>& info) { return info.param.name; });

struct FilterCase {
  const char* name;
  json params;
  bool ok;
  std::optional<store::RunStatus> status;
  int page;
  const char* bad_param;
};

class RunFilterTest : public ::testing::TestWithParam<FilterCase> {};

TEST_P(RunFilterTest, ParsesStatusAndPage) {
  const auto& c = GetParam();
  auto filter = run_filter(c.params);
  ASSERT_EQ(filter.ok(), c.ok);
  if (c.ok) {
    EXPECT_EQ(filter->status, c.status);
    EXPECT_EQ(filter->page, c.page);
  } else {
    EXPECT_EQ(filter.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(filter.error().details["param"], c.bad_param);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Params, RunFilterTest,
    ::testing::Values(
        FilterCase{"defaults", {{"id", 1}}, true, std::nullopt, 1, ""},
        FilterCase{"nulls_are_defaults", {{"status", nullptr}, {"page", nullptr}}, true, std::nullopt, 1, ""},
        FilterCase{"every_field", {{"status", "failed"}, {"page", 3}}, true, store::RunStatus::kFailed, 3, ""},
        FilterCase{"waiting", {{"status", "waiting"}}, true, store::RunStatus::kWaiting, 1, ""},
        FilterCase{"reverted", {{"status", "reverted"}}, true, store::RunStatus::kReverted, 1, ""},
        FilterCase{"unknown_status", {{"status", "done"}}, false, std::nullopt, 0, "status"},
        FilterCase{"status_wrong_case", {{"status", "Failed"}}, false, std::nullopt, 0, "status"},
        FilterCase{"status_not_string", {{"status", 3}}, false, std::nullopt, 0, "status"},
        FilterCase{"page_zero", {{"page", 0}}, false, std::nullopt, 0, "page"},
        FilterCase{"page_negative", {{"page", -1}}, false, std::nullopt, 0, "page"},
        FilterCase{"page_fraction", {{"page", 1.5}}, false, std::nullopt, 0, "page"},
        FilterCase{"page_string", {{"page", "2"}}, false, std::nullopt, 0, "page"},
        FilterCase{"page_too_large", {{"page", 5'000'000'000}}, false, std::nullopt, 0, "page"}),
    [](const ::testing::TestParamInfo<FilterCase>& info) { return info.param.name; });

store::AutomationRecord sample_record() {
  store::AutomationRecord record;
  record.id = 4;
  record.name = "nightly";
  record.enabled = false;
  record.level = 3;
  record.revision = 2;
  record.definition = R"({"name":"nightly","enabled":true,"schedule":null,"actions":[]})";
  record.created_at = 10;
  record.updated_at = 20;
  return record;
}

TEST(AutomationJson, ShowsTheWholeAutomationWithTheRecordsEnabledFlag) {
  auto record = sample_record();
  const json out = automation_json(record, std::nullopt);
  EXPECT_EQ(out["id"], 4);
  EXPECT_EQ(out["level"], 3);
  EXPECT_EQ(out["level_name"], "supervised");
  EXPECT_EQ(out["revision"], 2);
  EXPECT_EQ(out["enabled"], false);
  EXPECT_EQ(out["definition"]["enabled"], false) << "disable changed the record, not the text";
  EXPECT_EQ(out["definition"]["name"], "nightly");
  EXPECT_TRUE(out["last_run"].is_null());
  EXPECT_TRUE(out.contains("nextRunAt"));
  EXPECT_TRUE(out["nextRunAt"].is_null());
}

TEST(AutomationJson, LastRunAndNextRun) {
  auto record = sample_record();
  record.last_run = store::LastRun{9, store::RunStatus::kRunning, 100, std::nullopt};
  const json out = automation_json(record, 1'700'031'600);
  EXPECT_EQ(out["last_run"]["id"], 9);
  EXPECT_EQ(out["last_run"]["status"], "running");
  EXPECT_TRUE(out["last_run"]["finished_at"].is_null());
  EXPECT_EQ(out["nextRunAt"], 1'700'031'600);
  const json row = automation_row_json(record, 1'700'031'600);
  EXPECT_EQ(row["last_run_status"], "running");
  EXPECT_EQ(row["nextRunAt"], 1'700'031'600);
  EXPECT_FALSE(row.contains("definition"));
}

TEST(AutomationJson, AStoredTextThatDoesNotParseStillShowsTheRest) {
  auto record = sample_record();
  record.definition = "{not json";
  const json out = automation_json(record, std::nullopt);
  EXPECT_TRUE(out["definition"].is_null());
  EXPECT_EQ(out["name"], "nightly");
}

TEST(RunJson, NullsForWhatARunHasNotReached) {
  store::RunRecord run;
  run.id = 7;
  run.automation_id = 4;
  run.status = store::RunStatus::kWaiting;
  run.starter = store::RunStarter::kSchedule;
  run.waiting_description = "actions[0]: set_value on text \"Text\"";
  const json out = run_json(run);
  EXPECT_EQ(out["status"], "waiting");
  EXPECT_EQ(out["started_by"], "schedule");
  EXPECT_TRUE(out["finished_at"].is_null());
  EXPECT_TRUE(out["reason"].is_null());
  EXPECT_EQ(out["waiting_description"], "actions[0]: set_value on text \"Text\"");
}

TEST(RunJson, DetailCountsChecksAndListsSteps) {
  store::RunDetail detail;
  detail.run.id = 7;
  detail.run.status = store::RunStatus::kFailed;
  store::StepRecord step;
  step.seq = 3;
  step.phase = "post";
  step.type = "check";
  step.status = "failed";
  step.check_passed = false;
  detail.steps.push_back(step);
  detail.checks = {{2, true}, {3, false}, {4, true}};
  const json out = run_detail_json(detail);
  EXPECT_EQ(out["status"], "failed");
  EXPECT_EQ(out["steps"][0]["status"], "failed");
  EXPECT_EQ(out["checks"]["passed"], 2);
  EXPECT_EQ(out["checks"]["failed"], 1);
  ASSERT_EQ(out["steps"].size(), 1U);
  EXPECT_EQ(out["steps"][0]["check_passed"], false);
  EXPECT_TRUE(out["steps"][0]["delivery"].is_null());
}

TEST(GateJson, ListsOnlyTheFailingConditionsInOrder) {
  automation::GateReport report;
  report.conditions = {{1, "level", true, json::object(), "1. raised to level 3: level 3 now"},
                       {4, "supervised_runs", false, json::object(), "4. supervised runs at level 3: 1 of 10 needed"},
                       {5, "recent_runs", false, json::object(), "5. runs in the last 14 days: 1 of 25 needed"}};
  EXPECT_EQ(failing_conditions(report),
            (std::vector<std::string>{"4. supervised runs at level 3: 1 of 10 needed",
                                      "5. runs in the last 14 days: 1 of 25 needed"}));
  const json out = gate_json(sample_record(), report);
  EXPECT_EQ(out["id"], 4);
  EXPECT_EQ(out["revision"], 2);
  EXPECT_EQ(out["conditions"].size(), 3U);
}

}  // namespace
}  // namespace companyos::daemon::methods
