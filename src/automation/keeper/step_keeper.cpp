#include "automation/step_keeper.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <system_error>

#include "core/proc_files.h"

namespace companyos::automation {
namespace {

// A fork bomb can refill the keeper's children while it kills them; each round kills all it
// sees, and what they had started becomes the keeper's for the next round.
constexpr int kMaxEndRounds = 1000;

bool executable(const std::filesystem::path& path) { return ::access(path.c_str(), X_OK) == 0; }

// The keeper's living children and unreaped zombies, from /proc: what the command started and
// left (reparented here, as the keeper is their subreaper) and the command itself. A process
// that ends while /proc is read is skipped: it is no child of ours then, or a zombie the next
// round finds.
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  for (const pid_t pid : listed_pids()) {
    const auto line = read_small_file("/proc/" + std::to_string(pid) + "/stat", 4096);
    if (line && parent_in_stat(*line) == parent) children.push_back(pid);
  }
  return children;
}

class Keeper {
 public:
  explicit Keeper(const KeeperArguments& arguments) : arguments_(arguments) {}

  int run() {
    sigemptyset(&handled_);
    for (const int signal : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, kKeeperEndNow}) {
      sigaddset(&handled_, signal);
    }
    sigset_t before{};
    ::sigprocmask(SIG_BLOCK, &handled_, &before);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    ::prctl(PR_SET_PDEATHSIG, kKeeperEndNow);
    // Gone before the death signal was set: it would never come, and nobody waits for us.
    if (::getppid() != arguments_.parent) return kKeeperCannotStart;
    if (!start(before)) return kKeeperCannotStart;
    watch();
    end_every_descendant();
    return exit_as_the_command();
  }

 private:
  bool start(const sigset_t& before) {
    std::array<int, 2> report{};
    if (::pipe2(report.data(), O_CLOEXEC) != 0) return say_cannot_start(errno);
    std::vector<char*> argv;
    for (const std::string& word : arguments_.argv) argv.push_back(const_cast<char*>(word.c_str()));
    argv.push_back(nullptr);
    command_ = ::fork();
    if (command_ < 0) return say_cannot_start(errno);
    if (command_ == 0) {
      // Only async-signal-safe calls until execv: this child has no other thread, but keep
      // the rule of fork.
      ::setpgid(0, 0);
      ::sigprocmask(SIG_SETMASK, &before, nullptr);
      ::execv(arguments_.program.c_str(), argv.data());
      const int error = errno;
      [[maybe_unused]] const ssize_t written = ::write(report[1], &error, sizeof error);
      ::_exit(kKeeperCannotStart);
    }
    ::setpgid(command_, command_);  // also here, so no signal below finds it in our group
    ::close(report[1]);
    int error = 0;
    ssize_t got = 0;
    do {
      got = ::read(report[0], &error, sizeof error);
    } while (got < 0 && errno == EINTR);
    ::close(report[0]);
    if (got == static_cast<ssize_t>(sizeof error)) say_cannot_start(error);
    return true;
  }

  bool say_cannot_start(int error) const {
    const std::string message = std::string(kStepKeeperName) + ": cannot start '" + arguments_.program +
                                "': " + std::strerror(error) + "\n";
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, message.data(), message.size());
    return false;
  }

  // Until the command exits or the daemon says "end now".
  void watch() {
    while (!command_status_) {
      siginfo_t info{};
      const int signal = ::sigwaitinfo(&handled_, &info);
      if (signal == SIGCHLD) {
        reap_what_ended();
      } else if (signal == kKeeperEndNow) {
        return;
      } else if (signal > 0) {
        ::kill(-command_, signal);
      }
    }
  }

  void reap_what_ended() {
    int status = 0;
    pid_t pid = 0;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) note_reaped(pid, status);
  }

  void note_reaped(pid_t pid, int status) {
    if (pid == command_) command_status_ = status;
  }

  void end_every_descendant() {
    // Its group at once, while its pid still names it (unreaped, or not yet exited).
    if (!command_status_) ::kill(-command_, SIGKILL);
    for (int round = 0; round < kMaxEndRounds; ++round) {
      reap_what_ended();
      const std::vector<pid_t> children = children_of(::getpid());
      if (children.empty()) return;
      for (const pid_t child : children) ::kill(child, SIGKILL);
      for (const pid_t child : children) {
        int status = 0;
        pid_t reaped = -1;
        do {
          reaped = ::waitpid(child, &status, 0);
        } while (reaped < 0 && errno == EINTR);
        if (reaped == child) note_reaped(child, status);
      }
    }
  }

  int exit_as_the_command() const {
    if (!command_status_) return kKeeperCannotStart;
    const int status = *command_status_;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    const int signal = WTERMSIG(status);
    // The same end for whoever waits on the keeper, without a core file of the keeper.
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    std::signal(signal, SIG_DFL);
    sigset_t just_that{};
    sigemptyset(&just_that);
    sigaddset(&just_that, signal);
    ::sigprocmask(SIG_UNBLOCK, &just_that, nullptr);
    ::raise(signal);
    return 128 + signal;
  }

  const KeeperArguments& arguments_;
  sigset_t handled_{};
  pid_t command_ = -1;
  std::optional<int> command_status_;
};

}  // namespace

std::optional<std::filesystem::path> find_step_keeper() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  const std::filesystem::path directory = self.parent_path();
  for (const auto& candidate : {directory / kStepKeeperName,
                                (directory / ".." / "libexec" / "companyos" / kStepKeeperName).lexically_normal()}) {
    if (executable(candidate)) return candidate;
  }
  return std::nullopt;
}

std::vector<std::string> keeper_command_line(const std::filesystem::path& keeper,
                                             const KeeperArguments& arguments) {
  std::vector<std::string> words = {keeper.string(), "--parent", std::to_string(arguments.parent), "--",
                                    arguments.program};
  words.insert(words.end(), arguments.argv.begin(), arguments.argv.end());
  return words;
}

Result<KeeperArguments> parse_keeper_arguments(const std::vector<std::string_view>& words) {
  const auto usage = [](const std::string& what) {
    return make_error(ErrorCode::kInvalidArgs, what, {},
                      "usage: " + std::string(kStepKeeperName) + " --parent PID -- PROGRAM ARGV0 [ARG...]");
  };
  if (words.size() < 2 || words[0] != "--parent") return usage("--parent PID comes first");
  const auto parent = parse_pid(words[1]);
  if (!parent) return usage("--parent needs a positive pid, not '" + std::string(words[1]) + "'");
  if (words.size() < 3 || words[2] != "--") return usage("'--' comes after the parent's pid");
  if (words.size() < 4 || words[3].empty() || words[3].front() != '/') {
    return usage("the program must be an absolute path");
  }
  if (words.size() < 5) return usage("the program's argv[0] is missing");
  KeeperArguments arguments;
  arguments.parent = *parent;
  arguments.program = std::string(words[3]);
  arguments.argv.assign(words.begin() + 4, words.end());
  return arguments;
}

std::optional<pid_t> parent_in_stat(std::string_view stat_line) {
  // The command name ends at the last ')': it may hold anything else.
  const auto name_end = stat_line.rfind(')');
  if (name_end == std::string_view::npos || stat_line.find('(') > name_end) return std::nullopt;
  std::string_view rest = stat_line.substr(name_end + 1);
  // " S ppid …"
  if (rest.size() < 4 || rest[0] != ' ' || rest[2] != ' ') return std::nullopt;
  rest.remove_prefix(3);
  const auto space = rest.find(' ');
  const std::string_view field = rest.substr(0, space);
  pid_t parent = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), parent);
  if (field.empty() || error != std::errc() || end != field.data() + field.size() || parent < 0) {
    return std::nullopt;
  }
  return parent;
}

int run_step_keeper(const KeeperArguments& arguments) { return Keeper(arguments).run(); }

}  // namespace companyos::automation
