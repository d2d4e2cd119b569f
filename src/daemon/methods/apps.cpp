#include <algorithm>
#include <filesystem>

#include "a11y/observer.h"
#include "daemon/methods/methods.h"
#include "daemon/methods/observation.h"
#include "launch/app_match.h"
#include "launch/desktop_index.h"
#include "daemon/wire/a11y_replies.h"
#include "x11/windows.h"
#include "companyos/reply_fields.h"

namespace companyos::daemon::methods {
namespace {

// The file name of a process's executable ("" when it cannot be read: another user's, or
// gone).
std::string executable_of(std::optional<int> pid) {
  if (!pid) return {};
  std::error_code error;
  const auto exe = std::filesystem::read_symlink("/proc/" + std::to_string(*pid) + "/exe", error);
  return error ? std::string() : exe.filename().string();
}

// The app as the desktop shows it, for matching its desktop entry.
launch::RunningApp running_app(const a11y::AppInfo& app, const std::vector<x11::WindowInfo>& clients) {
  launch::RunningApp running{app.name, {}, executable_of(app.pid)};
  for (const auto& client : clients) {
    if (!app.pid || !client.pid || *client.pid != *app.pid) continue;
    for (const std::string* value : {&client.wm_instance, &client.wm_class}) {
      if (!value->empty() && std::find(running.wm_classes.begin(), running.wm_classes.end(), *value) ==
                                 running.wm_classes.end()) {
        running.wm_classes.push_back(*value);
      }
    }
  }
  return running;
}

}  // namespace

const MethodSpec kApps{
    .decl = declared::kApps,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      run_observation(params, ctx, std::move(reply), [](a11y::Observer& observer, Deadline deadline)
                                                         -> Result<nlohmann::json> {
        auto apps = observer.apps(deadline);
        if (!apps) return std::move(apps).take_error();
        // The app's desktop entry, where exactly one matches its name, else its WM_CLASS,
        // else its executable (launch/app_match.h).
        const auto index = launch::DesktopIndex::load();
        const auto clients = x11::list_windows_if_any();
        nlohmann::json out = nlohmann::json::array();
        for (const auto& app : *apps) {
          auto json = wire::app_to_json(app);
          const auto match = launch::match_running_app(index, running_app(app, clients));
          json[reply_fields::app::kDesktopEntry] = match.chosen ? nlohmann::json(match.chosen->entry.id) : nlohmann::json(nullptr);
          out.push_back(std::move(json));
        }
        return nlohmann::json{{"apps", std::move(out)}};
      });
    },
};

}  // namespace companyos::daemon::methods
