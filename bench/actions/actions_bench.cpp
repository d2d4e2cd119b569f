// Actions benchmark, run inside scripts/desktop-session: starts a daemon and the GTK3
// fixture with rows (~300 nodes), then times whole CLI processes from start to reply:
//   by ref       `companyos set-value REF TEXT` (verified by read-back), `companyos click REF`
//   by selector  the same with --app --role --name
//   naive        what a client without refs does: `snapshot`, `find`, then the action by
//                the ref find printed — for set-value and again for click.
// Every round is judged from outside: the fixture's effect file must hold the text.
// Prints medians as one JSON object, then a short table.
// Usage: actions_bench [--quick] [--runs N] [--nodes N]
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/unique_fd.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using companyos::UniqueFd;
using nlohmann::json;

constexpr int kFixedNodes = 22;  // the fixture's nodes besides its rows
constexpr int kNodesPerRow = 4;  // box, label, button, entry
constexpr double kSetValueTargetMs = 25;

struct Options {
  int runs = 25;
  int nodes = 300;
};

struct Run {
  int status = -1;
  std::string out;
  double ms = 0;
  json envelope;  // parsed stdout, when it is JSON
};

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

pid_t spawn(const std::vector<std::string>& argv, int stdout_fd) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdout_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  }
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// One whole process, timed from spawn to exit, stdout captured.
Run run(const std::vector<std::string>& argv) {
  Run result;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return result;
  UniqueFd read_end(fds[0]);
  UniqueFd write_end(fds[1]);
  const auto start = Clock::now();
  const pid_t pid = spawn(argv, write_end.get());
  write_end = UniqueFd();
  if (pid < 0) return result;
  char chunk[8192];
  for (ssize_t n; (n = ::read(read_end.get(), chunk, sizeof chunk)) > 0;) {
    result.out.append(chunk, static_cast<std::size_t>(n));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.envelope = json::parse(result.out, nullptr, false);
  return result;
}

std::optional<std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The outside oracle: the effect file holds exactly `text` within two seconds.
bool effect_is(const std::filesystem::path& path, const std::string& text) {
  const auto until = Clock::now() + std::chrono::seconds(2);
  while (Clock::now() < until) {
    if (read_file(path) == text) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

// The daemon's own time for the action, from its reply.
double daemon_ms(const Run& r) {
  if (!r.envelope.is_object() || !r.envelope.value("ok", false)) return 0;
  return r.envelope["data"].value("ms", 0.0);
}

std::string delivery_of(const Run& r) {
  if (!r.envelope.is_object() || !r.envelope.value("ok", false)) return "";
  return r.envelope["data"].value("delivery", "");
}

class Bench {
 public:
  Bench(std::string socket, std::string app, std::filesystem::path effect)
      : socket_(std::move(socket)), app_(std::move(app)), effect_(std::move(effect)) {}

  Run cli(std::vector<std::string> args) const {
    args.insert(args.begin(), {COMPANYOS_CLI_PATH, "--socket", socket_, "--json"});
    return run(args);
  }

  std::vector<std::string> selector(const std::string& role, const std::string& name) const {
    return {"--app", app_, "--role", role, "--name", name};
  }

  // The ref `find` prints for the one element with this role and name, and the run.
  std::pair<std::string, Run> find(const std::string& role, const std::string& name) const {
    Run found = cli({"find", "--app", app_, "--role", role, "--name", name});
    std::string ref;
    if (found.status == 0 && found.envelope["data"]["count"] == 1) {
      ref = found.envelope["data"]["elements"][0]["ref"].get<std::string>();
    }
    return {ref, found};
  }

  // One set-value then click round; true when every reply and the effect file are right.
  bool round(const std::string& text, const std::vector<std::string>& entry,
             const std::vector<std::string>& button, double& set_ms, double& click_ms,
             double& daemon_set_ms) const {
    std::filesystem::remove(effect_);
    std::vector<std::string> set_args = {"set-value"};
    set_args.insert(set_args.end(), entry.begin(), entry.end());
    set_args.push_back(text);
    const Run set = cli(set_args);
    std::vector<std::string> click_args = {"click"};
    click_args.insert(click_args.end(), button.begin(), button.end());
    const Run click = cli(click_args);
    set_ms = set.ms;
    click_ms = click.ms;
    daemon_set_ms = daemon_ms(set);
    return set.status == 0 && delivery_of(set) == "delivered_verified" && click.status == 0 &&
           delivery_of(click) == "delivered_unverified" && effect_is(effect_, text);
  }

  // The naive client: snapshot, find, act — for each of the two actions.
  bool naive_round(const std::string& text, double& set_ms, double& click_ms, double& daemon_set_ms) const {
    std::filesystem::remove(effect_);
    const Run snap1 = cli({"snapshot", "--app", app_});
    const auto [entry, find1] = find("text", "Text");
    const Run set = cli({"set-value", entry, text});
    const Run snap2 = cli({"snapshot", "--app", app_});
    const auto [button, find2] = find("push button", "Write effect");
    const Run click = cli({"click", button});
    set_ms = snap1.ms + find1.ms + set.ms;
    daemon_set_ms = daemon_ms(set);
    click_ms = snap2.ms + find2.ms + click.ms;
    return snap1.status == 0 && !entry.empty() && delivery_of(set) == "delivered_verified" &&
           snap2.status == 0 && !button.empty() && delivery_of(click) == "delivered_unverified" &&
           effect_is(effect_, text);
  }

 private:
  std::string socket_;
  std::string app_;
  std::filesystem::path effect_;
};

struct Series {
  std::vector<double> set, click, both, daemon_set;
  int failures = 0;
  json summary() const {
    return {{"set_value_ms_median", median(set)},
            {"click_ms_median", median(click)},
            {"set_value_then_click_ms_median", median(both)},
            {"set_value_ms_min", set.empty() ? 0 : *std::min_element(set.begin(), set.end())},
            {"set_value_ms_max", set.empty() ? 0 : *std::max_element(set.begin(), set.end())},
            {"daemon_set_value_ms_median", median(daemon_set)},
            {"failures", failures}};
  }
};

bool parse_options(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      options.runs = 5;
    } else if (arg == "--runs" && i + 1 < argc) {
      options.runs = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--nodes" && i + 1 < argc) {
      options.nodes = std::max(kFixedNodes, std::atoi(argv[++i]));
    } else {
      std::cerr << "Usage: actions_bench [--quick] [--runs N] [--nodes N]   (inside scripts/desktop-session)\n"
                   "Times `companyos set-value` then `companyos click` on the GTK3 fixture (~N nodes):\n"
                   "by ref, by selector, and as snapshot + find + action. Prints JSON, then a table.\n";
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, options)) return 2;
  if (std::getenv("DISPLAY") == nullptr) {
    std::cerr << "actions_bench: no DISPLAY; run it inside scripts/desktop-session\n";
    return 2;
  }
  std::string pattern = (std::filesystem::temp_directory_path() / "companyos-actions-bench-XXXXXX").string();
  const std::filesystem::path dir = ::mkdtemp(pattern.data());
  const std::string socket = (dir / "run/s").string();
  const std::string app = "actbench" + std::to_string(::getpid());
  const std::filesystem::path effect = dir / "effect";
  const int rows = (options.nodes - kFixedNodes + kNodesPerRow - 1) / kNodesPerRow;

  const pid_t daemon = spawn({COMPANYOSD_PATH, "--socket", socket, "--db", (dir / "db").string(),
                              "--log-level", "warn"}, -1);
  const pid_t fixture = spawn({COMPANYOS_FIXTURE_PATH, "--class", app, "--title", app, "--effect",
                               effect.string(), "--rows", std::to_string(rows)}, -1);
  Bench bench(socket, app, effect);
  int failures = 0;
  json report;
  // The fixture joins the bus 0.2–0.6 s after it starts; wait for a snapshot of it.
  Run snapshot;
  for (int i = 0; i < 300; ++i) {
    snapshot = bench.cli({"snapshot", "--app", app});
    if (snapshot.status == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (daemon < 0 || fixture < 0 || snapshot.status != 0) {
    std::cerr << "actions_bench: the daemon or the fixture did not come up\n";
    failures = 1;
  } else {
    // The daemon keeps 8 snapshots a window, and the naive rounds take 4 each: refs are
    // taken afresh (untimed) before each round by ref, as an agent would after a snapshot.
    const auto fresh_refs = [&bench] {
      return std::pair{bench.find("text", "Text").first, bench.find("push button", "Write effect").first};
    };
    auto [entry, button] = fresh_refs();
    Series by_ref, by_selector, naive;
    const auto entry_selector = bench.selector("text", "Text");
    const auto button_selector = bench.selector("push button", "Write effect");
    double set = 0, click = 0, daemon_set = 0;
    for (int i = 0; i < 3; ++i) bench.round("warm-up", {entry}, {button}, set, click, daemon_set);
    for (int i = 0; i < options.runs; ++i) {
      const std::string text = "bench " + std::to_string(i) + ": $x; \"q\" ü";
      auto record = [&](Series& series, bool ok) {
        series.failures += ok ? 0 : 1;
        series.set.push_back(set);
        series.click.push_back(click);
        series.both.push_back(set + click);
        series.daemon_set.push_back(daemon_set);
      };
      std::tie(entry, button) = fresh_refs();
      record(by_ref, bench.round(text, {entry}, {button}, set, click, daemon_set));
      record(by_selector, bench.round(text + " s", entry_selector, button_selector, set, click, daemon_set));
      record(naive, bench.naive_round(text + " n", set, click, daemon_set));
    }
    failures = by_ref.failures + by_selector.failures + naive.failures;
    const double target = median(by_ref.set);
    report = {{"benchmark", "actions"},
              {"nodes", snapshot.envelope["data"]["node_count"]},
              {"runs", options.runs},
              {"by_ref", by_ref.summary()},
              {"by_selector", by_selector.summary()},
              {"naive_snapshot_find_action", naive.summary()},
              {"naive_over_ref_set_value_then_click", median(naive.both) / std::max(1e-9, median(by_ref.both))},
              {"targets", {{"by_ref.set_value_ms_median", "<= 25"}}},
              {"met", target <= kSetValueTargetMs && failures == 0},
              {"failures", failures}};
    std::cout << report.dump(2) << "\n\n";
    std::printf("%s nodes, %d runs, whole CLI processes, medians in ms\n",
                report["nodes"].dump().c_str(), options.runs);
    std::printf("%-30s %10s %8s %14s %12s\n", "client", "set-value", "click", "set+click", "daemon set");
    for (const auto& [name, series] : {std::pair<const char*, const Series*>{"by ref", &by_ref},
                                       {"by selector", &by_selector},
                                       {"naive: snapshot+find+action", &naive}}) {
      std::printf("%-30s %10.1f %8.1f %14.1f %12.1f\n", name, median(series->set), median(series->click),
                  median(series->both), median(series->daemon_set));
    }
    std::printf("target: set-value by ref with read-back <= %.0f ms median: %s\n", kSetValueTargetMs,
                target <= kSetValueTargetMs ? "met" : "MISSED");
    if (failures) std::printf("%d round(s) failed their replies or the effect file\n", failures);
  }
  if (fixture > 0) ::kill(fixture, SIGTERM);
  if (daemon > 0) ::kill(daemon, SIGTERM);
  if (fixture > 0) ::waitpid(fixture, nullptr, 0);
  if (daemon > 0) ::waitpid(daemon, nullptr, 0);
  std::filesystem::remove_all(dir);
  return failures == 0 ? 0 : 1;
}
