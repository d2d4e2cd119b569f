#include "launch/exec_program.h"

#include <glib.h>

#include <algorithm>
#include <span>

#include "core/glib_handles.h"

namespace companyos::launch {
namespace {

// Shells, interpreters without versioned names, and wrappers that run a command given as
// arguments (so the real program is whatever the arguments say).
constexpr std::string_view kInterpreters[] = {
    "sh",         "bash",    "rbash",       "dash",   "ash",       "zsh",     "fish",
    "ksh",        "ksh93",   "mksh",        "pdksh",  "oksh",      "csh",     "tcsh",
    "yash",       "rc",      "es",          "xonsh",  "nu",        "elvish",  "pwsh",
    "powershell", "busybox", "toybox",      "env",    "sudo",      "doas",    "pkexec",
    "su",         "runuser", "sg",          "nohup",  "setsid",    "nice",    "ionice",
    "chrt",       "taskset", "timeout",     "stdbuf", "xargs",     "flock",   "script",
    "watch",      "time",    "systemd-run", "chroot", "unshare",   "nsenter", "dbus-run-session",
    "nodejs",     "deno",    "bun",         "expect", "osascript", "awk",     "gawk",
    "mawk",       "nawk",    "rscript",     "irb",    "jruby",     "jython",  "luajit",
    "racket",     "sbcl",    "clisp",       "julia",  "gjs",       "cjs",     "cscript",
};

// Interpreters that come with a version in their file name: python3.11, perl5.36, lua5.4.
constexpr std::string_view kInterpreterFamilies[] = {
    "python", "pythonw", "pypy", "perl", "ruby", "php", "lua", "tclsh", "wish", "node", "guile",
};

// GNU env's options (it stops at the first operand, as getopt's "+" mode does).
constexpr std::string_view kEnvFlags[] = {"--ignore-environment", "--null", "--debug",
                                          "--list-signal-handling"};
constexpr std::string_view kEnvOptionsWithValue[] = {"--unset", "--chdir"};
constexpr std::string_view kEnvOptionalValue[] = {"--block-signal", "--default-signal",
                                                  "--ignore-signal"};

bool contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string file_name_of(const std::string& program) {
  return std::filesystem::path(program).filename().string();
}

// Where env's command starts, from the argument after `env`; nullopt (with `note`) when it
// cannot be told safely.
std::optional<std::size_t> skip_env(const std::vector<ExecArgument>& arguments, std::size_t at,
                                    std::string& note) {
  auto text = [&](std::size_t index) { return arguments[index].literal(); };
  std::size_t j = at;
  while (j < arguments.size()) {
    const auto argument = text(j);
    if (!argument) break;  // a field code; reported below
    const std::string& a = *argument;
    if (a == "--") {
      ++j;
      break;
    }
    if (a == "-") {  // the same as -i
      ++j;
      continue;
    }
    if (a.rfind("--", 0) == 0) {
      const std::string name = a.substr(0, a.find('='));
      const bool inline_value = name.size() != a.size();
      if (name == "--split-string") {
        note = "env -S splits its argument into a command line";
        return std::nullopt;
      }
      if (contains(kEnvFlags, name) && !inline_value) {
        ++j;
      } else if (contains(kEnvOptionsWithValue, name)) {
        j += inline_value ? 1 : 2;
      } else if (contains(kEnvOptionalValue, name)) {
        ++j;
      } else {
        note = "env option " + a + " is not known";
        return std::nullopt;
      }
      continue;
    }
    if (a.size() < 2 || a[0] != '-') break;  // the first operand
    std::size_t advance = 1;
    for (std::size_t k = 1; k < a.size(); ++k) {
      const char option = a[k];
      if (option == 'i' || option == '0' || option == 'v') continue;
      if (option == 'u' || option == 'C') {
        if (k + 1 == a.size()) advance = 2;  // the value is the next argument
        break;
      }
      note = option == 'S' ? "env -S splits its argument into a command line"
                           : std::string("env option -") + option + " is not known";
      return std::nullopt;
    }
    j += advance;
  }
  while (j < arguments.size()) {
    const auto argument = text(j);
    if (!argument) {
      note = "a field code stands where env expects its command";
      return std::nullopt;
    }
    if (argument->empty()) {
      // env cannot run a program named "", so it names no program to judge.
      note = "env's command is empty";
      return std::nullopt;
    }
    if (argument->find('=') == std::string::npos) return j;
    ++j;  // NAME=value
  }
  note = "env has no command to run";
  return std::nullopt;
}

}  // namespace

std::optional<std::filesystem::path> locate_in_path(const std::string& name) {
  GCharPtr found(g_find_program_in_path(name.c_str()));
  if (!found) return std::nullopt;
  return std::filesystem::path(found.get());
}

bool is_interpreter_name(std::string_view file_name) {
  GCharPtr lowered(g_ascii_strdown(file_name.data(), static_cast<gssize>(file_name.size())));
  const std::string_view name(lowered.get());
  if (contains(kInterpreters, name)) return true;
  return std::any_of(std::begin(kInterpreterFamilies), std::end(kInterpreterFamilies),
                     [name](std::string_view family) {
                       if (name.rfind(family, 0) != 0) return false;
                       if (name.size() == family.size()) return true;
                       const char next = name[family.size()];
                       return g_ascii_isdigit(next) || next == '.' || next == '-' || next == '_';
                     });
}

ExecProgram resolve_exec_program(const ExecLine& line, const ProgramLocator& locate) {
  ExecProgram result;
  std::size_t at = 0;
  // A bound, because `env env env …` must end somewhere.
  for (int depth = 0; depth < 16; ++depth) {
    result.program = line.arguments[at].literal().value_or("");
    if (file_name_of(result.program) != "env") break;
    const auto command = skip_env(line.arguments, at + 1, result.note);
    if (!command) break;
    at = *command;
  }

  result.names.push_back(file_name_of(result.program));
  std::optional<std::filesystem::path> file;
  if (result.program.find('/') != std::string::npos) {
    file = result.program;
  } else {
    file = locate(result.program);
  }
  if (file) {
    std::error_code error;
    const auto target = std::filesystem::canonical(*file, error);
    if (!error && target.filename().string() != result.names.front()) {
      result.names.push_back(target.filename().string());
    }
  }
  for (const std::string& name : result.names) {
    if (is_interpreter_name(name)) {
      result.interpreter = name;
      break;
    }
  }
  return result;
}

}  // namespace companyos::launch
