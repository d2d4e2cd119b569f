// Which program an Exec line really starts, seen through `env` and symbolic links, and
// whether that program is a shell, a script interpreter or a wrapper that runs whatever its
// arguments name — entries the launch policy refuses (reason shell_entry).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "launch/exec_line.h"

namespace companyos::launch {

// Finds a program name (no '/') the way the launcher will; nullopt when it is not found.
using ProgramLocator = std::function<std::optional<std::filesystem::path>(const std::string& name)>;

// Searches $PATH (g_find_program_in_path).
std::optional<std::filesystem::path> locate_in_path(const std::string& name);

struct ExecProgram {
  std::string program;             // as Exec names it once `env` is skipped, e.g. "python3"
  std::vector<std::string> names;  // file names checked: as written, then the resolved file's
  std::optional<std::string> interpreter;  // the first of `names` that is an interpreter
  std::string note;                        // why `env` could not be looked through, if so
};

// Skips leading `env` invocations (their options and NAME=value assignments) and resolves
// the program found after them: its file name as written, and the file name of what it
// finally points to (through $PATH and symbolic links). An `env` whose command cannot be
// told apart safely (-S/--split-string, an unknown option, a field code, no command at all)
// stays the program, and env itself counts as an interpreter.
ExecProgram resolve_exec_program(const ExecLine& line,
                                 const ProgramLocator& locate = locate_in_path);

// True for shells (sh, bash, dash, zsh, fish, ksh, csh, tcsh, …), script interpreters
// (python, perl, ruby, php, lua, tclsh, wish, node, … also with a version suffix such as
// python3.11 or perl5.36) and command wrappers (env, sudo, pkexec, nohup, xargs, …).
bool is_interpreter_name(std::string_view file_name);

}  // namespace companyos::launch
