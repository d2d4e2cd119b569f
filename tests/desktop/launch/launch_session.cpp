#include "launch_session.h"

#include <glib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/glib_handles.h"

namespace companyos::launch::testing {
namespace {

namespace fs = std::filesystem;

// Standard output of `argv` (run without a shell), or nullopt when it failed.
std::optional<std::string> output_of(const std::vector<std::string>& argv) {
  std::vector<gchar*> pointers;
  for (const std::string& arg : argv) pointers.push_back(const_cast<gchar*>(arg.c_str()));
  pointers.push_back(nullptr);
  gchar* out = nullptr;
  gint status = 0;
  const gboolean ran =
      g_spawn_sync(nullptr, pointers.data(), nullptr,
                   static_cast<GSpawnFlags>(G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL),
                   nullptr, nullptr, &out, nullptr, &status, nullptr);
  GCharPtr owned(out);
  if (!ran || !g_spawn_check_wait_status(status, nullptr)) return std::nullopt;
  return std::string(owned ? owned.get() : "");
}

}  // namespace

fs::path standin_file(const std::string& name) {
  const char* build = std::getenv("COMPANYOS_BUILD_DIR");
  return fs::path(build ? build : ".") / "tests/fixtures/standin" / name;
}

std::string quote_exec_argument(const std::string& argument) {
  std::string quoted = "\"";
  for (const char c : argument) {
    if (c == '"' || c == '`' || c == '$' || c == '\\') quoted.push_back('\\');
    quoted.push_back(c);
  }
  return quoted + "\"";
}

std::string exec_line(const std::string& program, const std::vector<std::string>& arguments,
                      const std::string& field_code) {
  std::string line = quote_exec_argument(program);
  for (const std::string& argument : arguments) line += " " + quote_exec_argument(argument);
  if (!field_code.empty()) line += " " + field_code;
  return line;
}

fs::path install_entry(const std::string& id, const std::map<std::string, std::string>& keys) {
  const char* data_home = std::getenv("XDG_DATA_HOME");
  const fs::path dir = fs::path(data_home ? data_home : ".") / "applications";
  fs::create_directories(dir);
  KeyFilePtr key_file(g_key_file_new());
  for (const auto& [key, value] : keys) {
    g_key_file_set_string(key_file.get(), G_KEY_FILE_DESKTOP_GROUP, key.c_str(), value.c_str());
  }
  const fs::path file = dir / id;
  g_key_file_save_to_file(key_file.get(), file.c_str(), nullptr);
  return file;
}

std::optional<std::vector<std::string>> read_record(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> arguments;
  std::size_t start = 0;
  while (start < bytes.size()) {
    const std::size_t end = bytes.find('\0', start);
    if (end == std::string::npos) break;  // a record always ends with a NUL
    arguments.push_back(bytes.substr(start, end - start));
    start = end + 1;
  }
  return arguments;
}

std::optional<pid_t> read_pid(const fs::path& file) {
  std::ifstream in(file);
  pid_t pid = 0;
  if (!(in >> pid) || pid <= 0) return std::nullopt;
  return pid;
}

bool process_gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto state_at = line.rfind(')');
  return state_at == std::string::npos || line.at(state_at + 2) == 'Z';
}

bool child_running() {
  const std::string parent = std::to_string(::getpid());
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;  // not a process, or gone meanwhile
    // "pid (comm) state ppid …": the name may hold spaces and parentheses.
    const auto name_end = line.rfind(')');
    if (name_end == std::string::npos) continue;
    std::istringstream rest(line.substr(name_end + 1));
    std::string state;
    std::string ppid;
    if (rest >> state >> ppid && ppid == parent && state != "Z") return true;
  }
  return false;
}

std::optional<unsigned long> xprop_active_window() {
  auto out = output_of({"xprop", "-root", "_NET_ACTIVE_WINDOW"});
  if (!out) return std::nullopt;
  const auto hash = out->find('#');
  if (hash == std::string::npos) return std::nullopt;
  return std::stoul(out->substr(hash + 1), nullptr, 16);
}

std::optional<std::string> xprop_wm_class(unsigned long window) {
  std::ostringstream id;
  id << "0x" << std::hex << window;
  auto out = output_of({"xprop", "-id", id.str(), "WM_CLASS"});
  if (!out) return std::nullopt;
  const auto equals = out->find("= ");
  if (equals == std::string::npos) return std::nullopt;
  std::string value = out->substr(equals + 2);
  while (!value.empty() && value.back() == '\n') value.pop_back();
  return value;
}

std::string describe_screen() {
  return output_of({"xprop", "-root", "_NET_CLIENT_LIST", "_NET_ACTIVE_WINDOW"}).value_or("?") +
         output_of({"xwininfo", "-root", "-children"}).value_or("?");
}

}  // namespace companyos::launch::testing
