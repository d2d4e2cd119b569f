#include "daemon/method_table.h"

#include <string>

#include "companyos/reply_fields.h"
#include "daemon/methods/audited_reply.h"
#include "desktop/target_window.h"
#include "x11/display_server.h"

namespace companyos::daemon {

Status x11_session_from_environment(std::string_view method) {
  const auto env = [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
  return desktop::require_x11(x11::detect_display_server(env, [](const std::string&) { return true; }), method);
}

MethodTable::MethodTable(std::vector<const MethodSpec*> methods, X11Session x11_session)
    : methods_(std::move(methods)), x11_session_(std::move(x11_session)) {}

const MethodSpec* MethodTable::find(std::string_view name) const {
  for (const MethodSpec* spec : methods_) {
    if (spec->decl.name == name) return spec;
  }
  return nullptr;
}

const MethodSpec* MethodTable::find_command(std::string_view command) const {
  for (const MethodSpec* spec : methods_) {
    if (spec->decl.command == command || spec->decl.name == command) return spec;
  }
  return nullptr;
}

nlohmann::json MethodTable::describe() const {
  nlohmann::json out = nlohmann::json::array();
  for (const MethodSpec* spec : methods_) out.push_back(declared::describe(spec->decl));
  return out;
}

void MethodTable::dispatch(std::string_view method, const nlohmann::json& params, DaemonContext& ctx,
                           Reply reply) const {
  const MethodSpec* spec = find(method);
  if (spec == nullptr) {
    reply(make_error(ErrorCode::kInvalidArgs, "unknown method \"" + std::string(method) + "\"",
                     {{"method", method}}, "`companyos call methods` lists the methods"));
    return;
  }
  const MethodDeclaration& decl = spec->decl;
  if (auto st = declared::check_params(decl, params); !st) {
    reply(std::move(st).take_error());
    return;
  }
  if (decl.audited()) {
    const auto app = params.find("app");
    auto audited = audited_reply(ctx, std::string(decl.name),
                                 app != params.end() && app->is_string() ? app->get<std::string>() : std::string(),
                                 reply);
    if (!audited) {
      reply(std::move(audited).take_error());
      return;
    }
    reply = std::move(audited).value();
  }
  // After the audit row is open, so an agent's attempt is on record too.
  if ((decl.flags & declared::kFlagPersonOnly) != 0 && reply.origin() == protocol::Origin::kAgent) {
    reply(make_error(ErrorCode::kPolicyDenied, std::string(decl.name) + " is the person's to do, never an agent's",
                     {{"reason", "person_only"}, {"method", decl.name}, {reply_fields::outcome::kDelivery, "not_delivered"}},
                     "ask the person to do it (companyos " + std::string(decl.command) + ")"));
    return;
  }
  if ((decl.flags & declared::kFlagNeedsX11) != 0 && x11_session_) {
    if (auto st = x11_session_(decl.name); !st) {
      reply(std::move(st).take_error());
      return;
    }
  }
  spec->handler(params, ctx, std::move(reply));
}

}  // namespace companyos::daemon
