// Scheduler idle benchmark: companyosd holding 1,000 scheduled automations ("0 3 * * *" in
// zones whose next 03:00 is after the measurement) is left alone, and its wake-ups are
// counted: the sum of voluntary and nonvoluntary context switches over every thread
// (/proc/<pid>/task/*/status) before and after. One run waits for a person's approval all
// along, and the worker pool has served a request. Target: no wake-up between triggers, i.e.
// none at all, since no trigger falls in the window. Each thread is listed by name so a
// periodic wake-up can be traced: the scheduler's would be on the main loop thread, a waiting
// run's on its own thread. Prints JSON, then a table.
// Usage: scheduler_idle_bench [--quick]   (60 s; 10 s with --quick)
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/unique_fd.h"
#include "schedule/schedule.h"

extern char** environ;

namespace {

using companyos::UniqueFd;
namespace fs = std::filesystem;

constexpr int kAutomations = 1000;
constexpr std::string_view kSchedule = "0 3 * * *";
constexpr std::string_view kZones[] = {
    "UTC",           "Europe/Berlin",      "Europe/London",   "America/New_York",
    "America/Denver", "America/Los_Angeles", "Asia/Tokyo",      "Asia/Kolkata",
    "Asia/Jakarta",  "Australia/Sydney",   "Australia/Lord_Howe", "Pacific/Auckland",
    "America/Sao_Paulo", "Africa/Johannesburg", "Asia/Kathmandu", "Pacific/Chatham",
    "America/St_Johns", "Asia/Tehran",     "Europe/Moscow",   "Pacific/Honolulu",
};

UniqueFd connect_to(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) return UniqueFd();
  return fd;
}

// Sends one request line and returns the reply line's JSON (null on failure).
nlohmann::json call(int fd, const nlohmann::json& request, std::string& buffer) {
  const std::string line = request.dump() + "\n";
  if (::send(fd, line.data(), line.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(line.size())) return nullptr;
  char chunk[65536];
  for (;;) {
    if (auto nl = buffer.find('\n'); nl != std::string::npos) {
      auto reply = nlohmann::json::parse(buffer.substr(0, nl), nullptr, false);
      buffer.erase(0, nl + 1);
      return reply.is_discarded() ? nlohmann::json(nullptr) : reply;
    }
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return nullptr;
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
}

pid_t spawn(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0) pid = -1;
  return pid;
}

struct ThreadSwitches {
  std::string name;
  std::int64_t switches = 0;
};

std::string read_first_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// By thread id: name and voluntary + nonvoluntary context switches so far.
std::map<int, ThreadSwitches> sample(pid_t pid) {
  std::map<int, ThreadSwitches> out;
  std::error_code ec;
  for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    ThreadSwitches entry;
    entry.name = read_first_line(task.path() / "comm");
    std::ifstream status(task.path() / "status");
    std::string line;
    while (std::getline(status, line)) {
      for (std::string_view key : {"voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:"}) {
        if (line.starts_with(key)) entry.switches += std::stoll(line.substr(key.size()));
      }
    }
    out[std::stoi(task.path().filename().string())] = entry;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  const std::chrono::seconds window{quick ? 10 : 60};

  // Only zones whose next 03:00 is well after the window: no trigger may fall inside it.
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
  const std::int64_t quiet_until = now + window.count() + 300;
  std::vector<std::string> zones;
  std::int64_t earliest = 0;
  for (auto zone : kZones) {
    auto next = companyos::schedule::next_occurrence(kSchedule, zone, now);
    if (!next || *next <= quiet_until) continue;
    zones.emplace_back(zone);
    if (earliest == 0 || *next < earliest) earliest = *next;
  }

  std::string pattern = (fs::temp_directory_path() / "companyos-bench-XXXXXX").string();
  const fs::path dir = ::mkdtemp(pattern.data());
  const std::string socket = (dir / "run/s").string();
  pid_t daemon = spawn({COMPANYOSD_PATH, "--socket", socket, "--db", (dir / "db").string(),
                        "--log-level", "warn"});
  UniqueFd fd;
  for (int i = 0; i < 500 && !fd.valid(); ++i) {
    fd = connect_to(socket);
    if (!fd.valid()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!fd.valid() || zones.empty()) {
    std::cerr << "scheduler_idle_bench: " << (zones.empty() ? "no quiet zone" : "daemon did not start") << "\n";
    if (daemon > 0) ::kill(daemon, SIGTERM);
    return 1;
  }

  std::string buffer;
  int failures = 0;
  for (int i = 0; i < kAutomations; ++i) {
    nlohmann::json definition = {
        {"name", "idle " + std::to_string(i)},
        {"schedule", kSchedule},
        {"timezone", zones[static_cast<std::size_t>(i) % zones.size()]},
        {"actions", {{{"type", "command"}, {"executable", "true"}, {"cwd", "/"}}}}};
    auto reply = call(fd.get(), {{"id", i}, {"method", "automation.create"}, {"params", {{"definition", definition}}}},
                      buffer);
    failures += reply.value("ok", false) ? 0 : 1;
  }
  auto listed = call(fd.get(), {{"id", "list"}, {"method", "automation.list"}}, buffer);
  int scheduled = 0;
  for (const auto& row : listed["data"]["automations"]) scheduled += row["nextRunAt"].is_number() ? 1 : 0;
  // A request served on a worker, as every scheduled trigger is: the pool's threads exist
  // and idle during the window, as they do in a daemon that has fired a trigger.
  call(fd.get(), {{"id", "stop"}, {"method", "automation.stop"}, {"params", {{"id", 1}}}}, buffer);
  // One run waits for a person's approval through the window (automation 1 at level 2,
  // started by hand): its thread must sleep until its deadline too.
  call(fd.get(), {{"id", "raise"}, {"method", "automation.raise"}, {"params", {{"id", 1}}}}, buffer);
  call(fd.get(), {{"id", "start"}, {"method", "automation.start"}, {"params", {{"id", 1}}}}, buffer);
  // The run asks at its first step, once its thread gets there.
  bool waiting_run = false;
  for (int i = 0; i < 500 && !waiting_run; ++i) {
    auto approvals = call(fd.get(), {{"id", "approvals"}, {"method", "approvals"}}, buffer);
    waiting_run = !approvals["data"]["approvals"].empty();
    if (!waiting_run) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  failures += waiting_run ? 0 : 1;
  // The connection stays open but silent, as an idle client's would.

  // Settle: the create requests' worker and log activity ends before counting starts.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const auto before = sample(daemon);
  std::this_thread::sleep_for(window);
  const auto after = sample(daemon);

  fd.reset();
  ::kill(daemon, SIGTERM);
  ::waitpid(daemon, nullptr, 0);
  fs::remove_all(dir);

  std::int64_t total = 0;
  std::int64_t main_thread = 0;
  nlohmann::json threads = nlohmann::json::array();
  for (const auto& [tid, end] : after) {
    const auto start = before.find(tid);
    const std::int64_t delta = end.switches - (start == before.end() ? 0 : start->second.switches);
    total += delta;
    if (tid == daemon) main_thread = delta;
    threads.push_back({{"tid", tid}, {"name", end.name}, {"main_loop", tid == daemon},
                       {"wakeups", delta}, {"new_in_window", start == before.end()}});
  }
  // A thread that ended in the window woke up at least to end (GLib retires a worker thread
  // that stayed idle, once); its last count is gone with it, so it is listed apart.
  nlohmann::json gone = nlohmann::json::array();
  for (const auto& [tid, start] : before) {
    if (!after.contains(tid)) gone.push_back({{"tid", tid}, {"name", start.name}});
  }

  const bool met = failures == 0 && scheduled == kAutomations && total == 0;
  nlohmann::json report = {
      {"benchmark", "scheduler_idle"},
      {"automations", kAutomations},
      {"scheduled", scheduled},
      {"zones", zones.size()},
      {"seconds_until_first_trigger_after_start", earliest - now},
      {"runs_waiting_for_approval", waiting_run ? 1 : 0},
      {"window_s", window.count()},
      {"wakeups_total", total},
      {"wakeups_main_loop", main_thread},
      {"threads", threads},
      {"threads_ended_in_window", gone},
      {"failures", failures},
      {"targets", {{"wakeups_total", "0 (nothing in the daemon polls: no trigger falls in the window)"}}},
      {"met", met},
  };
  std::cout << report.dump(2) << "\n\n";
  std::printf("%-44s %10s %10s\n", "measure", "value", "target");
  std::printf("%-44s %10d %10s\n", "automations scheduled (nextRunAt set)", scheduled, "1000");
  std::printf("%-44s %10lld %10s\n", "wake-ups, main loop thread", static_cast<long long>(main_thread), "0");
  std::printf("%-44s %10lld %10s\n", ("wake-ups, all threads, " + std::to_string(window.count()) + " s").c_str(),
              static_cast<long long>(total), "0");
  for (const auto& thread : threads) {
    std::printf("  thread %-8d %-27s %10lld\n", thread["tid"].get<int>(),
                thread["name"].get<std::string>().c_str(), static_cast<long long>(thread["wakeups"].get<std::int64_t>()));
  }
  for (const auto& thread : gone) {
    std::printf("  thread %-8d %-27s %10s\n", thread["tid"].get<int>(), thread["name"].get<std::string>().c_str(),
                "ended");
  }
  return met ? 0 : 1;
}
