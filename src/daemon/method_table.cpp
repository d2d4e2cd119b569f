#include "daemon/method_table.h"

#include <algorithm>
#include <string>

namespace companyos::daemon {
namespace {

bool has_type(const nlohmann::json& value, ParamType type) {
  switch (type) {
    case ParamType::kString: return value.is_string();
    case ParamType::kInteger: return value.is_number_integer();
    case ParamType::kBoolean: return value.is_boolean();
    case ParamType::kObject: return value.is_object();
    case ParamType::kArray: return value.is_array();
    case ParamType::kAny: return true;
  }
  return false;
}

}  // namespace

std::string_view to_string(ParamType type) {
  switch (type) {
    case ParamType::kString: return "string";
    case ParamType::kInteger: return "integer";
    case ParamType::kBoolean: return "boolean";
    case ParamType::kObject: return "object";
    case ParamType::kArray: return "array";
    case ParamType::kAny: return "any";
  }
  return "any";
}

std::string_view to_string(TargetKind kind) {
  switch (kind) {
    case TargetKind::kNone: return "none";
    case TargetKind::kApp: return "app";
    case TargetKind::kWindow: return "window";
    case TargetKind::kElement: return "element";
  }
  return "none";
}

Status check_params(const MethodSpec& spec, const nlohmann::json& params) {
  for (const auto& [key, value] : params.items()) {
    auto it = std::find_if(spec.params.begin(), spec.params.end(),
                           [&](const ParamSpec& p) { return p.name == key; });
    if (it == spec.params.end()) {
      return make_error(ErrorCode::kInvalidArgs,
                        std::string(spec.name) + ": unknown parameter \"" + key + "\"",
                        {{"param", key}});
    }
    if (!has_type(value, it->type)) {
      return make_error(ErrorCode::kInvalidArgs,
                        std::string(spec.name) + ": parameter \"" + key + "\" must be " +
                            (it->type == ParamType::kInteger ? "an " : "a ") +
                            std::string(to_string(it->type)),
                        {{"param", key}, {"expected", to_string(it->type)}});
    }
  }
  for (const ParamSpec& p : spec.params) {
    if (p.required && !params.contains(std::string(p.name))) {
      return make_error(ErrorCode::kInvalidArgs,
                        std::string(spec.name) + ": missing parameter \"" + std::string(p.name) +
                            "\"",
                        {{"param", p.name}});
    }
  }
  return ok_status();
}

MethodTable::MethodTable(std::vector<const MethodSpec*> methods) : methods_(std::move(methods)) {}

const MethodSpec* MethodTable::find(std::string_view name) const {
  for (const MethodSpec* spec : methods_) {
    if (spec->name == name) return spec;
  }
  return nullptr;
}

nlohmann::json MethodTable::describe() const {
  nlohmann::json out = nlohmann::json::array();
  for (const MethodSpec* spec : methods_) {
    nlohmann::json params = nlohmann::json::array();
    for (const ParamSpec& p : spec->params) {
      params.push_back({{"name", p.name}, {"type", to_string(p.type)}, {"required", p.required},
                        {"help", p.help}});
    }
    nlohmann::json flags = nlohmann::json::array();
    if (spec->flags & kFlagEffectful) flags.push_back("effectful");
    if (spec->flags & kFlagNeedsX11) flags.push_back("needs_x11");
    if (spec->flags & kFlagAsksApproval) flags.push_back("asks_approval");
    out.push_back({{"name", spec->name}, {"summary", spec->summary}, {"params", params},
                   {"target", to_string(spec->target)}, {"flags", flags}});
  }
  return out;
}

void MethodTable::dispatch(std::string_view method, const nlohmann::json& params,
                           DaemonContext& ctx, Reply reply) const {
  const MethodSpec* spec = find(method);
  if (spec == nullptr) {
    reply(make_error(ErrorCode::kInvalidArgs, "unknown method \"" + std::string(method) + "\"",
                     {{"method", method}}, "`companyos call methods` lists the methods"));
    return;
  }
  if (auto st = check_params(*spec, params); !st) {
    reply(std::move(st).take_error());
    return;
  }
  spec->handler(params, ctx, std::move(reply));
}

}  // namespace companyos::daemon
