#include "a11y/action_reply.h"

namespace companyos::a11y {
namespace {

nlohmann::json target_to_json(const ActionTargetSummary& target) {
  nlohmann::json json = {{"app", target.app},
                         {"pid", target.pid ? nlohmann::json(*target.pid) : nlohmann::json()},
                         {"window", {{"id", target.window_id}, {"title", target.window_title}}},
                         {"role", target.role},
                         {"name", target.name},
                         {"position", target.position}};
  if (!target.ref.empty()) json["ref"] = target.ref;
  return json;
}

}  // namespace

nlohmann::json action_reply_to_json(const ActionReply& reply) {
  nlohmann::json json = {
      {"method", std::string(method_name(reply.kind))},
      {"delivery", std::string(to_string(reply.delivery))},
      {"retry", std::string(to_string(retry_for(reply.delivery)))},
      {"route", reply.route},
      {"target", target_to_json(reply.target)},
      {"verification",
       reply.verification ? verification_to_json(*reply.verification) : nlohmann::json()},
      {"timings",
       {{"resolve_ms", reply.timings.resolve_ms},
        {"preflight_ms", reply.timings.preflight_ms},
        {"deliver_ms", reply.timings.deliver_ms},
        {"verify_ms", reply.timings.verify_ms}}},
      {"ms", reply.milliseconds},
  };
  if (reply.already) json["already"] = true;
  if (!reply.answered) json["answered"] = false;
  if (reply.fingerprint) json["fingerprint"] = *reply.fingerprint;
  if (reply.expectation && reply.expectation_result) {
    json["expectation"] = expectation_to_json(*reply.expectation, *reply.expectation_result);
  }
  return json;
}

}  // namespace companyos::a11y
