// What the runner keeps of one active run, shared by the files that start, execute, decide
// and undo runs. Internal to the automation module.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>

#include "automation/definition.h"
#include "automation/question.h"
#include "automation/runner.h"
#include "companyos/result.h"
#include "store/run_store.h"
#include "store/settings.h"

namespace companyos::automation {

// The settings a run reads when it starts.
struct RunSettings {
  bool automations_enabled = true;
  bool unattended = false;
  int max_level = 3;
  bool physical_input = false;
  std::string agent_desktop_path;
};

Result<RunSettings> read_settings(const store::Settings& settings);
// The revision's stored text as a Definition; INTERNAL when it no longer parses or validates.
Result<Definition> parse_definition(const std::string& text);

// How a wait for a person ended.
enum class Decision { kNone, kApproved, kDenied, kExpired, kReplaced, kStopped };

struct Runner::ActiveRun {
  store::RunRecord started;  // the record as start() returned it
  std::string automation_name;
  Definition definition;
  RunSettings settings;
  std::optional<std::int64_t> next_trigger_at;  // retries never reach it
  std::stop_source stop;
  std::string stop_reason;  // set with stop.request_stop(), under mutex_

  // Under Runner::mutex_: the status the store holds, moved only by advance().
  store::RunStatus status = store::RunStatus::kRunning;
  Decision decision = Decision::kNone;
  std::optional<std::string> waiting_description;
  std::optional<std::string> waiting_step;
  std::optional<std::int64_t> waiting_since;
  std::optional<std::int64_t> approval_deadline;
  std::optional<std::int64_t> retry_at;  // a failed action's next attempt, Unix seconds
  // A step's question while the person is asked it (a pi step's), the answer given and not
  // yet taken by the step, and how to tell the step one came.
  std::optional<Question> question;
  std::optional<Answer> answer;
  std::function<void()> wake_step;
  // The store's answer to the latest approval, and how many have been answered: a person
  // who approved waits for the count to move, not for the answer to be there, since the
  // run may already be waiting on its next step by the time that person wakes.
  std::optional<Result<store::RunRecord>> approval;
  std::uint64_t approvals_answered = 0;
  bool ended = false;
  std::optional<Result<store::RunRecord>> final_record;
  // The step record the store refused (on the run's thread only): written with the run's end.
  std::optional<store::StepRecord> unrecorded_step;

  std::thread thread;
};

template <typename F>
auto Runner::with_store(F&& body) const {
  std::lock_guard lock(store_mutex_);
  return body();
}

}  // namespace companyos::automation
