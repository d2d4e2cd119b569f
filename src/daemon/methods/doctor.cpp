// doctor: the facts of this session as the daemon lives in it (its own DISPLAY, buses, store
// and socket: a daemon under systemd may see another environment than the shell), judged by
// doctor_checks.h. The probes can block on a wedged server: they run on a worker.
#include <sys/stat.h>

#include <filesystem>

#include "core/text.h"
#include "daemon/context.h"
#include "daemon/methods/doctor_checks.h"
#include "daemon/methods/methods.h"
#include "daemon/server/worker_pool.h"
#include "desktop/notification_server.h"
#include "desktop/session_probe.h"
#include "launch/subprocess.h"
#include "store/database.h"

namespace companyos::daemon::methods {
namespace {

constexpr std::chrono::milliseconds kProbeBudget{1500};
constexpr std::chrono::milliseconds kAppsBudget{3000};
constexpr std::chrono::milliseconds kSystemctlTimeout{3000};
constexpr std::chrono::milliseconds kNotificationTimeout{1000};

std::optional<unsigned> mode_of_directory_of(const std::string& path) {
  struct stat info {};
  const std::string directory = std::filesystem::path(path).parent_path().string();
  if (directory.empty() || ::stat(directory.c_str(), &info) != 0) return std::nullopt;
  return static_cast<unsigned>(info.st_mode);
}

// systemctl's own words (is-enabled prints one state), its exit status for the rest.
SocketUnit socket_unit() {
  launch::SubprocessSpec spec;
  spec.argv = {"systemctl", "--user", "is-enabled", "companyosd.socket"};
  spec.timeout = kSystemctlTimeout;
  auto ran = launch::run_subprocess(spec);
  if (!ran || ran->timed_out) return SocketUnit::kUnknown;
  const std::string said(trim_ascii_space(ran->out));
  if (said == "enabled" || said == "enabled-runtime" || said == "static" || said == "indirect" ||
      said == "generated" || said == "alias") {
    return SocketUnit::kEnabled;
  }
  if (said == "disabled") return SocketUnit::kDisabled;
  if (said == "masked" || said == "masked-runtime") return SocketUnit::kMasked;
  // "Failed to connect to bus: No such file or directory" is the manager missing, not the unit.
  if (ran->err.find("Failed to connect") != std::string::npos || ran->err.find("not defined") != std::string::npos) {
    return SocketUnit::kNoUserManager;
  }
  if (said == "not-found" || ran->err.find("No such file") != std::string::npos) return SocketUnit::kNotInstalled;
  return SocketUnit::kUnknown;
}

// Chromium shows its windows without --force-renderer-accessibility, but no page content.
bool web_pages_empty(a11y::Observer& observer, const std::string& app, Deadline deadline) {
  a11y::FindQuery query;
  query.target.app = app;
  query.role = "document web";
  auto found = observer.find(query, deadline);
  if (!found) return false;  // not read: say nothing rather than guess
  for (const a11y::FoundElement& page : *found) {
    if (!page.node->children.empty()) return false;
  }
  return true;
}

std::vector<DoctorApp> apps_of(a11y::Observer& observer, std::optional<std::string>& error) {
  const Deadline deadline = std::chrono::steady_clock::now() + kAppsBudget;
  auto listed = observer.apps(deadline);
  if (!listed) {
    error = listed.error().message;
    return {};
  }
  std::vector<DoctorApp> apps;
  for (const a11y::AppInfo& info : *listed) {
    DoctorApp app{info.name, info.toolkit, info.windows.size(), info.responsive};
    if (info.responsive && !info.windows.empty() && equals_ignoring_ascii_case(info.toolkit, "chromium")) {
      app.web_pages_empty = web_pages_empty(observer, info.name, deadline);
    }
    apps.push_back(std::move(app));
  }
  return apps;
}

}  // namespace

const MethodSpec kDoctor{
    .decl = declared::kDoctor,
    .handler = [](const nlohmann::json&, DaemonContext& ctx, Reply reply) {
      DoctorFacts facts;
      facts.store_path = ctx.db.path();
      facts.store_writable = ctx.db.writable();
      if (!facts.store_writable) facts.store_problem = ctx.db.read_only_reason();
      facts.socket_path = ctx.socket_path;
      a11y::Observer& observer = ctx.observer;
      ctx.workers.run(
          [&observer, facts = std::move(facts)]() mutable -> Result<nlohmann::json> {
            facts.session = desktop::probe_session(observer, kProbeBudget);
            if (facts.session.accessibility.registry) facts.apps = apps_of(observer, facts.apps_error);
            facts.store_dir_mode = mode_of_directory_of(facts.store_path);
            facts.socket_dir_mode = mode_of_directory_of(facts.socket_path);
            facts.socket_unit = socket_unit();
            facts.notifications = desktop::probe_notification_server(kNotificationTimeout);
            const std::vector<Check> checks = diagnose(facts);
            return nlohmann::json{{"checks", checks_to_json(checks)}, {"ready", ready(checks)}};
          },
          std::move(reply));
    },
};

}  // namespace companyos::daemon::methods
