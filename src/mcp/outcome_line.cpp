#include "mcp/outcome_line.h"

#include "companyos/reply_fields.h"
#include "mcp/agent_words.h"

namespace companyos::mcp {
namespace {

std::string sentence(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
  if (!text.empty() && text.back() != '.' && text.back() != '!' && text.back() != '?') text += '.';
  return text;
}

}  // namespace

ActionOutcome describe_outcome(std::string_view what, const nlohmann::json& envelope) {
  ActionOutcome outcome;
  const bool ok = envelope.value("ok", false);
  const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json& data = ok && envelope.contains("data") && envelope["data"].is_object() ? envelope["data"] : empty;
  const nlohmann::json& error = !ok && envelope.contains("error") && envelope["error"].is_object() ? envelope["error"] : empty;
  const nlohmann::json& details = error.contains("details") && error["details"].is_object() ? error["details"] : empty;

  if (ok) {
    outcome.delivery = data.value(reply_fields::outcome::kDelivery, "delivered_unverified");
    outcome.route = data.value(reply_fields::outcome::kRoute, "");
  } else {
    outcome.error_code = error.value("code", "INTERNAL");
    // An error names what reached the app; without that, only a "safe" retry means nothing did.
    outcome.delivery = details.value(reply_fields::outcome::kDelivery,
                                     error.value("retry", "safe") == "safe" ? "not_delivered" : "delivered_unverified");
    outcome.route = details.value(reply_fields::outcome::kRoute, "");
  }
  outcome.verified = outcome.delivery == "delivered_verified";
  const bool physical = outcome.route.rfind("xtest", 0) == 0;
  const std::string label(what);

  const Error said = in_agent_words(make_error(
      error_code_from_string(outcome.error_code).value_or(ErrorCode::kInternal),
      error.value("message", ok ? "the daemon sent nothing" : "the daemon refused"), details,
      error.value("suggestion", "")));
  if (outcome.delivery == "not_delivered") {
    outcome.is_error = true;
    outcome.line = "Nothing was done: " + sentence(said.message);
    if (!said.suggestion.empty()) outcome.line += " " + sentence(said.suggestion);
    return outcome;
  }
  if (outcome.verified) {
    outcome.line = "Done (" + label + "), and read back.";
  } else if (physical) {
    outcome.line = "Input was posted (" + label + "); nothing confirmed the effect.";
  } else {
    outcome.line = "The element's own action ran (" + label + "); nothing confirmed the effect.";
  }
  if (!ok) {
    // Delivered, yet the daemon reports a failure (a read-back that disagrees): say both.
    outcome.is_error = true;
    outcome.line += " " + sentence(said.message);
  }
  return outcome;
}

}  // namespace companyos::mcp
