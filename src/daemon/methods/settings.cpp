#include "store/settings.h"

#include "daemon/context.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/stop_all.h"

namespace companyos::daemon::methods {
namespace {

nlohmann::json describe_settings(const nlohmann::json& values) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& spec : store::setting_specs()) {
    out.push_back({{"key", spec.key},
                   {"value", values[std::string(spec.key)]},
                   {"default", nlohmann::json::parse(spec.default_json)},
                   {"allowed", spec.allowed},
                   {"help", spec.help}});
  }
  return out;
}

}  // namespace

const MethodSpec kSettingsGet{
    .name = "settings.get",
    .summary = "read every setting, or one",
    .params = {{"key", ParamType::kString, false, "one setting's key"}},
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      if (params.contains("key")) {
        const auto key = params["key"].get<std::string>();
        auto value = ctx.settings.get(key);
        if (!value) return reply(std::move(value).take_error());
        return reply(nlohmann::json{{"key", key}, {"value", *value}});
      }
      auto values = ctx.settings.all();
      if (!values) return reply(std::move(values).take_error());
      reply(nlohmann::json{{"values", *values}, {"settings", describe_settings(*values)}});
    },
};

const MethodSpec kSettingsSet{
    .name = "settings.set",
    .summary = "change one setting (validated; the old value stays on error)",
    .params = {{"key", ParamType::kString, true, "the setting's key"},
               {"value", ParamType::kAny, true, "the new value (JSON type per setting)"}},
    .flags = kFlagEffectful,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      const auto key = params["key"].get<std::string>();
      auto stored = ctx.settings.set(key, params["value"]);
      if (!stored) return reply(std::move(stored).take_error());
      nlohmann::json data{{"key", key}, {"value", *stored}};
      // The master switch turned off is stop-all: the setting already refuses new runs.
      if (key == "automations_enabled" && *stored == false) {
        return stop_all_automations(ctx, [data = std::move(data), reply = std::move(reply)](
                                             Result<nlohmann::json> stopped) mutable {
          if (!stopped) return reply(std::move(stopped).take_error());
          data["stop_all"] = std::move(*stopped);
          reply(std::move(data));
        });
      }
      reply(std::move(data));
    },
};

}  // namespace companyos::daemon::methods
