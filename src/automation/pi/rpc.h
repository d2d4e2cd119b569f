// pi's RPC mode (`pi --mode rpc --no-session`, the npm package @mariozechner/pi-coding-agent),
// the part a pi step speaks: one JSON object per line each way. We send a `prompt`; pi
// answers with a `response`, streams events, may ask the person through an
// `extension_ui_request` (select, confirm, input, editor), which we answer with an
// `extension_ui_response`, and ends the prompt with `agent_end`, whose last assistant
// message is the step's result. Pure functions over lines: the process is the runner's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace companyos::automation::pi {

// The largest line read from pi: a longer one ends the step (pi's messages carry whole
// tool results, so this is generous).
inline constexpr std::size_t kMaxLineBytes = 8 * 1024 * 1024;

// {"id": ID, "type": "prompt", "message": MESSAGE}
std::string prompt_line(std::string_view id, std::string_view message);
// {"type": "abort"}: asks pi to stop what it is doing (a timeout, a stop).
std::string abort_line();

enum class QuestionKind { kSelect, kConfirm, kInput, kEditor };
std::string_view to_string(QuestionKind kind);

// What pi asks the person, as it asked it.
struct Question {
  std::string id = {};  // pi's request id, echoed in the answer
  QuestionKind kind = QuestionKind::kInput;
  std::string title = {};
  std::string message = {};               // confirm
  std::vector<std::string> options = {};  // select
  std::string placeholder = {};           // input
  std::string prefill = {};               // editor
  friend bool operator==(const Question&, const Question&) = default;
};

// The person's answer: a value (select: one of the options; input, editor: text), yes or
// no (confirm), or none (the question is cancelled).
struct Answer {
  std::optional<std::string> value = {};
  std::optional<bool> confirmed = {};
  bool cancelled = false;
};
// Checks an answer against its question: select takes one of its options, confirm yes or
// no, input and editor any text; a cancellation always fits. The reason when it does not.
std::optional<std::string> answer_problem(const Question& question, const Answer& answer);
// {"type": "extension_ui_response", "id": …, "value" | "confirmed" | "cancelled": …}
std::string answer_line(const Question& question, const Answer& answer);

// A command's response: {"type": "response", "command": …, "success": …, "error"?: …}.
struct Response {
  std::string id = {};  // empty when pi gave none
  std::string command = {};
  bool success = false;
  std::string error = {};
};
// {"type": "agent_end", "messages": [...]}: the prompt is done. The result is the text of
// the last assistant message, its text blocks joined; failed when that message stopped on
// an error or an abort (pi's stopReason), with pi's errorMessage when it gave one.
struct AgentEnd {
  std::string result;
  bool failed = false;
  std::string error;
};
// Everything else pi streams (message deltas, tool events, fire-and-forget UI such as
// notify and setStatus): nothing the step acts on.
struct OtherEvent {
  std::string type;
};
// A line that is not one JSON object with a string "type", or a question without what it
// needs to be asked.
struct Malformed {
  std::string why;
};

using Event = std::variant<Response, Question, AgentEnd, OtherEvent, Malformed>;
Event parse_line(std::string_view line);

}  // namespace companyos::automation::pi
