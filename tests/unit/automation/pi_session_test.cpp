// pi steps against the stand-in pi (tests/fixtures/standin/pi_standin.py), which speaks pi's
// RPC mode and writes every line it reads to a log: what reached pi is judged from that
// file, not from the session's own report.
#include "automation/pi/session.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "temp_dir.h"

namespace companyos::automation::pi {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using std::chrono::milliseconds;

const SystemClock kSystemClock;
const fs::path kStandinDir = fs::path(COMPANYOS_STANDIN_DIR) / "pi";
const fs::path kKeeper = COMPANYOS_STEP_KEEPER;

// The person, scripted: answers each question from another thread (as the daemon's method
// does), or never.
class ScriptedPerson final : public PersonQuestions {
 public:
  explicit ScriptedPerson(std::optional<Answer> reply = std::nullopt) : reply_(std::move(reply)) {}
  ~ScriptedPerson() override {
    for (auto& thread : answering_) thread.join();
  }

  Status ask(const Question& question, std::int64_t deadline, std::function<void()> wake) override {
    std::lock_guard lock(mutex_);
    asked.push_back(question);
    deadlines.push_back(deadline);
    if (on_ask) on_ask();
    if (reply_) {
      // The answer and the wake under one lock, as the runner gives them: the step cannot
      // take the answer, end and close what wake writes to before wake is done.
      answering_.emplace_back([this, wake = std::move(wake)] {
        std::lock_guard answered(mutex_);
        answer_ = reply_;
        wake();
      });
    }
    return ok_status();
  }
  std::optional<Answer> take_answer() override {
    std::lock_guard lock(mutex_);
    return std::exchange(answer_, std::nullopt);
  }
  void withdraw() override {
    std::lock_guard lock(mutex_);
    ++withdrawn;
  }

  std::function<void()> on_ask;
  std::vector<Question> asked;
  std::vector<std::int64_t> deadlines;
  int withdrawn = 0;

 private:
  std::mutex mutex_;
  std::optional<Answer> reply_;
  std::optional<Answer> answer_;
  std::vector<std::thread> answering_;
};

class PiSession : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* path = std::getenv("PATH");
    saved_path_ = path != nullptr ? path : "";
    ::setenv("PATH", (kStandinDir.string() + ":" + saved_path_).c_str(), 1);
    ::setenv("PI_STANDIN_LOG", log_file().c_str(), 1);
  }
  void TearDown() override {
    ::setenv("PATH", saved_path_.c_str(), 1);
    ::unsetenv("PI_STANDIN_LOG");
  }

  std::string log_file() const { return dir_.file("pi.log"); }

  SessionSpec spec(std::string prompt, milliseconds timeout = milliseconds(20'000)) const {
    SessionSpec spec;
    spec.prompt = std::move(prompt);
    spec.cwd = dir_.path().string();
    spec.timeout = timeout;
    return spec;
  }

  // The lines the stand-in read, in order.
  std::vector<json> received() const {
    std::vector<json> lines;
    std::ifstream in(log_file());
    for (std::string line; std::getline(in, line);) {
      const json entry = json::parse(line);
      if (entry.contains("received")) lines.push_back(entry["received"]);
    }
    return lines;
  }

  std::vector<json> received_of_type(const std::string& type) const {
    std::vector<json> lines;
    for (const json& line : received()) {
      if (line.value("type", "") == type) lines.push_back(line);
    }
    return lines;
  }

  companyos::testing::TempDir dir_;
  std::string saved_path_;
};

TEST_F(PiSession, StartsPiInRpcModeInTheCwdAndKeepsItsFinalAnswer) {
  auto result = run_session(spec("say the build is green"), kSystemClock, {}, nullptr);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->end, SessionEnd::kAnswered) << result->describe();
  EXPECT_EQ(result->result, "the build is green");
  EXPECT_EQ(result->describe(), "pi answered");
  EXPECT_EQ(result->exit_status, 0) << "pi exits when its stdin closes";

  std::ifstream in(log_file());
  std::string first;
  ASSERT_TRUE(std::getline(in, first));
  const json started = json::parse(first);
  EXPECT_EQ(started["argv"], (json{"--mode", "rpc", "--no-session"}));
  EXPECT_EQ(started["cwd"], dir_.path().string());
  const auto prompts = received_of_type("prompt");
  ASSERT_EQ(prompts.size(), 1u);
  EXPECT_EQ(prompts[0]["message"], "say the build is green");
}

struct QuestionCase {
  const char* kind;
  Answer answer;
  const char* sent;  // the response's fields after type and id, as the stand-in got them
};

TEST_F(PiSession, RelaysEachKindOfQuestionAndItsAnswer) {
  const QuestionCase cases[] = {
      {"select", Answer{.value = "Beta"}, R"({"value":"Beta"})"},
      {"confirm", Answer{.confirmed = true}, R"({"confirmed":true})"},
      {"confirm", Answer{.confirmed = false}, R"({"confirmed":false})"},
      {"input", Answer{.value = "main"}, R"({"value":"main"})"},
      {"editor", Answer{.value = "line one\nline two"}, R"({"value":"line one\nline two"})"},
      {"select", Answer{.cancelled = true}, R"({"cancelled":true})"},
  };
  for (const QuestionCase& c : cases) {
    SCOPED_TRACE(std::string(c.kind) + " " + c.sent);
    fs::remove(log_file());
    ScriptedPerson person(c.answer);
    auto result = run_session(spec(std::string("ask ") + c.kind + " Which one?"), kSystemClock, {}, &person);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->end, SessionEnd::kAnswered) << result->describe();
    ASSERT_EQ(person.asked.size(), 1u);
    EXPECT_EQ(to_string(person.asked[0].kind), c.kind);
    EXPECT_EQ(person.asked[0].title, "Which one?");
    if (std::string(c.kind) == "select") {
      EXPECT_EQ(person.asked[0].options, (std::vector<std::string>{"Alpha", "Beta", "Gamma"}));
    }
    EXPECT_EQ(person.withdrawn, 0);
    EXPECT_EQ(result->questions, 1);
    EXPECT_EQ(result->answers, 1);
    const auto responses = received_of_type("extension_ui_response");
    ASSERT_EQ(responses.size(), 1u);
    json expected = json::parse(c.sent);
    expected["type"] = "extension_ui_response";
    expected["id"] = std::string("q-") + c.kind;
    EXPECT_EQ(responses[0], expected);
    const std::string said = "answered: ";
    ASSERT_EQ(result->result.rfind(said, 0), 0u) << result->result;
    EXPECT_EQ(json::parse(result->result.substr(said.size())), json::parse(c.sent))
        << "pi's final answer is what the step keeps";
  }
}

TEST_F(PiSession, WithNobodyToAskAQuestionIsCancelled) {
  auto result = run_session(spec("ask confirm Deploy?"), kSystemClock, {}, nullptr);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->end, SessionEnd::kAnswered);
  const auto responses = received_of_type("extension_ui_response");
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].value("cancelled", false), true);
}

TEST_F(PiSession, AQuestionUnansweredByTheStepsTimeoutFailsTheStep) {
  ScriptedPerson nobody;
  auto result = run_session(spec("ask confirm Deploy?", milliseconds(1500)), kSystemClock, {}, &nobody);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->end, SessionEnd::kTimedOut);
  EXPECT_EQ(nobody.asked.size(), 1u);
  EXPECT_EQ(nobody.withdrawn, 1) << "the person is no longer asked";
  EXPECT_EQ(received_of_type("abort").size(), 1u) << "pi was asked to abort";
  EXPECT_TRUE(received_of_type("extension_ui_response").empty());
  EXPECT_NE(result->describe().find("timed out"), std::string::npos) << result->describe();
  EXPECT_NE(result->describe().find("1 question, 0 answered"), std::string::npos) << result->describe();
}

TEST_F(PiSession, AQuestionPiStopsWaitingForIsWithdrawn) {
  ScriptedPerson nobody;
  auto result = run_session(spec("ask-timeout 300"), kSystemClock, {}, &nobody);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->end, SessionEnd::kAnswered) << result->describe();
  EXPECT_EQ(result->result, "default after timeout");
  ASSERT_EQ(nobody.asked.size(), 1u);
  ASSERT_TRUE(nobody.asked[0].timeout);
  EXPECT_EQ(*nobody.asked[0].timeout, milliseconds(300));
  EXPECT_EQ(nobody.withdrawn, 1);
}

TEST_F(PiSession, ACrashMidAnswerFailsWithWhatPiWroteToStderr) {
  auto result = run_session(spec("crash"), kSystemClock, {}, nullptr);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->end, SessionEnd::kExited);
  EXPECT_EQ(result->exit_status, 3);
  EXPECT_NE(result->stderr_text.find("crashing as asked"), std::string::npos);
  EXPECT_EQ(result->describe(), "pi exited with status 3 before it answered");
}

TEST_F(PiSession, AtTheTimeoutPiIsAskedToAbortThenEnded) {
  auto result = run_session(spec("hang", milliseconds(800)), kSystemClock, {}, nullptr);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->end, SessionEnd::kTimedOut);
  EXPECT_EQ(received_of_type("abort").size(), 1u);
  EXPECT_EQ(result->exit_status, 0) << "it ended its answer and exited on its own";
}

TEST_F(PiSession, APiThatIgnoresAbortAndSigtermIsKilled) {
  SessionSpec stubborn = spec("stubborn", milliseconds(500));
  stubborn.abort_grace = milliseconds(200);
  stubborn.kill_grace = milliseconds(200);
  auto result = run_session(stubborn, kSystemClock, {}, nullptr);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->end, SessionEnd::kTimedOut);
  EXPECT_EQ(result->signal, SIGKILL);
}

TEST_F(PiSession, AStopWhileThePersonIsAskedAbortsPiAndEndsIt) {
  std::stop_source stop;
  ScriptedPerson nobody;
  nobody.on_ask = [&] { stop.request_stop(); };
  auto result = run_session(spec("ask confirm Deploy?"), kSystemClock, stop.get_token(), &nobody);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->end, SessionEnd::kStopped);
  EXPECT_EQ(nobody.asked.size(), 1u);
  EXPECT_EQ(nobody.withdrawn, 1);
  EXPECT_EQ(received_of_type("abort").size(), 1u);
}

TEST_F(PiSession, PiFailuresAreFailures) {
  auto failed = run_session(spec("fail"), kSystemClock, {}, nullptr);
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->end, SessionEnd::kFailed);
  EXPECT_EQ(failed->describe(), "pi did not answer: no model is configured");
  auto refused = run_session(spec("refuse"), kSystemClock, {}, nullptr);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->end, SessionEnd::kFailed);
  EXPECT_EQ(refused->describe(), "pi did not answer: agent is busy");
}

TEST_F(PiSession, TheAnswerIsCappedAndStrayLinesAreIgnored) {
  SessionSpec big = spec("big 100000");
  big.output_cap = 1000;
  auto capped = run_session(big, kSystemClock, {}, nullptr);
  ASSERT_TRUE(capped);
  EXPECT_EQ(capped->result.size(), 1000u);
  EXPECT_TRUE(capped->result_truncated);
  auto noisy = run_session(spec("noise"), kSystemClock, {}, nullptr);
  ASSERT_TRUE(noisy);
  EXPECT_EQ(noisy->end, SessionEnd::kAnswered);
  EXPECT_EQ(noisy->result, "said after noise");
}

TEST_F(PiSession, WhatPiStartedEndsWithTheStepUnderTheKeeper) {
  StepProcessRecord record(dir_.path() / "steps", kKeeper);
  auto result = run_session(spec("child"), kSystemClock, {}, nullptr, &record, 7);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->end, SessionEnd::kAnswered);
  pid_t child = 0;
  std::ifstream(log_file() + ".child") >> child;
  ASSERT_GT(child, 0);
  std::string state;
  std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
  std::getline(stat, state);
  EXPECT_TRUE(state.empty() || state.find(") Z") != std::string::npos)
      << "the child pi started in a session of its own still runs: " << state;
}

TEST_F(PiSession, NothingStartsWithoutPiOrACwd) {
  ::setenv("PATH", "/nonexistent", 1);
  auto missing = run_session(spec("say hi"), kSystemClock, {}, nullptr);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(missing.error().message, "pi is not on the daemon's PATH");
  EXPECT_FALSE(find_pi());
  ::setenv("PATH", (kStandinDir.string() + ":" + saved_path_).c_str(), 1);
  SessionSpec nowhere = spec("say hi");
  nowhere.cwd = dir_.file("missing");
  auto no_cwd = run_session(nowhere, kSystemClock, {}, nullptr);
  ASSERT_FALSE(no_cwd);
  EXPECT_EQ(no_cwd.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(fs::exists(log_file())) << "pi was not started";
}

}  // namespace
}  // namespace companyos::automation::pi
