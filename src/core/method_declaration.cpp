#include "companyos/method_declaration.h"

#include <algorithm>
#include <string>

#include "core/text.h"

namespace companyos::methods {
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

bool in_range(std::int64_t value, const IntRange& range) {
  return value >= range.min && (!range.max || value <= *range.max);
}

// An integer param as sent: a JSON unsigned above INT64_MAX is out of every range.
std::optional<std::int64_t> as_int64(const nlohmann::json& value) {
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
    return std::nullopt;
  }
  return value.get<std::int64_t>();
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

std::string range_text(const IntRange& range) {
  if (range.max) return "must be from " + std::to_string(range.min) + " to " + std::to_string(*range.max);
  if (range.min == 1) return "must be a positive integer";
  return "must be at least " + std::to_string(range.min);
}

std::string length_text(const LengthLimit& limit) {
  constexpr std::int64_t kMiB = 1 << 20;
  if (limit.unit == LengthUnit::kBytes && limit.max >= kMiB && limit.max % kMiB == 0) {
    return "at most " + with_thousands(limit.max / kMiB) + " MiB";
  }
  return "at most " + with_thousands(limit.max) + (limit.unit == LengthUnit::kBytes ? " bytes" : " characters");
}

std::string help_text(const ParamSpec& param) {
  std::string help(param.help);
  if (param.length) help += (help.empty() ? "" : ", ") + length_text(*param.length);
  return help;
}

const ParamSpec* find_param(std::span<const ParamSpec> specs, std::string_view name) {
  auto it = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& p) { return p.name == name; });
  return it == specs.end() ? nullptr : &*it;
}

const ParamSpec* MethodDeclaration::param(std::string_view param_name) const {
  return find_param(params, param_name);
}

Status check_params(const MethodDeclaration& method, const nlohmann::json& params) {
  return check_params(method.name, method.params, params);
}

Status check_params(std::string_view owner, std::span<const ParamSpec> specs, const nlohmann::json& params) {
  for (const auto& [key, value] : params.items()) {
    const ParamSpec* spec = find_param(specs, key);
    if (spec == nullptr) {
      return make_error(ErrorCode::kInvalidArgs,
                        std::string(owner) + ": unknown parameter \"" + key + "\"",
                        {{"param", key}});
    }
    if (!has_type(value, spec->type)) {
      return make_error(ErrorCode::kInvalidArgs,
                        std::string(owner) + ": parameter \"" + key + "\" must be " +
                            (spec->type == ParamType::kInteger ? "an " : "a ") +
                            std::string(to_string(spec->type)),
                        {{"param", key}, {"expected", to_string(spec->type)}});
    }
    if (spec->range && spec->type == ParamType::kInteger) {
      const auto number = as_int64(value);
      if (!number || !in_range(*number, *spec->range)) {
        return make_error(ErrorCode::kInvalidArgs, key + " " + range_text(*spec->range),
                          {{"param", key}, {"got", value}});
      }
    }
    if (spec->length && value.is_string()) {
      const auto& text = value.get_ref<const std::string&>();
      const bool bytes = spec->length->unit == LengthUnit::kBytes;
      const auto length = static_cast<std::int64_t>(bytes ? text.size() : count_characters(text));
      if (length > spec->length->max) {
        return make_error(ErrorCode::kInvalidArgs,
                          key + " has " + with_thousands(length) + (bytes ? " bytes" : " characters") + "; " +
                              std::string(owner) + " takes " + length_text(*spec->length),
                          {{"param", key}, {bytes ? "bytes" : "characters", length}, {"max", spec->length->max}},
                          "send it in parts");
      }
    }
    if (!spec->choices.empty() && value.is_string() &&
        std::find(spec->choices.begin(), spec->choices.end(), value.get<std::string>()) ==
            spec->choices.end()) {
      std::string allowed;
      for (std::string_view choice : spec->choices) {
        allowed += (allowed.empty() ? "" : ", ") + std::string(choice);
      }
      return make_error(ErrorCode::kInvalidArgs,
                        std::string(owner) + ": parameter \"" + key + "\" must be one of " + allowed,
                        {{"param", key}, {"got", value}});
    }
    if (spec->items && value.is_array()) {
      for (const nlohmann::json& item : value) {
        if (!has_type(item, *spec->items)) {
          return make_error(ErrorCode::kInvalidArgs,
                            std::string(owner) + ": every item of \"" + key + "\" must be " +
                                (*spec->items == ParamType::kInteger ? "an " : "a ") +
                                std::string(to_string(*spec->items)),
                            {{"param", key}, {"expected", to_string(*spec->items)}});
        }
      }
    }
  }
  for (const ParamSpec& p : specs) {
    if (p.required && !params.contains(std::string(p.name))) {
      return make_error(ErrorCode::kInvalidArgs,
                        std::string(owner) + ": missing parameter \"" + std::string(p.name) + "\"",
                        {{"param", p.name}});
    }
  }
  for (const ParamSpec& p : specs) {
    if (!p.excludes.empty() && params.contains(std::string(p.name)) &&
        params.contains(std::string(p.excludes))) {
      return make_error(ErrorCode::kInvalidArgs,
                        "give " + std::string(p.excludes) + " or " + std::string(p.name) + ", not both",
                        {{"param", p.name}}, "drop one of them");
    }
  }
  return ok_status();
}

nlohmann::json describe(const MethodDeclaration& method) {
  nlohmann::json params = nlohmann::json::array();
  for (const ParamSpec& p : method.params) {
    nlohmann::json param = {{"name", p.name}, {"type", to_string(p.type)}, {"required", p.required},
                            {"help", help_text(p)}};
    if (p.length) param[p.length->unit == LengthUnit::kBytes ? "max_bytes" : "max_characters"] = p.length->max;
    if (p.range) {
      param["min"] = p.range->min;
      if (p.range->max) param["max"] = *p.range->max;
    }
    params.push_back(std::move(param));
  }
  nlohmann::json flags = nlohmann::json::array();
  if (method.flags & kFlagEffectful) flags.push_back("effectful");
  if (method.flags & kFlagNeedsX11) flags.push_back("needs_x11");
  if (method.flags & kFlagAsksApproval) flags.push_back("asks_approval");
  if (method.flags & kFlagPersonOnly) flags.push_back("person_only");
  if (method.flags & kFlagDashboard) flags.push_back("dashboard");
  if (method.flags & kFlagBatchable) flags.push_back("batchable");
  return {{"name", method.name}, {"summary", method.summary}, {"params", std::move(params)},
          {"target", to_string(method.target)}, {"flags", std::move(flags)}};
}

}  // namespace companyos::methods
