#include "core/process_spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <utility>

extern char** environ;

namespace companyos {
namespace {

struct SpawnFileActions {
  posix_spawn_file_actions_t actions;
  SpawnFileActions() { posix_spawn_file_actions_init(&actions); }
  ~SpawnFileActions() { posix_spawn_file_actions_destroy(&actions); }
  SpawnFileActions(const SpawnFileActions&) = delete;
  SpawnFileActions& operator=(const SpawnFileActions&) = delete;
};

struct SpawnAttributes {
  posix_spawnattr_t attributes;
  SpawnAttributes() { posix_spawnattr_init(&attributes); }
  ~SpawnAttributes() { posix_spawnattr_destroy(&attributes); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
};

Error spawn_error(const std::string& program, int error_number) {
  return make_error(ErrorCode::kInternal,
                    "cannot start '" + program + "': " + std::strerror(error_number),
                    {{"program", program}, {"errno", error_number}});
}

bool holds_nul(const std::string& text) { return text.find('\0') != std::string::npos; }

Status check_request(const SpawnRequest& request) {
  if (request.program.empty()) return make_error(ErrorCode::kInvalidArgs, "no program to run");
  auto refuse_nul = [](const std::string& what) {
    return make_error(ErrorCode::kInvalidArgs, what + " holds a NUL byte");
  };
  if (holds_nul(request.program)) return refuse_nul("the program");
  for (std::size_t index = 0; index < request.argv.size(); ++index) {
    if (holds_nul(request.argv[index])) return refuse_nul("argument " + std::to_string(index));
  }
  if (request.environment) {
    for (const std::string& entry : *request.environment) {
      if (holds_nul(entry)) return refuse_nul("an environment entry");
    }
  }
  if (holds_nul(request.cwd)) return refuse_nul("the cwd");
  for (int fd : {request.stdin_fd, request.stdout_fd, request.stderr_fd}) {
    if (fd < kNullDevice) {
      return make_error(ErrorCode::kInvalidArgs, "bad descriptor " + std::to_string(fd));
    }
  }
  return ok_status();
}

// The NULL-terminated array exec wants.
std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (const std::string& s : strings) pointers.push_back(const_cast<char*>(s.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

// 0–2 as asked, everything else closed; the first failure's errno, or 0.
int add_file_actions(posix_spawn_file_actions_t& actions, const SpawnRequest& request) {
  // The cwd first: a relative program path is then found from it, as exec in the child would.
  if (!request.cwd.empty()) {
    if (int failed = posix_spawn_file_actions_addchdir_np(&actions, request.cwd.c_str())) {
      return failed;
    }
  }
  const std::array<std::pair<int, int>, 3> streams{{{request.stdin_fd, STDIN_FILENO},
                                                    {request.stdout_fd, STDOUT_FILENO},
                                                    {request.stderr_fd, STDERR_FILENO}}};
  for (const auto& [from, to] : streams) {
    const int failed =
        from == kNullDevice
            ? posix_spawn_file_actions_addopen(&actions, to, "/dev/null",
                                               to == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            : posix_spawn_file_actions_adddup2(&actions, from, to);
    if (failed != 0) return failed;
  }
  return posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
}

int set_attributes(posix_spawnattr_t& attributes, bool new_process_group) {
  sigset_t none;
  sigemptyset(&none);
  sigset_t all;
  sigfillset(&all);
  sigdelset(&all, SIGKILL);
  sigdelset(&all, SIGSTOP);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (new_process_group) flags |= POSIX_SPAWN_SETPGROUP;
  if (int failed = posix_spawnattr_setflags(&attributes, flags)) return failed;
  if (int failed = posix_spawnattr_setpgroup(&attributes, 0)) return failed;
  if (int failed = posix_spawnattr_setsigmask(&attributes, &none)) return failed;
  return posix_spawnattr_setsigdefault(&attributes, &all);
}

}  // namespace

Result<pid_t> spawn_process(const SpawnRequest& request) {
  if (Status checked = check_request(request); !checked) return std::move(checked).take_error();
  SpawnFileActions files;
  if (int failed = add_file_actions(files.actions, request)) {
    return spawn_error(request.program, failed);
  }
  SpawnAttributes attributes;
  if (int failed = set_attributes(attributes.attributes, request.new_process_group)) {
    return spawn_error(request.program, failed);
  }

  const std::vector<std::string> program_only{request.program};
  std::vector<char*> argv = c_strings(request.argv.empty() ? program_only : request.argv);
  std::vector<char*> envp;
  if (request.environment) envp = c_strings(*request.environment);
  char* const* environment = request.environment ? envp.data() : environ;

  pid_t pid = -1;
  const bool has_path = request.program.find('/') != std::string::npos;
  const int failed =
      has_path ? ::posix_spawn(&pid, request.program.c_str(), &files.actions,
                               &attributes.attributes, argv.data(), environment)
               : ::posix_spawnp(&pid, request.program.c_str(), &files.actions,
                                &attributes.attributes, argv.data(), environment);
  if (failed != 0) return spawn_error(request.program, failed);
  return pid;
}

}  // namespace companyos
