#include "daemon/daemon.h"

#include <glib-unix.h>
#include <glib.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <stop_token>

#include <spdlog/spdlog.h>
#include <systemd/sd-daemon.h>

#include "a11y/action_engine.h"
#include "a11y/observer.h"
#include "companyos/protocol.h"
#include "core/clock.h"
#include "core/version.h"
#include "daemon/services/automation_service.h"
#include "daemon/context.h"
#include "desktop/clipboard.h"
#include "daemon/method_table.h"
#include "daemon/methods/dashboard.h"
#include "daemon/methods/methods.h"
#include "daemon/server/request.h"
#include "daemon/services/approval_notifier.h"
#include "daemon/services/scheduler_service.h"
#include "daemon/server/server.h"
#include "daemon/server/socket_setup.h"
#include "daemon/server/worker_pool.h"
#include "store/audit.h"
#include "store/database.h"
#include "store/settings.h"
#include "web/dashboard.h"

namespace companyos::daemon {
namespace {

constexpr int kWorkerThreads = 8;
constexpr guint kShutdownGraceMs = 5000;

struct MainLoopDeleter {
  void operator()(GMainLoop* loop) const { g_main_loop_unref(loop); }
};

void log_error(const Error& error) {
  spdlog::error("{}", error.message);
  if (!error.suggestion.empty()) spdlog::error("hint: {}", error.suggestion);
}

// Shutdown: stop accepting at once, then let replies in flight drain, bounded in time.
struct Shutdown {
  GMainLoop* loop = nullptr;
  Server* server = nullptr;
  const Listener* listener = nullptr;
  std::stop_source* stopping = nullptr;
  std::chrono::steady_clock::time_point deadline{};
  bool started = false;

  void begin(const char* why) {
    if (started) return;
    started = true;
    spdlog::info("{}: shutting down", why);
    sd_notify(0, "STOPPING=1");
    server->stop_accepting();
    stopping->request_stop();
    if (listener->created_by_us && !listener->path.empty()) ::unlink(listener->path.c_str());
    deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kShutdownGraceMs);
    g_timeout_add(5, &Shutdown::poll, this);
  }

  static gboolean poll(gpointer self) {
    auto* s = static_cast<Shutdown*>(self);
    if (s->server->has_unfinished_work() && std::chrono::steady_clock::now() < s->deadline) {
      return G_SOURCE_CONTINUE;
    }
    if (s->server->has_unfinished_work()) spdlog::warn("shutdown: dropping unfinished replies");
    g_main_loop_quit(s->loop);
    return G_SOURCE_REMOVE;
  }
};

// The runner's runs that wait for a person, as the approval notifications show them.
std::vector<WaitingRun> waiting_runs(const automation::Runner& runner) {
  std::vector<WaitingRun> waiting;
  for (const automation::ActiveRunInfo& run : runner.active()) {
    if (run.status != store::RunStatus::kWaiting) continue;
    waiting.push_back(WaitingRun{run.run_id, run.automation_name, run.waiting_step.value_or(""),
                                 run.waiting_description.value_or(""), run.approval_deadline,
                                 run.question.has_value()});
  }
  return waiting;
}

// What the dashboard's open pages hear: the active runs, each with its steps so far, and the
// newest run's id.
nlohmann::json dashboard_activity(const store::RunStore& runs) {
  auto active = runs.active();
  auto newest = runs.newest_id();
  if (!active || !newest) return {{"error", (!active ? active.error() : newest.error()).message}};
  nlohmann::json list = nlohmann::json::array();
  for (const store::RunRecord& run : *active) {
    list.push_back({{"id", run.id}, {"automation_id", run.automation_id}, {"status", run.status},
                    {"step_count", run.step_count}});
  }
  return {{"active", std::move(list)}, {"newest_run", *newest}};
}

}  // namespace

int run_daemon(const DaemonOptions& options) {
  ::umask(077);
  ::signal(SIGPIPE, SIG_IGN);
  // Handlers go in before the socket can accept anyone, so a signal is never fatal; one
  // that arrives during start-up is handled as soon as the loop runs.
  std::unique_ptr<GMainLoop, MainLoopDeleter> loop(g_main_loop_new(nullptr, FALSE));
  Shutdown shutdown;
  shutdown.loop = loop.get();
  std::stop_source stopping;
  shutdown.stopping = &stopping;
  auto on_signal = [](gpointer self) -> gboolean {
    static_cast<Shutdown*>(self)->begin("signal received");
    return G_SOURCE_CONTINUE;
  };
  guint term_source = g_unix_signal_add(SIGTERM, on_signal, &shutdown);
  guint int_source = g_unix_signal_add(SIGINT, on_signal, &shutdown);

  auto from_systemd = listener_from_systemd();
  if (!from_systemd) {
    log_error(from_systemd.error());
    return 1;
  }
  Listener listener;
  if (*from_systemd) {
    listener = std::move(**from_systemd);
    spdlog::info("using the socket passed by systemd{}",
                 listener.path.empty() ? "" : " (" + listener.path + ")");
  } else {
    auto own = listen_on_path(options.socket_path);
    if (!own) {
      log_error(own.error());
      return 1;
    }
    listener = std::move(*own);
  }

  auto db = store::Database::open(options.db_path);
  if (!db) {
    log_error(db.error());
    if (listener.created_by_us) ::unlink(listener.path.c_str());
    return 1;
  }

  if (!db->writable()) {
    spdlog::warn("{}: serving read-only; settings, automations, runs and every action (its audit row) "
                 "are refused until the store is writable and companyosd restarted",
                 db->read_only_reason());
  }

  SystemClock clock;
  store::Settings settings(*db, clock);
  store::AuditLog audit(*db, clock);
  MethodTable table(methods::all_methods());
  std::optional<WorkerPool> workers(std::in_place, g_main_context_default(), kWorkerThreads);
  a11y::Observer observer;
  a11y::ActionEngine actions(observer);
  auto automations = AutomationService::open(*db, observer, actions, clock, options.approval_timeout);
  if (!automations) {
    log_error(automations.error());
    if (listener.created_by_us) ::unlink(listener.path.c_str());
    return 1;
  }
  auto scheduler = SchedulerService::open(clock, **automations, settings, *workers);
  if (!scheduler) {
    log_error(scheduler.error());
    if (listener.created_by_us) ::unlink(listener.path.c_str());
    return 1;
  }
  automation::Runner& runner = (*automations)->runner();
  ApprovalNotifier notifier(ApprovalNotifier::Hooks{
      .waiting = [&runner] { return waiting_runs(runner); },
      .decide =
          [&runner](const DecidedRun& decided) {
            auto done = decided.decision == Decision::kApprove ? runner.approve(decided.run_id)
                                                               : runner.deny(decided.run_id);
            if (!done) spdlog::warn("run {}: {}", decided.run_id, done.error().message);
          },
      .enabled = [&settings] { auto on = settings.get("notifications"); return on && *on == true; },
  });
  desktop::Clipboard clipboard;
  // The dashboard's calls go through the one dispatcher, as the person's requests; the
  // context they need is made just below, before anything can be served.
  DaemonContext* dashboard_context = nullptr;
  web::Dashboard dashboard(
      clock,
      [&table, &dashboard_context](const declared::MethodDeclaration& method, const nlohmann::json& params,
                                   std::function<void(Result<nlohmann::json>)> done) {
        table.dispatch(method.name, params, *dashboard_context, Reply(std::move(done), {}, protocol::Origin::kPerson));
      },
      [&runs = (*automations)->runs()] { return dashboard_activity(runs); });
  DaemonContext context{.db = *db,
                        .settings = settings,
                        .audit = audit,
                        .clock = clock,
                        .workers = *workers,
                        .observer = observer,
                        .actions = actions,
                        .methods = table,
                        .socket_path = listener.path,
                        .started = std::chrono::steady_clock::now(),
                        .automations = **automations,
                        .stopping = stopping.get_token(),
                        .scheduler = **scheduler,
                        .clipboard = clipboard,
                        .dashboard = dashboard};
  dashboard_context = &context;
  if (auto port = settings.get("dashboard_port"); port && *port != 0) {
    if (auto served = methods::serve_dashboard(context, port->get<std::uint16_t>()); !served) {
      spdlog::warn("dashboard: {}", served.error().message);
    }
  }

  auto handle_line = [&](const FramedLine& line, std::stop_token client_gone,
                         std::function<void(std::string)> done) {
    auto parsed = parse_request(line);
    if (auto* bad = std::get_if<RequestError>(&parsed)) {
      done(protocol::to_line(protocol::error_envelope(bad->id, bad->error)));
      return;
    }
    auto request = std::get<Request>(std::move(parsed));
    spdlog::debug("request {} {}", request.method, request.id.dump());
    table.dispatch(request.method, request.params, context,
                   Reply(
                       [id = request.id, done = std::move(done)](Result<nlohmann::json> result) {
                         done(protocol::to_line(result ? protocol::ok_envelope(id, std::move(*result))
                                                       : protocol::error_envelope(id, result.error())));
                       },
                       std::move(client_gone), request.origin));
  };

  auto server = std::make_unique<Server>(std::move(listener.fd), ::geteuid(), handle_line, clock);
  shutdown.server = server.get();
  shutdown.listener = &listener;

  spdlog::info("companyosd {} serving {} (store {}, schema {})", kVersion, listener.path,
               db->path(), db->schema_version());
  sd_notify(0, "READY=1");

  g_main_loop_run(loop.get());

  g_source_remove(term_source);
  g_source_remove(int_source);
  // The dashboard's last answers go out while everything they use is still here.
  dashboard.finish(std::chrono::seconds(1));
  server.reset();
  workers.reset();
  spdlog::info("stopped");
  return 0;
}

}  // namespace companyos::daemon
