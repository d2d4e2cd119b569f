#include "automation/step_child.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "automation/step_keeper.h"

namespace companyos::automation {
namespace {

using std::chrono::milliseconds;

// How long a keeper told to end now may take to kill and reap what its command left.
constexpr milliseconds kKeeperEndLimit{5000};

// posix_spawn reports why the child could not start; the checks before it make most of these
// unlikely, but the file system may change in between.
Error spawn_error(Error error, const std::string& cwd) {
  error.details["cwd"] = cwd;
  switch (error.details.value("errno", 0)) {
    case ENOENT:
    case ENOTDIR:
      error.code = ErrorCode::kNotFound;
      break;
    case EACCES:
    case EPERM:
      error.code = ErrorCode::kPermDenied;
      break;
    case ENOEXEC:
    case E2BIG:
      error.code = ErrorCode::kInvalidArgs;
      break;
    default:
      break;  // as spawn_process said
  }
  return error;
}

// Through syscall(2) because glibc 2.36's <sys/pidfd.h> lacks C linkage for C++.
int open_exit_signal(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

}  // namespace

Status check_step_cwd(const std::string& cwd) {
  if (cwd.empty() || cwd.front() != '/' || cwd.find('\0') != std::string::npos) {
    return make_error(ErrorCode::kInvalidArgs, "cwd '" + cwd + "' must be an absolute path",
                      {{"cwd", cwd}}, "write the working directory as an absolute path");
  }
  struct stat info {};
  if (::stat(cwd.c_str(), &info) != 0) {
    if (errno == EACCES) {
      return make_error(ErrorCode::kPermDenied, "cwd '" + cwd + "' cannot be reached",
                        {{"cwd", cwd}});
    }
    return make_error(ErrorCode::kNotFound, "cwd '" + cwd + "' does not exist", {{"cwd", cwd}});
  }
  if (!S_ISDIR(info.st_mode)) {
    return make_error(ErrorCode::kInvalidArgs, "cwd '" + cwd + "' is not a directory",
                      {{"cwd", cwd}});
  }
  return ok_status();
}

Result<RecordedStep> RecordedStep::open(StepProcessRecord* groups, std::int64_t run_id) {
  if (groups == nullptr) return RecordedStep(nullptr, std::nullopt);
  if (groups->keeper().empty()) {
    return make_error(ErrorCode::kInternal,
                      "steps cannot start programs: " + std::string(kStepKeeperName) + " is not installed", {},
                      "reinstall companyos: " + std::string(kStepKeeperName) +
                          " belongs beside companyosd or in ../libexec/companyos from it");
  }
  auto token = groups->add(run_id);
  if (!token) return std::move(token).take_error();
  return RecordedStep(groups, std::move(*token));
}

RecordedStep::RecordedStep(RecordedStep&& other) noexcept
    : groups_(std::exchange(other.groups_, nullptr)), token_(std::exchange(other.token_, std::nullopt)) {}

RecordedStep::~RecordedStep() {
  if (groups_ != nullptr && token_) groups_->end(*token_);
}

std::filesystem::path RecordedStep::keeper() const {
  return groups_ != nullptr ? groups_->keeper() : std::filesystem::path();
}

Result<pid_t> spawn_step_child(const std::string& program, const std::string& argv0,
                               const std::vector<std::string>& arguments,
                               const std::vector<std::string>& environment, const std::string& cwd,
                               const StepChildStreams& streams, const std::filesystem::path& keeper) {
  KeeperArguments command;
  command.parent = ::getpid();
  command.program = program;
  command.argv.reserve(arguments.size() + 1);
  command.argv.push_back(argv0);
  command.argv.insert(command.argv.end(), arguments.begin(), arguments.end());
  SpawnRequest request;
  if (keeper.empty()) {
    request.program = program;
    request.argv = std::move(command.argv);
  } else {
    request.program = keeper.string();
    request.argv = keeper_command_line(keeper, command);
  }
  request.environment = environment;
  request.cwd = cwd;
  request.stdin_fd = streams.stdin_fd;
  request.stdout_fd = streams.stdout_fd;
  request.stderr_fd = streams.stderr_fd;
  auto pid = spawn_process(request);
  if (!pid) return spawn_error(std::move(pid).take_error(), cwd);
  return pid;
}

StepChild::StepChild(pid_t pid, bool kept, const Clock& clock)
    : pid_(pid), kept_(kept), clock_(clock), exit_signal_(open_exit_signal(pid)) {}

bool StepChild::has_exited() {
  if (reaped_elsewhere_) return true;
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0) {
    return info.si_pid == pid_;
  }
  if (errno == EINTR) return false;
  // ECHILD: someone else reaped it; its pid may already be reused, so no more signals.
  reaped_elsewhere_ = true;
  return true;
}

void StepChild::terminate(milliseconds grace, const Wait& wait) {
  if (reaped_elsewhere_) return;
  ::kill(-pid_, SIGTERM);
  const auto give_up = clock_.steady() + grace;
  while (!has_exited()) {
    const auto now = clock_.steady();
    if (now >= give_up) return;
    wait(give_up - now);
  }
}

void StepChild::finish(const Wait& wait) {
  if (kept_ && !has_exited()) {
    ::kill(pid_, kKeeperEndNow);
    const auto give_up = clock_.steady() + kKeeperEndLimit;
    while (!has_exited() && clock_.steady() < give_up) wait(give_up - clock_.steady());
  }
  if (reaped_elsewhere_) return;
  ::kill(-pid_, SIGKILL);
  int status = 0;
  pid_t reaped = -1;
  do {
    reaped = ::waitpid(pid_, &status, 0);
  } while (reaped < 0 && errno == EINTR);
  if (reaped != pid_) return;  // reaped elsewhere: the status is unknown
  if (WIFEXITED(status)) exit_status_ = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) signal_ = WTERMSIG(status);
}

}  // namespace companyos::automation
