// Whether a launch step may run, and exactly what it runs. The checks go in this order and
// the first that fails blocks the step, with nothing launched: the platform (not_x11,
// no_gio_launch), the app name (no_entry, ambiguous_entry), the entry (invalid_entry,
// terminal_entry, shell_entry), then the target (cannot_take_target).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "companyos/result.h"
#include "launch/app_match.h"
#include "launch/desktop_index.h"
#include "launch/exec_program.h"
#include "launch/platform.h"
#include "launch/refusal.h"
#include "launch/target.h"

namespace companyos::launch {

struct PolicyOptions {
  std::string gio_program = kDefaultGio;
  ProgramLocator locate = locate_in_path;
};

struct LaunchPlan {
  std::string app;  // the name the step gave
  DesktopEntry entry;
  MatchField decided_by = MatchField::kName;
  Target target;
  std::vector<std::string> argv;              // gio launch <entry file> <target>
  std::vector<std::string> expected_classes;  // WM_CLASS values that mark the app's windows
};

// no_entry or ambiguous_entry for a match that chose nothing; empty otherwise.
std::vector<Refusal> match_refusals(const AppMatch& match);

// Every entry-level reason to refuse `entry`, in order: invalid_entry (Exec breaks the
// specification), terminal_entry (Terminal=true or Categories has TerminalEmulator),
// shell_entry (Exec's program is a shell, script interpreter or command wrapper).
std::vector<Refusal> entry_refusals(const DesktopEntry& entry,
                                    const ProgramLocator& locate = locate_in_path);

// The WM_CLASS values (class or instance, compared case-insensitively) that identify the
// app's windows: StartupWMClass when the entry has one, as the specification promises;
// otherwise the app name, the entry's id without ".desktop", and Exec's program file name.
std::vector<std::string> expected_window_classes(const DesktopEntry& entry, std::string_view app,
                                                 const ProgramLocator& locate = locate_in_path);

// The plan for opening `target` in `app`, or the blocked step's error (see refusal.h;
// details also carry "app").
Result<LaunchPlan> plan_launch(const DesktopIndex& index, std::string_view app,
                               const Target& target, const PlatformFacts& platform,
                               const PolicyOptions& options = {});

}  // namespace companyos::launch
