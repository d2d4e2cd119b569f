#include "automation/pi/rpc.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace companyos::automation::pi {
namespace {

using nlohmann::json;

std::string dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string text_field(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<QuestionKind> question_kind(std::string_view method) {
  if (method == "select") return QuestionKind::kSelect;
  if (method == "confirm") return QuestionKind::kConfirm;
  if (method == "input") return QuestionKind::kInput;
  if (method == "editor") return QuestionKind::kEditor;
  return std::nullopt;  // notify, setStatus, setWidget, setTitle, …: nothing to answer
}

Event question(const json& line) {
  const std::string method = text_field(line, "method");
  const auto kind = question_kind(method);
  if (!kind) return OtherEvent{"extension_ui_request:" + method};
  Question asked{.id = text_field(line, "id"), .kind = *kind, .title = text_field(line, "title")};
  if (asked.id.empty()) return Malformed{"a question without an id cannot be answered"};
  asked.message = text_field(line, "message");
  asked.placeholder = text_field(line, "placeholder");
  asked.prefill = text_field(line, "prefill");
  // pi's own limit for the dialog, in milliseconds: it answers itself with a default then.
  const auto timeout = line.find("timeout");
  if (timeout != line.end() && timeout->is_number() && timeout->get<double>() > 0) {
    asked.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(std::min(timeout->get<double>(), 1e12)));
  }
  if (*kind == QuestionKind::kSelect) {
    const auto options = line.find("options");
    if (options == line.end() || !options->is_array() || options->empty()) {
      return Malformed{"a select question without options"};
    }
    for (const json& option : *options) {
      if (!option.is_string()) return Malformed{"a select option that is not text"};
      asked.options.push_back(option.get<std::string>());
    }
  }
  return asked;
}

// The text blocks of an assistant message, joined by blank lines.
std::string message_text(const json& message) {
  const auto content = message.find("content");
  if (content == message.end()) return {};
  if (content->is_string()) return content->get<std::string>();
  if (!content->is_array()) return {};
  std::string text;
  for (const json& block : *content) {
    if (!block.is_object() || text_field(block, "type") != "text") continue;
    if (!text.empty()) text += "\n\n";
    text += text_field(block, "text");
  }
  return text;
}

Event agent_end(const json& line) {
  AgentEnd end;
  const auto messages = line.find("messages");
  if (messages == line.end() || !messages->is_array()) return end;
  for (auto it = messages->rbegin(); it != messages->rend(); ++it) {
    if (!it->is_object() || text_field(*it, "role") != "assistant") continue;
    end.result = message_text(*it);
    const std::string stop = text_field(*it, "stopReason");
    end.failed = stop == "error" || stop == "aborted";
    if (end.failed) {
      end.error = text_field(*it, "errorMessage");
      if (end.error.empty()) end.error = "pi's answer stopped: " + stop;
    }
    break;
  }
  return end;
}

}  // namespace

std::string prompt_line(std::string_view id, std::string_view message) {
  return dump(json{{"id", id}, {"type", "prompt"}, {"message", message}});
}

std::string abort_line() { return dump(json{{"type", "abort"}}); }

std::string answer_line(const Question& question, const Answer& answer) {
  json line{{"type", "extension_ui_response"}, {"id", question.id}};
  if (answer.cancelled) {
    line["cancelled"] = true;
  } else if (question.kind == QuestionKind::kConfirm) {
    line["confirmed"] = answer.confirmed.value_or(false);
  } else {
    line["value"] = answer.value.value_or("");
  }
  return dump(line);
}

Event parse_line(std::string_view text) {
  if (text.size() > kMaxLineBytes) return Malformed{"a line longer than 8 MiB"};
  json line = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (line.is_discarded()) return Malformed{"not JSON"};
  if (!line.is_object()) return Malformed{"not a JSON object"};
  const auto type = line.find("type");
  if (type == line.end() || !type->is_string()) return Malformed{"no \"type\""};
  const std::string kind = type->get<std::string>();
  if (kind == "response") {
    const auto success = line.find("success");
    return Response{.id = text_field(line, "id"),
                    .command = text_field(line, "command"),
                    .success = success != line.end() && success->is_boolean() && success->get<bool>(),
                    .error = text_field(line, "error")};
  }
  if (kind == "extension_ui_request") return question(line);
  if (kind == "agent_end") return agent_end(line);
  return OtherEvent{kind};
}

void LineFramer::append(std::string_view bytes) {
  if (overlong_) return;
  if (start_ > 0 && start_ * 2 >= pending_.size()) {
    pending_.erase(0, start_);
    start_ = 0;
  }
  pending_.append(bytes);
  const std::size_t end = pending_.find('\n', start_);
  const std::size_t line_bytes = (end == std::string::npos ? pending_.size() : end) - start_;
  if (line_bytes > kMaxLineBytes) overlong_ = true;
}

std::optional<std::string> LineFramer::next_line() {
  if (overlong_) return std::nullopt;
  const std::size_t end = pending_.find('\n', start_);
  if (end == std::string::npos) {
    if (pending_.size() - start_ > kMaxLineBytes) overlong_ = true;
    return std::nullopt;
  }
  if (end - start_ > kMaxLineBytes) {
    overlong_ = true;
    return std::nullopt;
  }
  std::string line = pending_.substr(start_, end - start_);
  start_ = end + 1;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

}  // namespace companyos::automation::pi
