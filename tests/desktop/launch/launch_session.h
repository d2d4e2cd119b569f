// What the launch desktop tests share: desktop entries installed into the session's
// $XDG_DATA_HOME (set by scripts/desktop-session), the stand-in app's argument records, and
// oracles outside the library under test (xprop, /proc) polled with deadlines.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace companyos::launch::testing {

// Generous on purpose: a loaded 2-core machine can stall an app for seconds.
inline constexpr std::chrono::milliseconds kDesktopDeadline{20'000};

// Calls `condition` until it returns true or `deadline` passes; returns its last answer.
template <typename Condition>
bool wait_until(Condition condition, std::chrono::milliseconds deadline = kDesktopDeadline) {
  const auto give_up = std::chrono::steady_clock::now() + deadline;
  while (true) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= give_up) return condition();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// $COMPANYOS_BUILD_DIR/tests/fixtures/standin/<name>.
std::filesystem::path standin_file(const std::string& name);

// One argument quoted as the Desktop Entry Specification says: in double quotes, with
// " ` $ and \ escaped by a backslash.
std::string quote_exec_argument(const std::string& argument);

// The Exec value that starts `program` with `arguments` (each quoted) and then `field_code`
// (e.g. "%f"; empty for none).
std::string exec_line(const std::string& program, const std::vector<std::string>& arguments,
                      const std::string& field_code);

// Writes $XDG_DATA_HOME/applications/<id> with `keys` in [Desktop Entry] (GKeyFile does the
// key-file escaping) and returns its path.
std::filesystem::path install_entry(const std::string& id,
                                    const std::map<std::string, std::string>& keys);

// The stand-in's argument record: each argument as recorded, NUL-separated; nullopt until it
// exists.
std::optional<std::vector<std::string>> read_record(const std::filesystem::path& file);

// The pid in a pid file, or nullopt.
std::optional<pid_t> read_pid(const std::filesystem::path& file);

// True once `pid` no longer runs (gone, or a zombie).
bool process_gone(pid_t pid);

// True while a child process of this test (gio launch, say) runs; zombies do not count.
bool child_running();

// Root's _NET_ACTIVE_WINDOW and a window's WM_CLASS, as xprop reports them.
std::optional<unsigned long> xprop_active_window();
std::optional<std::string> xprop_wm_class(unsigned long window);

// The root window's client list and every top-level window (xprop, xwininfo), for failure
// messages.
std::string describe_screen();

}  // namespace companyos::launch::testing
