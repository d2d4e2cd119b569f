#include "daemon/methods/audited_reply.h"

#include <chrono>

#include <spdlog/spdlog.h>

#include "companyos/reply_fields.h"
#include "store/audit.h"

namespace companyos::daemon {

Result<Reply> audited_reply(DaemonContext& ctx, std::string method, std::string app, Reply reply) {
  const auto started = std::chrono::steady_clock::now();
  store::AuditRecord opening;
  opening.method = method;
  opening.origin = reply.origin();
  if (!app.empty()) opening.app = app;
  auto row = ctx.audit.open(opening);
  if (!row) {
    Error refused = std::move(row).take_error();
    spdlog::warn("{} refused: its audit row cannot be written: {}", method, refused.message);
    refused.message = method + " was not attempted: its audit row cannot be written (" + refused.message + ")";
    if (!refused.details.is_object()) refused.details = nlohmann::json::object();
    refused.details[reply_fields::outcome::kDelivery] = "not_delivered";
    return refused;
  }
  return reply.rerouted([&ctx, method = std::move(method), app = std::move(app), reply, started,
                         id = *row](Result<nlohmann::json> result) mutable {
    store::AuditRecord record;
    record.method = method;
    if (!app.empty()) record.app = app;
    record.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::steady_clock::now() - started)
                             .count();
    // The target an element action resolved: its role, and its app when the request
    // named it only by a ref.
    const auto take_target = [&record](const nlohmann::json& holder) {
      if (!holder.is_object() || !holder.contains("target") || !holder["target"].is_object()) return;
      const auto& target = holder["target"];
      if (target.contains("role") && target["role"].is_string()) {
        record.target_role = target["role"].get<std::string>();
      }
      if (!record.app && target.contains("app") && target["app"].is_string()) {
        record.app = target["app"].get<std::string>();
      }
    };
    if (result) {
      record.outcome = result->value(reply_fields::outcome::kDelivery, "delivered_unverified");
      take_target(*result);
    } else {
      const auto& details = result.error().details;
      record.outcome = details.is_object() ? details.value(reply_fields::outcome::kDelivery, "not_delivered") : "not_delivered";
      record.error_code = std::string(to_string(result.error().code));
      take_target(details);
    }
    if (auto st = ctx.audit.complete(id, record); !st) {
      spdlog::warn("audit row {} for {} left pending: {}", id, method, st.error().message);
    }
    reply(std::move(result));
  });
}

}  // namespace companyos::daemon
