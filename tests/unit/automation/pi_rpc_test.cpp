#include "automation/pi/rpc.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace companyos::automation::pi {
namespace {

using nlohmann::json;

json sent(const std::string& line) {
  EXPECT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\n') << "one object per line";
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "and nothing else on it";
  return json::parse(line);
}

TEST(PiRpc, PromptAndAbortAreOneLineEach) {
  EXPECT_EQ(sent(prompt_line("companyos-1", "Summarise\nthe log")),
            (json{{"id", "companyos-1"}, {"type", "prompt"}, {"message", "Summarise\nthe log"}}));
  EXPECT_EQ(sent(abort_line()), (json{{"type", "abort"}}));
}

struct LineCase {
  const char* what;
  const char* line;
  std::string expect;  // the variant's kind, and a detail
};

void PrintTo(const LineCase& c, std::ostream* os) { *os << c.what; }

std::string describe(const Event& event) {
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, Response>) {
          return "response " + e.command + " " + (e.success ? "ok" : "failed: " + e.error) + " id=" + e.id;
        } else if constexpr (std::is_same_v<T, Question>) {
          std::string text = "question " + std::string(to_string(e.kind)) + " " + e.id + " \"" + e.title + "\"";
          for (const auto& option : e.options) text += " [" + option + "]";
          if (!e.message.empty()) text += " message=" + e.message;
          if (!e.placeholder.empty()) text += " placeholder=" + e.placeholder;
          if (!e.prefill.empty()) text += " prefill=" + e.prefill;
          return text;
        } else if constexpr (std::is_same_v<T, AgentEnd>) {
          return "end " + std::string(e.failed ? "failed (" + e.error + ") " : "") + "\"" + e.result + "\"";
        } else if constexpr (std::is_same_v<T, OtherEvent>) {
          return "other " + e.type;
        } else {
          return "malformed: " + e.why;
        }
      },
      event);
}

class PiLines : public ::testing::TestWithParam<LineCase> {};

TEST_P(PiLines, AreReadAsWhatTheyAre) { EXPECT_EQ(describe(parse_line(GetParam().line)), GetParam().expect); }

INSTANTIATE_TEST_SUITE_P(
    Table, PiLines,
    ::testing::Values(
        LineCase{"a prompt accepted", R"({"id":"companyos-1","type":"response","command":"prompt","success":true})",
                 "response prompt ok id=companyos-1"},
        LineCase{"a prompt refused", R"({"type":"response","command":"prompt","success":false,"error":"No model"})",
                 "response prompt failed: No model id="},
        LineCase{"a parse error", R"({"type":"response","command":"parse","success":false,"error":"bad"})",
                 "response parse failed: bad id="},
        LineCase{"select", R"({"type":"extension_ui_request","id":"q1","method":"select","title":"Deploy?","options":["Yes","No"]})",
                 R"(question select q1 "Deploy?" [Yes] [No])"},
        LineCase{"confirm", R"({"type":"extension_ui_request","id":"q2","method":"confirm","title":"Clear?","message":"All lost.","timeout":5000})",
                 R"(question confirm q2 "Clear?" message=All lost.)"},
        LineCase{"input", R"({"type":"extension_ui_request","id":"q3","method":"input","title":"Name","placeholder":"type..."})",
                 R"(question input q3 "Name" placeholder=type...)"},
        LineCase{"editor", R"({"type":"extension_ui_request","id":"q4","method":"editor","title":"Edit","prefill":"a\nb"})",
                 "question editor q4 \"Edit\" prefill=a\nb"},
        LineCase{"notify needs no answer", R"({"type":"extension_ui_request","id":"n","method":"notify","message":"hi"})",
                 "other extension_ui_request:notify"},
        LineCase{"setStatus needs no answer", R"({"type":"extension_ui_request","id":"s","method":"setStatus"})",
                 "other extension_ui_request:setStatus"},
        LineCase{"the end's last assistant text",
                 R"({"type":"agent_end","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"Done."},{"type":"toolCall","id":"c","name":"bash"},{"type":"text","text":"All good."}],"stopReason":"stop"},{"role":"toolResult","content":[{"type":"text","text":"not this"}]}]})",
                 "end \"Done.\n\nAll good.\""},
        LineCase{"an end without an assistant message", R"({"type":"agent_end","messages":[]})", "end \"\""},
        LineCase{"an end on an error", R"({"type":"agent_end","messages":[{"role":"assistant","content":[],"stopReason":"error","errorMessage":"429 rate limited"}]})",
                 "end failed (429 rate limited) \"\""},
        LineCase{"an aborted end", R"({"type":"agent_end","messages":[{"role":"assistant","content":[{"type":"text","text":"partial"}],"stopReason":"aborted"}]})",
                 "end failed (pi's answer stopped: aborted) \"partial\""},
        LineCase{"a streaming delta", R"({"type":"message_update","assistantMessageEvent":{"type":"text_delta","delta":"x"}})",
                 "other message_update"},
        // Bad input.
        LineCase{"not JSON", "hello", "malformed: not JSON"},
        LineCase{"an array", "[1,2]", "malformed: not a JSON object"},
        LineCase{"no type", R"({"id":"x"})", "malformed: no \"type\""},
        LineCase{"a type that is no text", R"({"type":3})", "malformed: no \"type\""},
        LineCase{"a question without id", R"({"type":"extension_ui_request","method":"input","title":"x"})",
                 "malformed: a question without an id cannot be answered"},
        LineCase{"a select without options", R"({"type":"extension_ui_request","id":"q","method":"select","title":"x","options":[]})",
                 "malformed: a select question without options"},
        LineCase{"a select option that is a number", R"({"type":"extension_ui_request","id":"q","method":"select","options":[1]})",
                 "malformed: a select option that is not text"},
        LineCase{"success that is not a boolean", R"({"type":"response","command":"prompt","success":"yes"})",
                 "response prompt failed:  id="}));

TEST(PiRpc, AnOverlongLineIsRefusedUnparsed) {
  const std::string line(kMaxLineBytes + 1, ' ');
  EXPECT_EQ(describe(parse_line(line)), "malformed: a line longer than 8 MiB");
}

struct FramingCase {
  const char* what;
  std::vector<std::string> chunks;  // as read from the pipe
  std::vector<std::string> lines;   // the whole lines framed
  bool partial;                     // bytes of an unended line are left
};

void PrintTo(const FramingCase& c, std::ostream* os) { *os << c.what; }

class PiFraming : public ::testing::TestWithParam<FramingCase> {};

TEST_P(PiFraming, SplitsAtLineFeedsOnly) {
  const FramingCase& c = GetParam();
  LineFramer framer;
  std::vector<std::string> lines;
  for (const std::string& chunk : c.chunks) {
    framer.append(chunk);
    while (auto line = framer.next_line()) lines.push_back(*line);
  }
  EXPECT_EQ(lines, c.lines);
  EXPECT_EQ(framer.has_partial_line(), c.partial);
  EXPECT_FALSE(framer.overlong());
}

INSTANTIATE_TEST_SUITE_P(
    Table, PiFraming,
    ::testing::Values(FramingCase{"one line", {"{}\n"}, {"{}"}, false},
                      FramingCase{"two in one read", {"a\nb\n"}, {"a", "b"}, false},
                      FramingCase{"one across reads", {"{\"type\":", "\"x\"}", "\n"}, {"{\"type\":\"x\"}"}, false},
                      FramingCase{"a CR before the LF is dropped", {"a\r\n"}, {"a"}, false},
                      FramingCase{"U+2028 is not a line end", {"a\u2028b\n"}, {"a\u2028b"}, false},
                      FramingCase{"an empty line", {"\n"}, {""}, false},
                      FramingCase{"an unended line waits", {"a\nb"}, {"a"}, true},
                      FramingCase{"nothing", {}, {}, false}));

TEST(PiFraming, ALineOverTheLimitStopsTheFraming) {
  LineFramer framer;
  framer.append("short\n");
  framer.append(std::string(kMaxLineBytes, 'x'));
  EXPECT_EQ(framer.next_line(), "short");
  EXPECT_FALSE(framer.next_line());
  EXPECT_FALSE(framer.overlong()) << "exactly the limit is allowed";
  framer.append("y");
  EXPECT_FALSE(framer.next_line());
  EXPECT_TRUE(framer.overlong());
  framer.append("\n{}\n");
  EXPECT_FALSE(framer.next_line()) << "nothing after it is framed";
}

TEST(PiRpc, APisOwnLimitForAQuestionIsKept) {
  const Event event = parse_line(R"({"type":"extension_ui_request","id":"q","method":"confirm","title":"t","timeout":30000})");
  const auto* question = std::get_if<Question>(&event);
  ASSERT_NE(question, nullptr);
  EXPECT_EQ(question->timeout, std::chrono::milliseconds(30000));
  const Event without = parse_line(R"({"type":"extension_ui_request","id":"q","method":"confirm","timeout":-5})");
  EXPECT_FALSE(std::get<Question>(without).timeout);
}

// Plain fields (GCC 12 reports a std::optional inside a parameter table as maybe unset).
struct AnswerCase {
  const char* what;
  QuestionKind kind;
  const char* value;  // nullptr: none
  int confirmed;      // -1: none
  bool cancelled;
  const char* problem;  // nullptr: it fits
  const char* line;     // the response's fields after type and id, as JSON
};

void PrintTo(const AnswerCase& c, std::ostream* os) { *os << c.what; }

class PiAnswers : public ::testing::TestWithParam<AnswerCase> {};

TEST_P(PiAnswers, FitTheirQuestionAndAreSentAsPiReadsThem) {
  const AnswerCase& c = GetParam();
  const Question question{.id = "q7", .kind = c.kind, .title = "t", .options = {"Yes", "No"}};
  Answer answer;
  if (c.value != nullptr) answer.value = c.value;
  if (c.confirmed >= 0) answer.confirmed = c.confirmed == 1;
  answer.cancelled = c.cancelled;
  const auto problem = answer_problem(question, answer);
  EXPECT_EQ(problem.value_or("fits"), c.problem == nullptr ? "fits" : c.problem);
  json expected = json::parse(c.line);
  expected["type"] = "extension_ui_response";
  expected["id"] = "q7";
  EXPECT_EQ(sent(answer_line(question, answer)), expected);
}

INSTANTIATE_TEST_SUITE_P(
    Table, PiAnswers,
    ::testing::Values(
        AnswerCase{"an option", QuestionKind::kSelect, "No", -1, false, nullptr, R"({"value":"No"})"},
        AnswerCase{"not an option", QuestionKind::kSelect, "Maybe", -1, false, "not one of the options", R"({"value":"Maybe"})"},
        AnswerCase{"select without a value", QuestionKind::kSelect, nullptr, 1, false,
                   "this question is answered with one of its options", R"({"value":""})"},
        AnswerCase{"yes", QuestionKind::kConfirm, nullptr, 1, false, nullptr, R"({"confirmed":true})"},
        AnswerCase{"no", QuestionKind::kConfirm, nullptr, 0, false, nullptr, R"({"confirmed":false})"},
        AnswerCase{"confirm with text", QuestionKind::kConfirm, "yes", -1, false, "this question is answered yes or no",
                   R"({"confirmed":false})"},
        AnswerCase{"text", QuestionKind::kInput, "main", -1, false, nullptr, R"({"value":"main"})"},
        AnswerCase{"empty text", QuestionKind::kInput, "", -1, false, nullptr, R"({"value":""})"},
        AnswerCase{"input without text", QuestionKind::kInput, nullptr, -1, false, "this question is answered with text",
                   R"({"value":""})"},
        AnswerCase{"edited text", QuestionKind::kEditor, "a\nb", -1, false, nullptr, R"({"value":"a\nb"})"},
        AnswerCase{"cancelled", QuestionKind::kSelect, nullptr, -1, true, nullptr, R"({"cancelled":true})"},
        AnswerCase{"a cancelled confirm", QuestionKind::kConfirm, nullptr, -1, true, nullptr, R"({"cancelled":true})"}));

}  // namespace
}  // namespace companyos::automation::pi
