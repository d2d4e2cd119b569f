#include "store/automation_store.h"

#include <gtest/gtest.h>

#include "automation_fixture.h"
#include "store/run_ledger.h"

namespace companyos::store {
namespace {

using fixture::definition_with_steps;

class AutomationStoreTest : public fixture::StoreTest {};

TEST_F(AutomationStoreTest, CreateStartsAtLevelOneRevisionOne) {
  auto created = automations_->create({"backup", definition_with_steps("backup", "/bin/true"), false, 12});
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_GT(created->id, 0);
  EXPECT_EQ(created->name, "backup");
  EXPECT_EQ(created->level, 1);
  EXPECT_EQ(created->revision, 1);
  EXPECT_FALSE(created->enabled);
  EXPECT_EQ(created->history_limit, 12);
  EXPECT_EQ(created->definition, definition_with_steps("backup", "/bin/true"));
  EXPECT_EQ(created->created_at, 1'700'000'000);
  EXPECT_FALSE(created->last_run.has_value());
  auto revisions = automations_->revisions(created->id);
  ASSERT_TRUE(revisions.ok());
  ASSERT_EQ(revisions->size(), 1U);
  EXPECT_EQ((*revisions)[0].revision, 1);
}

struct BadFields {
  const char* label;
  AutomationFields fields;
};

class AutomationStoreRejects : public ::testing::TestWithParam<BadFields> {};

TEST_P(AutomationStoreRejects, BadFieldsWithInvalidArgsAndStoreNothing) {
  auto db = Database::open(":memory:");
  ASSERT_TRUE(db.ok());
  FakeClock clock;
  AutomationStore store(*db, clock);
  auto created = store.create(GetParam().fields);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error().code, ErrorCode::kInvalidArgs);
  EXPECT_EQ(*store.count(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Table, AutomationStoreRejects,
    ::testing::Values(BadFields{"empty name", {"", R"({"actions":[]})", true, 30}},
                      BadFields{"history limit 0", {"a", R"({"actions":[]})", true, 0}},
                      BadFields{"history limit 1001", {"a", R"({"actions":[]})", true, 1001}},
                      BadFields{"not json", {"a", "{actions", true, 30}},
                      BadFields{"json array", {"a", "[1,2]", true, 30}},
                      BadFields{"json string", {"a", R"("text")", true, 30}},
                      BadFields{"empty definition", {"a", "", true, 30}}),
    [](const auto& info) {
      std::string name = info.param.label;
      for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

TEST_F(AutomationStoreTest, NameUniquenessIsAConflictNamingTheName) {
  const std::int64_t first = create("backup");
  const std::int64_t second = create("sync");
  auto duplicate = automations_->create({"backup", definition_with_steps("backup", "/bin/true"), true, 30});
  ASSERT_FALSE(duplicate.ok());
  EXPECT_EQ(duplicate.error().code, ErrorCode::kConflict);
  EXPECT_NE(duplicate.error().message.find("'backup'"), std::string::npos);
  EXPECT_EQ(duplicate.error().details["name"], "backup");
  EXPECT_EQ(duplicate.error().details["id"], first);

  auto rename = automations_->update(second, {"backup", definition_with_steps("sync", "/bin/true"), true, 30});
  ASSERT_FALSE(rename.ok());
  EXPECT_EQ(rename.error().code, ErrorCode::kConflict);
  EXPECT_EQ(automations_->get(second)->name, "sync");
  // Keeping one's own name is no conflict.
  EXPECT_TRUE(automations_->update(first, {"backup", definition_with_steps("backup", "/bin/true"), true, 30}).ok());
}

TEST_F(AutomationStoreTest, AtMostOneThousandAutomations) {
  for (int i = 0; i < kMaxAutomations; ++i) {
    ASSERT_TRUE(automations_->create({"a" + std::to_string(i), "{}", true, 30}).ok()) << i;
  }
  EXPECT_EQ(*automations_->count(), kMaxAutomations);
  auto one_more = automations_->create({"one more", "{}", true, 30});
  ASSERT_FALSE(one_more.ok());
  EXPECT_EQ(one_more.error().code, ErrorCode::kConflict);
  EXPECT_EQ(one_more.error().details["limit"], kMaxAutomations);
  EXPECT_EQ(*automations_->count(), kMaxAutomations);
  ASSERT_TRUE(automations_->remove(automations_->list()->front().id).ok());
  EXPECT_TRUE(automations_->create({"one more", "{}", true, 30}).ok());
}

TEST_F(AutomationStoreTest, SameStepsUpdateInPlaceWithoutANewRevision) {
  const std::int64_t id = create("backup", 4);
  const std::string renamed = R"({"name":"nightly","schedule":"0 2 * * *","actions":[{"type":"command","argv":["/bin/true"],"cwd":"/"}]})";
  clock_.advance(std::chrono::seconds(60));
  auto updated = automations_->update(id, {"nightly", renamed, false, 30});
  ASSERT_TRUE(updated.ok()) << updated.error().message;
  EXPECT_FALSE(updated->new_revision);
  EXPECT_FALSE(updated->demoted);
  EXPECT_EQ(updated->automation.revision, 1);
  EXPECT_EQ(updated->automation.level, 4);
  EXPECT_EQ(updated->automation.name, "nightly");
  EXPECT_FALSE(updated->automation.enabled);
  EXPECT_EQ(updated->automation.definition, renamed);
  EXPECT_EQ(updated->automation.updated_at, 1'700'000'060);
  EXPECT_EQ(automations_->revisions(id)->size(), 1U);
}

struct StepChange {
  int level_before;
  int level_after;
};

class NewStepsRevision : public fixture::StoreTest, public ::testing::WithParamInterface<StepChange> {};

TEST_P(NewStepsRevision, StoresARevisionAndDropsOnlyLevelFourToThree) {
  const std::int64_t id = create("backup", GetParam().level_before);
  auto updated = automations_->update(id, {"backup", definition_with_steps("backup", "/bin/false"), true, 30});
  ASSERT_TRUE(updated.ok()) << updated.error().message;
  EXPECT_TRUE(updated->new_revision);
  EXPECT_EQ(updated->demoted, GetParam().level_before == 4);
  EXPECT_EQ(updated->automation.revision, 2);
  EXPECT_EQ(updated->automation.level, GetParam().level_after);
  auto revisions = automations_->revisions(id);
  ASSERT_TRUE(revisions.ok());
  ASSERT_EQ(revisions->size(), 2U);
  EXPECT_EQ((*revisions)[0].definition, definition_with_steps("backup", "/bin/true"));
  EXPECT_EQ((*revisions)[1].definition, definition_with_steps("backup", "/bin/false"));
  EXPECT_EQ(automations_->revision(id, 1)->definition, definition_with_steps("backup", "/bin/true"));
}

INSTANTIATE_TEST_SUITE_P(Levels, NewStepsRevision,
                         ::testing::Values(StepChange{1, 1}, StepChange{2, 2}, StepChange{3, 3},
                                           StepChange{4, 3}));

TEST_F(AutomationStoreTest, ChangedPreconditionsOrPostActionsAreNewStepsToo) {
  const std::int64_t id = create("backup", 4);
  const std::string with_post = R"({"name":"backup","enabled":true,"schedule":null,"actions":[{"type":"command","argv":["/bin/true"],"cwd":"/"}],"postActions":[{"type":"check","check":"file","path":"/x","contains":"y"}]})";
  auto updated = automations_->update(id, {"backup", with_post, true, 30});
  ASSERT_TRUE(updated.ok());
  EXPECT_TRUE(updated->new_revision);
  EXPECT_EQ(updated->automation.level, 3);
  // Key order is not a change.
  const std::string reordered = R"({"postActions":[{"path":"/x","check":"file","type":"check","contains":"y"}],"actions":[{"cwd":"/","argv":["/bin/true"],"type":"command"}],"name":"backup"})";
  auto same = automations_->update(id, {"backup", reordered, true, 30});
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(same->new_revision);
}

TEST_F(AutomationStoreTest, AFailedUpdateChangesNothing) {
  const std::int64_t id = create("backup", 4);
  create("taken");
  auto updated = automations_->update(id, {"taken", definition_with_steps("backup", "/bin/false"), true, 30});
  ASSERT_FALSE(updated.ok());
  auto record = automations_->get(id);
  EXPECT_EQ(record->level, 4);
  EXPECT_EQ(record->revision, 1);
  EXPECT_EQ(automations_->revisions(id)->size(), 1U);
}

TEST_F(AutomationStoreTest, UnknownIdsAreNotFound) {
  EXPECT_EQ(automations_->get(42).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(automations_->update(42, {"x", "{}", true, 30}).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(automations_->remove(42).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(automations_->set_enabled(42, false).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(automations_->set_level(42, 2).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(automations_->revisions(42).error().code, ErrorCode::kNotFound);
  const std::int64_t id = create();
  EXPECT_EQ(automations_->revision(id, 2).error().code, ErrorCode::kNotFound);
}

TEST_F(AutomationStoreTest, LevelsOneToFourOnlyAndFiveIsNotBuilt) {
  const std::int64_t id = create();
  for (int level : {1, 2, 3, 4}) {
    auto set = automations_->set_level(id, level);
    ASSERT_TRUE(set.ok()) << level;
    EXPECT_EQ(set->level, level);
  }
  for (int level : {0, -1, 5, 6}) {
    auto set = automations_->set_level(id, level);
    ASSERT_FALSE(set.ok()) << level;
    EXPECT_EQ(set.error().code, ErrorCode::kInvalidArgs);
  }
  EXPECT_NE(automations_->set_level(id, 5).error().message.find("not built"), std::string::npos);
  EXPECT_EQ(level_of(id), 4);
}

TEST_F(AutomationStoreTest, EnableDisableAndDisableAll) {
  const std::int64_t a = create("a");
  const std::int64_t b = create("b");
  EXPECT_FALSE(automations_->set_enabled(a, false)->enabled);
  EXPECT_TRUE(automations_->set_enabled(a, true)->enabled);
  EXPECT_EQ(*automations_->disable_all(), 2);
  EXPECT_FALSE(automations_->get(a)->enabled);
  EXPECT_FALSE(automations_->get(b)->enabled);
  EXPECT_EQ(*automations_->disable_all(), 0);
}

TEST_F(AutomationStoreTest, ListShowsEachOnesLastRun) {
  const std::int64_t a = create("a", 3);
  const std::int64_t b = create("b", 3);
  run_once(a, RunEvent::kSucceed);
  clock_.advance(std::chrono::seconds(10));
  const RunRecord last = run_once(a, RunEvent::kFail);
  auto list = automations_->list();
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 2U);
  EXPECT_EQ((*list)[0].id, a);
  ASSERT_TRUE((*list)[0].last_run.has_value());
  EXPECT_EQ((*list)[0].last_run->id, last.id);
  EXPECT_EQ((*list)[0].last_run->status, RunStatus::kFailed);
  EXPECT_EQ((*list)[0].last_run->finished_at, 1'700'000'010);
  EXPECT_EQ((*list)[1].id, b);
  EXPECT_FALSE((*list)[1].last_run.has_value());
}

TEST_F(AutomationStoreTest, RemoveDeletesRevisionsRunsAndLedger) {
  const std::int64_t id = create("a", 3);
  run_once(id, RunEvent::kSucceed);
  ASSERT_TRUE(automations_->remove(id).ok());
  for (const char* table : {"revisions", "runs", "run_ledger"}) {
    auto stmt = db_->prepare(std::string("SELECT count(*) FROM ") + table);
    ASSERT_TRUE(stmt.ok());
    ASSERT_TRUE(*stmt->step());
    EXPECT_EQ(stmt->column_int64(0), 0) << table;
  }
}

TEST_F(AutomationStoreTest, RemoveIsRefusedWhileARunIsActive) {
  const std::int64_t id = create("a", 3);
  auto run = runs_->start({id, RunStarter::kPerson, std::nullopt});
  ASSERT_TRUE(run.ok());
  auto removed = automations_->remove(id);
  ASSERT_FALSE(removed.ok());
  EXPECT_EQ(removed.error().code, ErrorCode::kConflict);
  EXPECT_EQ(removed.error().details["run_id"], run->id);
  ASSERT_TRUE(runs_->finish(run->id, RunEvent::kStop).ok());
  EXPECT_TRUE(automations_->remove(id).ok());
}

TEST_F(AutomationStoreTest, LoweringTheHistoryLimitPrunesAtOnce) {
  const std::int64_t id = create("a", 3, 10);
  for (int i = 0; i < 8; ++i) run_once(id, RunEvent::kSucceed);
  auto same = automations_->update(id, {"a", definition_with_steps("a", "/bin/true"), true, 20});
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->pruned_runs, 0);
  auto lowered = automations_->update(id, {"a", definition_with_steps("a", "/bin/true"), true, 3});
  ASSERT_TRUE(lowered.ok());
  EXPECT_EQ(lowered->pruned_runs, 5);
  EXPECT_EQ(runs_->list(id, {})->total, 3);
  EXPECT_EQ(RunLedger(*db_).rows(id)->size(), 8U);
}

}  // namespace
}  // namespace companyos::store
