// A question a step puts to the person while it runs (a pi step's select, confirm, input or
// editor dialog), and the person's answer. The run waits for the answer as it waits for an
// approval; the step decides how long.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"

namespace companyos::automation {

enum class QuestionKind { kSelect, kConfirm, kInput, kEditor };
// "select", "confirm", "input", "editor".
std::string_view to_string(QuestionKind kind);

struct Question {
  std::string id = {};  // the asker's own id for it, echoed in the answer
  QuestionKind kind = QuestionKind::kInput;
  std::string title = {};
  std::string message = {};               // confirm
  std::vector<std::string> options = {};  // select
  std::string placeholder = {};           // input
  std::string prefill = {};               // editor
  // The asker gives up on its own after this long and goes on with a default.
  std::optional<std::chrono::milliseconds> timeout = {};
  friend bool operator==(const Question&, const Question&) = default;
};

// The person's answer: a value (select: one of the options; input, editor: text), yes or
// no (confirm), or none (the question is cancelled).
struct Answer {
  std::optional<std::string> value = {};
  std::optional<bool> confirmed = {};
  bool cancelled = false;
  friend bool operator==(const Answer&, const Answer&) = default;
};

// Checks an answer against its question: select takes one of its options, confirm yes or
// no, input and editor any text; a cancellation always fits. The reason when it does not.
std::optional<std::string> answer_problem(const Question& question, const Answer& answer);

// How a step asks: the runner's side of one run. A step calls ask, keeps doing its work
// (the asker may give up, or die), picks the answer up with take_answer when `wake` has
// been called, and calls withdraw when the question is over without one. All three on the
// run's thread; `wake` may be called from any thread.
class PersonQuestions {
 public:
  virtual ~PersonQuestions() = default;
  // The run waits for the person from now until an answer, a withdrawal or `deadline` (Unix
  // seconds, shown to the person; the step enforces it). A store error: not asked.
  virtual Status ask(const Question& question, std::int64_t deadline, std::function<void()> wake) = 0;
  // The answer, once, when the person gave one.
  virtual std::optional<Answer> take_answer() = 0;
  // The question is no longer asked (the asker went on, the step ended): the run runs again.
  virtual void withdraw() = 0;
};

}  // namespace companyos::automation
