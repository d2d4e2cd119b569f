// Protocol benchmark: ping round trips on one connection, with a new connection per
// request, and the CLI's whole-process time for `companyos status`. Prints JSON, then a table.
// Usage: protocol_bench [--quick]
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/unique_fd.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using companyos::UniqueFd;

UniqueFd connect_to(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) return UniqueFd();
  return fd;
}

// One request, one reply line; false on any failure.
bool round_trip(int fd, const std::string& request, std::string& buffer) {
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) {
    return false;
  }
  char chunk[4096];
  for (;;) {
    auto nl = buffer.find('\n');
    if (nl != std::string::npos) {
      bool ok = buffer.find("\"ok\":true") < nl;
      buffer.erase(0, nl + 1);
      return ok;
    }
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
}

pid_t spawn(const std::vector<std::string>& argv, bool quiet) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  }
  pid_t pid = -1;
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  const int pings = quick ? 2000 : 50000;
  const int connections = quick ? 200 : 5000;
  const int cli_runs = quick ? 10 : 60;

  char pattern[] = "/tmp/companyos-bench-XXXXXX";
  const std::filesystem::path dir = ::mkdtemp(pattern);
  const std::string socket = (dir / "run/s").string();
  pid_t daemon = spawn({COMPANYOSD_PATH, "--socket", socket, "--db", (dir / "db").string(),
                        "--log-level", "warn"}, true);
  bool up = false;
  for (int i = 0; i < 500 && !up; ++i) {
    up = connect_to(socket).valid();
    if (!up) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!up) {
    std::cerr << "protocol_bench: daemon did not start\n";
    return 1;
  }

  const std::string ping = R"({"id":1,"method":"ping"})" "\n";
  // One connection.
  UniqueFd fd = connect_to(socket);
  std::string buffer;
  for (int i = 0; i < 200; ++i) round_trip(fd.get(), ping, buffer);  // warm-up
  auto t0 = Clock::now();
  int failures = 0;
  for (int i = 0; i < pings; ++i) failures += round_trip(fd.get(), ping, buffer) ? 0 : 1;
  double one_conn_s = std::chrono::duration<double>(Clock::now() - t0).count();

  // A new connection per request.
  t0 = Clock::now();
  for (int i = 0; i < connections; ++i) {
    UniqueFd c = connect_to(socket);
    std::string b;
    failures += (c.valid() && round_trip(c.get(), ping, b)) ? 0 : 1;
  }
  double new_conn_s = std::chrono::duration<double>(Clock::now() - t0).count();

  // The CLI as a whole process.
  std::vector<double> cli_ms;
  for (int i = 0; i < cli_runs; ++i) {
    auto start = Clock::now();
    pid_t pid = spawn({COMPANYOS_CLI_PATH, "--socket", socket, "status"}, true);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failures;
    cli_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }

  ::kill(daemon, SIGTERM);
  ::waitpid(daemon, nullptr, 0);
  std::filesystem::remove_all(dir);

  const double rt_one = pings / one_conn_s;
  const double rt_new = connections / new_conn_s;
  const double cli_median = median(cli_ms);
  nlohmann::json report = {
      {"benchmark", "protocol"},
      {"ping_round_trips_per_s_one_connection", static_cast<long>(rt_one)},
      {"ping_round_trips_per_s_new_connection", static_cast<long>(rt_new)},
      {"cli_status_ms_median", cli_median},
      {"cli_status_ms_min", *std::min_element(cli_ms.begin(), cli_ms.end())},
      {"cli_status_ms_max", *std::max_element(cli_ms.begin(), cli_ms.end())},
      {"samples", {{"pings", pings}, {"connections", connections}, {"cli_runs", cli_runs}}},
      {"failures", failures},
      {"targets", {{"ping_round_trips_per_s_one_connection", ">= 20000"}, {"cli_status_ms_median", "<= 10"}}},
      {"met", rt_one >= 20000 && cli_median <= 10},
  };
  std::cout << report.dump(2) << "\n\n";
  std::printf("%-44s %12s %10s\n", "measure", "value", "target");
  std::printf("%-44s %12.0f %10s\n", "ping round trips/s, one connection", rt_one, ">= 20000");
  std::printf("%-44s %12.0f %10s\n", "ping round trips/s, new connection each", rt_new, "-");
  std::printf("%-44s %12.2f %10s\n", "companyos status, whole process (median ms)", cli_median, "<= 10");
  return failures == 0 ? 0 : 1;
}
