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

#include "automation/question.h"

namespace companyos::automation::pi {

// The largest line read from pi: a longer one ends the step (pi's messages carry whole
// tool results, so this is generous).
inline constexpr std::size_t kMaxLineBytes = 8 * 1024 * 1024;

// {"id": ID, "type": "prompt", "message": MESSAGE}
std::string prompt_line(std::string_view id, std::string_view message);
// {"type": "abort"}: asks pi to stop what it is doing (a timeout, a stop).
std::string abort_line();

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

// Splits what pi writes into lines at LF only (pi's framing: a U+2028 inside a JSON string
// is not a line end; a CR before the LF is dropped).
class LineFramer {
 public:
  void append(std::string_view bytes);
  // The next whole line, without its LF; nullopt until one is complete.
  std::optional<std::string> next_line();
  // A line longer than kMaxLineBytes has started: nothing after it can be framed.
  bool overlong() const { return overlong_; }
  // Bytes of a line not ended yet (what pi wrote last before it closed its output).
  bool has_partial_line() const { return pending_.size() > start_; }

 private:
  std::string pending_;
  std::size_t start_ = 0;  // where the next line begins in pending_
  bool overlong_ = false;
};

}  // namespace companyos::automation::pi
