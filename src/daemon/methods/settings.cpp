#include "store/settings.h"

#include "daemon/context.h"
#include "daemon/methods/dashboard.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/stop_all.h"
#include "daemon/services/scheduler_service.h"

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
    .decl = declared::kSettingsGet,
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
    .decl = declared::kSettingsSet,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      const auto key = params["key"].get<std::string>();
      auto stored = ctx.settings.set(key, params["value"]);
      if (!stored) return reply(std::move(stored).take_error());
      nlohmann::json data{{"key", key}, {"value", *stored}};
      // Only the master switch changes what is planned; unattended and max_level are read
      // when a trigger fires. Turned on, every automation is planned again from the store.
      if (key == "automations_enabled" && *stored == true) {
        if (auto planned = ctx.scheduler.reload(); !planned) return reply(std::move(planned).take_error());
      }
      // The master switch turned off is stop-all: the setting already refuses new runs, and
      // nothing stays planned (stop-all plans again from the store once it has ended).
      if (key == "automations_enabled" && *stored == false) {
        ctx.scheduler.triggers().set_automations_enabled(false);
        return stop_all_automations(ctx, [data = std::move(data), reply = std::move(reply)](
                                             Result<nlohmann::json> stopped) mutable {
          if (!stopped) return reply(std::move(stopped).take_error());
          data["stop_all"] = std::move(*stopped);
          reply(std::move(data));
        });
      }
      // A port serves there at once (0 leaves what serves now to end with the daemon).
      if (key == "dashboard_port" && *stored != 0) {
        auto port = serve_dashboard(ctx, stored->get<std::uint16_t>());
        if (!port) return reply(std::move(port).take_error());
        data["serving"] = *port;
      }
      reply(std::move(data));
    },
};

}  // namespace companyos::daemon::methods
