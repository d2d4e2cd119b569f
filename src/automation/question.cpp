#include "automation/question.h"

namespace companyos::automation {

std::string_view to_string(QuestionKind kind) {
  switch (kind) {
    case QuestionKind::kSelect:
      return "select";
    case QuestionKind::kConfirm:
      return "confirm";
    case QuestionKind::kInput:
      return "input";
    case QuestionKind::kEditor:
      break;
  }
  return "editor";
}

std::optional<std::string> answer_problem(const Question& question, const Answer& answer) {
  if (answer.cancelled) {
    if (answer.value || answer.confirmed) return "a cancellation carries no answer";
    return std::nullopt;
  }
  switch (question.kind) {
    case QuestionKind::kConfirm:
      if (!answer.confirmed || answer.value) return "this question is answered yes or no";
      return std::nullopt;
    case QuestionKind::kSelect:
      if (!answer.value || answer.confirmed) return "this question is answered with one of its options";
      for (const std::string& option : question.options) {
        if (option == *answer.value) return std::nullopt;
      }
      return "not one of the options";
    case QuestionKind::kInput:
    case QuestionKind::kEditor:
      if (!answer.value || answer.confirmed) return "this question is answered with text";
      return std::nullopt;
  }
  return "unknown question";
}

}  // namespace companyos::automation
