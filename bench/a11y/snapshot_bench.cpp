// Snapshot benchmark, run inside scripts/desktop-session: starts the GTK3 fixture with rows
// (a box per row: label, button, entry) at ~300 and ~3,000 nodes and, in one run, times
//   (a) a complete snapshot through companyos_a11y, and the `snapshot` request through
//       companyosd (its own process on a private socket: request, snapshot, JSON tree reply;
//       and the outline alone, as a person's CLI asks for it),
//   (b) a plain synchronous libatspi depth-first walk reading the same fields,
//   (c) the raw Cache.GetItems call alone on the app's own connection (the floor), with
//       GDBus as before and on the snapshot's own sd-bus pipeline,
// and the CPU time the snapshot costs this thread and the app, then prints medians and
// ratios as one JSON object and a short table.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <atspi/atspi.h>
#include <gio/gio.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>

#include "core/glib_handles.h"
#include "a11y/observer.h"
#include "core/unique_fd.h"

namespace a11y = companyos::a11y;
using Clock = std::chrono::steady_clock;
using companyos::ErrorPtr;
using companyos::GCharPtr;
using companyos::GObjectPtr;

namespace {

constexpr int kFixedNodes = 21;  // the fixture's nodes besides its rows
constexpr int kNodesPerRow = 4;  // box, label, button, entry

struct Settings {
  std::string fixture;
  std::string daemon = COMPANYOSD_PATH;
  std::vector<int> node_targets{300, 3000};
  int runs = 9;
  int walk_runs = 3;
};

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

Clock::time_point in(std::chrono::milliseconds d) { return Clock::now() + d; }

// ---- the fixture ---------------------------------------------------------------------

class Fixture {
 public:
  Fixture(const std::string& program, int rows, const std::string& app_class) {
    const std::string rows_text = std::to_string(rows);
    const char* argv[] = {program.c_str(), "--rows", rows_text.c_str(), "--class",
                          app_class.c_str(), nullptr};
    GError* error = nullptr;
    process_.reset(g_subprocess_newv(argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error));
    ErrorPtr owned(error);
    if (!process_) std::cerr << "cannot start " << program << ": " << error->message << "\n";
  }
  ~Fixture() {
    if (!process_) return;
    g_subprocess_force_exit(process_.get());
    g_subprocess_wait(process_.get(), nullptr, nullptr);
  }
  bool started() const { return process_ != nullptr; }
  int pid() const {
    const char* id = process_ ? g_subprocess_get_identifier(process_.get()) : nullptr;
    return id ? std::atoi(id) : -1;
  }

 private:
  GObjectPtr<GSubprocess> process_;
};

// Polls until the fixture's window is listed (the app appears 0.2–0.6 s after launch).
std::optional<a11y::WindowInfo> wait_for_window(a11y::Observer& observer, int pid) {
  const auto give_up = in(std::chrono::seconds(20));
  while (Clock::now() < give_up) {
    auto apps = observer.apps(in(std::chrono::seconds(2)));
    if (apps) {
      for (const auto& app : *apps) {
        if (app.pid == pid && !app.windows.empty()) return app.windows.front();
      }
    }
    g_usleep(50'000);
  }
  return std::nullopt;
}

// ---- (b) the plain libatspi walk -------------------------------------------------------

struct WalkCounts {
  std::size_t nodes = 0;
};

template <typename T>
struct AtspiUnref {
  void operator()(T* object) const { g_object_unref(object); }
};
template <typename T>
using AtspiPtr = std::unique_ptr<T, AtspiUnref<T>>;

void walk_node(AtspiAccessible* node, WalkCounts& counts) {
  ++counts.nodes;
  GError* error = nullptr;
  const AtspiRole role = atspi_accessible_get_role(node, &error);
  g_clear_error(&error);
  GCharPtr name(atspi_accessible_get_name(node, &error));
  g_clear_error(&error);
  GCharPtr description(atspi_accessible_get_description(node, &error));
  g_clear_error(&error);
  GCharPtr id(atspi_accessible_get_accessible_id(node, &error));
  g_clear_error(&error);
  AtspiPtr<AtspiStateSet> states(atspi_accessible_get_state_set(node));
  if (AtspiPtr<AtspiComponent> component{atspi_accessible_get_component_iface(node)}) {
    g_free(atspi_component_get_extents(component.get(), ATSPI_COORD_TYPE_SCREEN, &error));
    g_clear_error(&error);
  }
  if (AtspiPtr<AtspiAction> action{atspi_accessible_get_action_iface(node)}) {
    const gint count = atspi_action_get_n_actions(action.get(), &error);
    g_clear_error(&error);
    for (gint i = 0; i < count; ++i) {
      g_free(atspi_action_get_action_name(action.get(), i, &error));
      g_clear_error(&error);
    }
  }
  if (role != ATSPI_ROLE_PASSWORD_TEXT) {
    if (AtspiPtr<AtspiValue> value{atspi_accessible_get_value_iface(node)}) {
      atspi_value_get_current_value(value.get(), &error);
      g_clear_error(&error);
    } else if (AtspiPtr<AtspiText> text{atspi_accessible_get_text_iface(node)}) {
      const gint characters = atspi_text_get_character_count(text.get(), &error);
      g_clear_error(&error);
      if (characters > 0) {
        g_free(atspi_text_get_text(text.get(), 0, characters, &error));
        g_clear_error(&error);
      }
    }
  }
  const gint children = atspi_accessible_get_child_count(node, &error);
  g_clear_error(&error);
  for (gint i = 0; i < children; ++i) {
    AtspiPtr<AtspiAccessible> child(atspi_accessible_get_child_at_index(node, i, &error));
    g_clear_error(&error);
    if (child) walk_node(child.get(), counts);
  }
}

AtspiPtr<AtspiAccessible> atspi_window_of(int pid) {
  AtspiPtr<AtspiAccessible> desktop(atspi_get_desktop(0));
  GError* error = nullptr;
  const gint apps = atspi_accessible_get_child_count(desktop.get(), &error);
  g_clear_error(&error);
  for (gint i = 0; i < apps; ++i) {
    AtspiPtr<AtspiAccessible> app(atspi_accessible_get_child_at_index(desktop.get(), i, &error));
    g_clear_error(&error);
    if (!app || static_cast<int>(atspi_accessible_get_process_id(app.get(), &error)) != pid) {
      g_clear_error(&error);
      continue;
    }
    return AtspiPtr<AtspiAccessible>(atspi_accessible_get_child_at_index(app.get(), 0, &error));
  }
  return nullptr;
}

// ---- (c) the GetItems floor ----------------------------------------------------------

// The app's own connection, as the snapshot uses it (the bus if it offers none).
struct FloorChannel {
  companyos::ConnectionRef connection;
  std::string destination;
};

std::optional<FloorChannel> floor_channel(a11y::Observer& observer, const std::string& bus_name) {
  a11y::CallScope scope(in(std::chrono::seconds(5)));
  auto channel = observer.bus().app_channel(scope, bus_name);
  if (!channel) return std::nullopt;
  return FloorChannel{channel->channel.connection, channel->channel.destination};
}

std::optional<FloorChannel> bus_floor_channel(a11y::Observer& observer, const std::string& bus_name) {
  a11y::CallScope scope(in(std::chrono::seconds(5)));
  auto bus = observer.bus().bus_channel(scope);
  if (!bus) return std::nullopt;
  return FloorChannel{bus->connection, bus_name};
}

// The same call on a pipeline from the snapshot's own pool: the floor for a lean client.
double time_get_items_pipelined(a11y::Observer& observer, const a11y::AppChannel& app) {
  const auto start = Clock::now();
  auto pipeline = observer.bus().pipeline(app, in(std::chrono::seconds(10)));
  if (!pipeline) return -1;
  bool answered = false;
  pipeline->call("/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "GetItems",
                 [&answered](sd_bus_message* reply) { answered = !a11y::error_name(reply); });
  pipeline->wait();
  const double elapsed = milliseconds_since(start);
  return answered ? elapsed : -1;
}

std::optional<a11y::AppChannel> app_channel(a11y::Observer& observer, const std::string& bus_name) {
  a11y::CallScope scope(in(std::chrono::seconds(5)));
  auto channel = observer.bus().app_channel(scope, bus_name);
  if (!channel) return std::nullopt;
  return *channel;
}

// CPU milliseconds (user + system) of this thread, and of another process by pid. The
// kernel counts a process's time in clock ticks (10 ms here), so only sums over many
// snapshots say much.
double thread_cpu_ms() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

double process_cpu_ms(int pid) {
  GCharPtr stat;
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  gchar* contents = nullptr;
  if (!g_file_get_contents(path.c_str(), &contents, nullptr, nullptr)) return 0;
  stat.reset(contents);
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const char* rest = std::strrchr(stat.get(), ')');
  if (rest == nullptr) return 0;
  std::unique_ptr<gchar*, decltype(&g_strfreev)> fields(g_strsplit(rest + 2, " ", -1), g_strfreev);
  if (g_strv_length(fields.get()) < 13) return 0;
  // utime and stime are fields 14 and 15 of the line, 11 and 12 after the name.
  const double ticks =
      g_ascii_strtod(fields.get()[11], nullptr) + g_ascii_strtod(fields.get()[12], nullptr);
  return ticks * 1000.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double time_get_items(const FloorChannel& channel) {
  const auto start = Clock::now();
  GError* error = nullptr;
  companyos::VariantPtr reply(g_dbus_connection_call_sync(
      channel.connection.get(), channel.destination.empty() ? nullptr : channel.destination.c_str(),
      "/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "GetItems", nullptr, nullptr,
      G_DBUS_CALL_FLAGS_NONE, 10'000, nullptr, &error));
  const double elapsed = milliseconds_since(start);
  ErrorPtr owned(error);
  return reply ? elapsed : -1;
}

// ---- (a) through the daemon ---------------------------------------------------------

// companyosd on a private socket and store in a temporary directory; stopped with SIGTERM
// and cleaned up when this goes away. It inherits this session's accessibility bus.
class Daemon {
 public:
  explicit Daemon(const std::string& program) {
    GCharPtr dir(g_dir_make_tmp("companyos-bench-XXXXXX", nullptr));
    if (!dir) return;
    dir_ = dir.get();
    socket_ = dir_ + "/run/control.sock";
    const std::string db = dir_ + "/companyos.db";
    const char* argv[] = {program.c_str(), "--socket",    socket_.c_str(), "--db",
                          db.c_str(),      "--log-level", "warn",          nullptr};
    GError* error = nullptr;
    process_.reset(g_subprocess_newv(argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error));
    ErrorPtr owned(error);
    if (!process_) std::cerr << "cannot start " << program << ": " << error->message << "\n";
  }
  ~Daemon() {
    if (process_) {
      g_subprocess_send_signal(process_.get(), SIGTERM);
      g_subprocess_wait(process_.get(), nullptr, nullptr);
    }
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  bool started() const { return process_ != nullptr; }
  const std::string& socket() const { return socket_; }

 private:
  std::string dir_;
  std::string socket_;
  GObjectPtr<GSubprocess> process_;
};

companyos::UniqueFd connect_to(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof(address.sun_path)) return {};
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  companyos::UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    return {};
  }
  return fd;
}

// One connection to the daemon, JSON lines as the CLI speaks them.
class DaemonClient {
 public:
  // Polls until the daemon accepts a connection (it starts in tens of milliseconds).
  static std::optional<DaemonClient> connect(const std::string& socket) {
    const auto give_up = in(std::chrono::seconds(10));
    while (Clock::now() < give_up) {
      if (auto fd = connect_to(socket); fd.valid()) return DaemonClient(std::move(fd));
      g_usleep(10'000);
    }
    return std::nullopt;
  }

  // Sends one request and returns its reply line, or nullopt on a failure or at the deadline.
  std::optional<std::string> call(const nlohmann::json& request, Clock::time_point deadline) {
    const std::string line = request.dump() + "\n";
    for (std::size_t sent = 0; sent < line.size();) {
      const ssize_t n = ::send(fd_.get(), line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return std::nullopt;
      sent += static_cast<std::size_t>(n);
    }
    std::vector<char> chunk(1 << 16);
    for (;;) {
      if (const auto newline = buffer_.find('\n'); newline != std::string::npos) {
        std::string reply = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return reply;
      }
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd ready{fd_.get(), POLLIN, 0};
      if (::poll(&ready, 1, static_cast<int>(left.count())) <= 0) continue;
      const ssize_t n = ::recv(fd_.get(), chunk.data(), chunk.size(), 0);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk.data(), static_cast<std::size_t>(n));
    }
  }

 private:
  explicit DaemonClient(companyos::UniqueFd fd) : fd_(std::move(fd)) {}
  companyos::UniqueFd fd_;
  std::string buffer_;
};

// A `snapshot` request as `companyos --json snapshot --app APP --window ID --format F` sends
// it: "tree" is the complete JSON snapshot, "outline" what a person's `companyos snapshot`
// asks for. The time runs until the whole reply is read; the parse is not counted.
struct DaemonSnapshot {
  double ms = -1;
  std::size_t nodes = 0;
  std::string error;
};

DaemonSnapshot daemon_snapshot(DaemonClient& client, const std::string& app,
                               const std::string& window_id, const char* format, int id) {
  const nlohmann::json request = {
      {"id", id},
      {"method", "snapshot"},
      {"params", {{"app", app}, {"window", window_id}, {"format", format}, {"timeout_ms", 30000}}}};
  const auto start = Clock::now();
  auto line = client.call(request, in(std::chrono::seconds(60)));
  DaemonSnapshot taken;
  const double elapsed = milliseconds_since(start);
  if (!line) {
    taken.error = "no reply from the daemon";
    return taken;
  }
  const auto reply = nlohmann::json::parse(*line, nullptr, false);
  if (reply.is_discarded() || !reply.value("ok", false)) {
    taken.error = reply.is_discarded() ? "the daemon's reply is not JSON"
                                       : "daemon: " + reply["error"].value("message", "");
    return taken;
  }
  taken.ms = elapsed;
  taken.nodes = reply["data"].value("node_count", std::size_t{0});
  return taken;
}

// ---- one size ------------------------------------------------------------------------

nlohmann::json bench_size(const Settings& settings, a11y::Observer& observer, DaemonClient& daemon,
                          int target_nodes) {
  const int rows = std::max(1, (target_nodes - kFixedNodes) / kNodesPerRow);
  const std::string app_class = "bench-fixture-" + std::to_string(rows);
  Fixture fixture(settings.fixture, rows, app_class);
  if (!fixture.started()) return {{"error", "fixture did not start"}};
  auto window = wait_for_window(observer, fixture.pid());
  if (!window) return {{"error", "fixture window did not appear"}};

  a11y::WindowQuery query{app_class, window->id, std::nullopt};
  std::vector<double> snapshot_ms, daemon_ms, daemon_outline_ms, floor_ms, pipelined_floor_ms, bus_floor_ms, walk_ms;
  double snapshot_cpu_ms = 0;
  double app_cpu_ms = 0;
  std::size_t nodes = 0;
  nlohmann::json stats;
  // One untimed snapshot first: it opens the app's connection and lets GTK3 build its cache.
  if (auto warm = observer.snapshot(query, in(std::chrono::seconds(30))); !warm) {
    return {{"error", warm.error().message}};
  }
  int request_id = 0;
  std::size_t daemon_nodes = 0;
  if (auto warm = daemon_snapshot(daemon, app_class, window->id, "tree", ++request_id);
      !warm.error.empty()) {
    return {{"error", warm.error}};
  }
  auto channel = floor_channel(observer, window->bus_name);
  auto via_bus = bus_floor_channel(observer, window->bus_name);
  auto app = app_channel(observer, window->bus_name);
  if (!channel || !via_bus || !app) return {{"error", "no channel to the fixture"}};
  for (int run = 0; run < settings.runs; ++run) {
    const double cpu_before = thread_cpu_ms();
    const double app_before = process_cpu_ms(fixture.pid());
    const auto start = Clock::now();
    auto taken = observer.snapshot(query, in(std::chrono::seconds(30)));
    snapshot_ms.push_back(milliseconds_since(start));
    snapshot_cpu_ms += thread_cpu_ms() - cpu_before;
    app_cpu_ms += process_cpu_ms(fixture.pid()) - app_before;
    if (!taken) return {{"error", taken.error().message}};
    nodes = (*taken)->nodes.size();
    const DaemonSnapshot through_daemon =
        daemon_snapshot(daemon, app_class, window->id, "tree", ++request_id);
    if (!through_daemon.error.empty()) return {{"error", through_daemon.error}};
    daemon_ms.push_back(through_daemon.ms);
    daemon_nodes = through_daemon.nodes;
    const DaemonSnapshot outline =
        daemon_snapshot(daemon, app_class, window->id, "outline", ++request_id);
    if (!outline.error.empty()) return {{"error", outline.error}};
    daemon_outline_ms.push_back(outline.ms);
    stats = {{"detail_calls", (*taken)->stats.detail_calls},
             {"peer_to_peer", (*taken)->stats.peer_to_peer},
             {"reconciled", (*taken)->stats.reconciled},
             {"walked_live", (*taken)->stats.walked_live}};
    floor_ms.push_back(time_get_items(*channel));
    pipelined_floor_ms.push_back(time_get_items_pipelined(observer, *app));
    bus_floor_ms.push_back(time_get_items(*via_bus));
  }
  std::size_t walked_nodes = 0;
  for (int run = 0; run < settings.walk_runs; ++run) {
    auto atspi_window = atspi_window_of(fixture.pid());
    if (!atspi_window) return {{"error", "libatspi does not see the fixture"}};
    WalkCounts counts;
    const auto start = Clock::now();
    walk_node(atspi_window.get(), counts);
    walk_ms.push_back(milliseconds_since(start));
    walked_nodes = counts.nodes;
  }
  const double snapshot = median(snapshot_ms);
  const double via_daemon = median(daemon_ms);
  const double walk = median(walk_ms);
  const double floor = median(floor_ms);
  const double bus_floor = median(bus_floor_ms);
  const double pipelined_floor = median(pipelined_floor_ms);
  const double calls = stats.value("detail_calls", 0.0);  // the same in every run
  const double floor_target = target_nodes >= 1000 ? 3.0 : 5.0;
  return {{"rows", rows},
          {"nodes", nodes},
          {"daemon_nodes", daemon_nodes},
          {"walk_nodes", walked_nodes},
          {"snapshot_ms", snapshot},
          {"daemon_snapshot_ms", via_daemon},
          {"daemon_outline_ms", median(daemon_outline_ms)},
          {"walk_ms", walk},
          {"get_items_ms", floor},
          {"get_items_via_bus_ms", bus_floor},
          {"get_items_sd_bus_ms", pipelined_floor},
          {"snapshot_cpu_ms", snapshot_cpu_ms / settings.runs},
          {"app_cpu_ms", app_cpu_ms / settings.runs},
          {"detail_calls", calls},
          {"peer_to_peer", stats.value("peer_to_peer", false)},
          {"walk_over_snapshot", snapshot > 0 ? walk / snapshot : 0},
          {"walk_over_daemon_snapshot", via_daemon > 0 ? walk / via_daemon : 0},
          {"daemon_snapshot_over_get_items", floor > 0 ? via_daemon / floor : 0},
          {"snapshot_over_get_items", floor > 0 ? snapshot / floor : 0},
          {"snapshot_over_get_items_via_bus", bus_floor > 0 ? snapshot / bus_floor : 0},
          {"snapshot_over_get_items_sd_bus", pipelined_floor > 0 ? snapshot / pipelined_floor : 0},
          {"targets",
           {{"walk_over_snapshot_at_least", 10.0},
            {"snapshot_over_get_items_at_most", floor_target}}},
          {"met", snapshot > 0 && walk / snapshot >= 10.0 && floor > 0 &&
                      snapshot / floor <= floor_target},
          {"met_via_daemon", via_daemon > 0 && walk / via_daemon >= 10.0 && floor > 0 &&
                                 via_daemon / floor <= floor_target},
          {"snapshot_runs_ms", snapshot_ms},
          {"daemon_snapshot_runs_ms", daemon_ms},
          {"daemon_outline_runs_ms", daemon_outline_ms},
          {"walk_runs_ms", walk_ms},
          {"get_items_runs_ms", floor_ms},
          {"get_items_via_bus_runs_ms", bus_floor_ms},
          {"get_items_sd_bus_runs_ms", pipelined_floor_ms},
          {"snapshot_stats", stats}};
}

void print_table(const nlohmann::json& sizes) {
  std::printf("\nfloor: GetItems on the app's own connection (GDBus, as the walk's peers would "
              "call it);\nsd floor: the same call on the snapshot's own sd-bus pipeline; cpu: "
              "this thread's and the app's CPU per snapshot;\nmet: walk/snap >= 10 and "
              "snap/floor <= 5 (~300 nodes) or 3 (~3,000)\n");
  std::printf("%6s %8s %8s %7s %7s %9s %10s %9s %7s %7s %6s %4s\n", "nodes", "walk ms", "snap ms",
              "floor", "sd flr", "walk/snap", "snap/floor", "snap/sd", "cpu ms", "app ms", "calls",
              "met");
  for (const auto& size : sizes) {
    if (size.contains("error")) {
      std::printf("error: %s\n", size["error"].get<std::string>().c_str());
      continue;
    }
    std::printf("%6zu %8.1f %8.1f %7.1f %7.1f %8.1fx %9.2fx %8.2fx %7.1f %7.1f %6.0f %4s\n",
                size["nodes"].get<std::size_t>(), size["walk_ms"].get<double>(),
                size["snapshot_ms"].get<double>(), size["get_items_ms"].get<double>(),
                size["get_items_sd_bus_ms"].get<double>(), size["walk_over_snapshot"].get<double>(),
                size["snapshot_over_get_items"].get<double>(),
                size["snapshot_over_get_items_sd_bus"].get<double>(),
                size["snapshot_cpu_ms"].get<double>(), size["app_cpu_ms"].get<double>(),
                size["detail_calls"].get<double>(), size["met"].get<bool>() ? "yes" : "no");
  }
  std::printf("\nthrough companyosd: the snapshot request on its socket until the whole reply is "
              "read;\ndaemon: the JSON tree (--json --format tree); outline: what a person's "
              "`companyos snapshot` asks for\n");
  std::printf("%6s %8s %10s %10s %12s %13s %4s\n", "nodes", "snap ms", "daemon ms", "outline",
              "walk/daemon", "daemon/floor", "met");
  for (const auto& size : sizes) {
    if (size.contains("error")) continue;
    std::printf("%6zu %8.1f %10.1f %10.1f %11.1fx %12.2fx %4s\n",
                size["daemon_nodes"].get<std::size_t>(), size["snapshot_ms"].get<double>(),
                size["daemon_snapshot_ms"].get<double>(), size["daemon_outline_ms"].get<double>(),
                size["walk_over_daemon_snapshot"].get<double>(),
                size["daemon_snapshot_over_get_items"].get<double>(),
                size["met_via_daemon"].get<bool>() ? "yes" : "no");
  }
}

std::string default_fixture() {
  if (const char* build = std::getenv("COMPANYOS_BUILD_DIR")) {
    return std::string(build) + "/tests/fixtures/companyos-fixture-gtk3";
  }
  GCharPtr self(g_file_read_link("/proc/self/exe", nullptr));
  if (!self) return "companyos-fixture-gtk3";
  GCharPtr dir(g_path_get_dirname(self.get()));  // <build>/bench/a11y
  return std::string(dir.get()) + "/../../tests/fixtures/companyos-fixture-gtk3";
}

int usage(const char* program, int status) {
  std::fprintf(status ? stderr : stdout,
               "Usage: %s [--fixture PATH] [--daemon PATH] [--nodes N[,N...]] [--runs N] "
               "[--walk-runs N]\n"
               "Run inside scripts/desktop-session. Defaults: --nodes 300,3000 --runs 9 "
               "--walk-runs 3;\nthe fixture defaults to $COMPANYOS_BUILD_DIR/tests/fixtures/"
               "companyos-fixture-gtk3,\nthe daemon to the companyosd this was built with.\n",
               program);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  settings.fixture = default_fixture();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* value = nullptr;
    if (arg == "--help" || arg == "-h") return usage(argv[0], 0);
    if (arg == "--fixture" && (value = next())) {
      settings.fixture = value;
    } else if (arg == "--daemon" && (value = next())) {
      settings.daemon = value;
    } else if (arg == "--nodes" && (value = next())) {
      settings.node_targets.clear();
      std::unique_ptr<gchar*, decltype(&g_strfreev)> parts(g_strsplit(value, ",", -1), g_strfreev);
      for (gchar** part = parts.get(); *part; ++part) {
        settings.node_targets.push_back(std::atoi(*part));
      }
    } else if (arg == "--runs" && (value = next())) {
      settings.runs = std::max(1, std::atoi(value));
    } else if (arg == "--walk-runs" && (value = next())) {
      settings.walk_runs = std::max(1, std::atoi(value));
    } else {
      return usage(argv[0], 2);
    }
  }
  if (atspi_init() < 0) {
    std::cerr << "libatspi could not start (is this inside scripts/desktop-session?)\n";
    return 1;
  }
  a11y::Observer observer;
  Daemon daemon(settings.daemon);
  auto client = daemon.started() ? DaemonClient::connect(daemon.socket()) : std::nullopt;
  if (!client) {
    std::cerr << "companyosd did not start serving (" << settings.daemon << ")\n";
    return 1;
  }
  nlohmann::json sizes = nlohmann::json::array();
  for (int target : settings.node_targets) {
    sizes.push_back(bench_size(settings, observer, *client, target));
  }
  const nlohmann::json report = {{"benchmark", "a11y_snapshot"},
                                 {"runs", settings.runs},
                                 {"walk_runs", settings.walk_runs},
                                 {"sizes", sizes}};
  std::cout << report.dump(2) << "\n";
  print_table(sizes);
  const bool ok = std::all_of(sizes.begin(), sizes.end(),
                              [](const nlohmann::json& size) { return !size.contains("error"); });
  return ok ? 0 : 1;
}
