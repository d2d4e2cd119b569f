#include "automation/step_processes.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <fstream>
#include <iterator>
#include <memory>
#include <system_error>
#include <utility>

#include <glib.h>
#include <spdlog/spdlog.h>

namespace companyos::automation {
namespace {

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string boot_id() {
  std::string id = read_all("/proc/sys/kernel/random/boot_id");
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
  return id;
}

std::optional<pid_t> as_pid(std::string_view text) {
  pid_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || value <= 0) return std::nullopt;
  return value;
}

// One pass over /proc for every record: each process's environment is read once. Own
// processes only: another user's environment is not readable anyway.
void find_carriers(std::vector<std::pair<StepRecord, KilledStep>>& steps) {
  std::error_code error;
  const pid_t self = ::getpid();
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const auto pid = as_pid(entry.path().filename().string());
    if (!pid || *pid == self) continue;
    const std::string environ = read_all(entry.path() / "environ");
    for (auto& [record, step] : steps) {
      if (carries_token(environ, record.token)) step.pids.push_back(*pid);
    }
  }
}

void kill_carriers(const std::vector<std::pair<StepRecord, KilledStep>>& steps) {
  for (const auto& [record, step] : steps) {
    for (const pid_t pid : step.pids) {
      // The groups they lead take along what cleared its environment but kept the group.
      if (::getpgid(pid) == pid) ::kill(-pid, SIGKILL);
      if (::kill(pid, SIGKILL) != 0 && errno != ESRCH) {
        spdlog::warn("cannot kill process {} of run {}'s command step: {}", pid, record.run_id,
                     std::error_code(errno, std::generic_category()).message());
      }
    }
  }
}

}  // namespace

std::string format_record(const StepRecord& record) {
  return record.boot_id + " " + std::to_string(record.run_id) + "\n";
}

std::optional<StepRecord> parse_record(std::string token, std::string_view text) {
  if (token.empty() || !text.ends_with('\n')) return std::nullopt;
  text.remove_suffix(1);
  const auto space = text.find(' ');
  if (space == std::string_view::npos || space == 0) return std::nullopt;
  const std::string_view run = text.substr(space + 1);
  std::int64_t run_id = 0;
  const auto [end, error] = std::from_chars(run.data(), run.data() + run.size(), run_id);
  if (error != std::errc() || end != run.data() + run.size() || run.empty()) return std::nullopt;
  return StepRecord{std::move(token), std::string(text.substr(0, space)), run_id};
}

bool carries_token(std::string_view environ, std::string_view token) {
  const std::string wanted = std::string(kStepTokenVariable) + "=" + std::string(token);
  std::size_t start = 0;
  while (start < environ.size()) {
    std::size_t end = environ.find('\0', start);
    if (end == std::string_view::npos) end = environ.size();
    if (environ.substr(start, end - start) == wanted) return true;
    start = end + 1;
  }
  return false;
}

StepProcessRecord::StepProcessRecord(std::filesystem::path directory, std::filesystem::path keeper)
    : directory_(std::move(directory)), keeper_(std::move(keeper)) {}

Result<std::string> StepProcessRecord::add(std::int64_t run_id) {
  const std::unique_ptr<gchar, decltype(&g_free)> uuid(g_uuid_string_random(), &g_free);
  const std::string token(uuid.get());
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  const auto partial = directory_ / (token + ".new");
  {
    std::ofstream out(partial, std::ios::trunc);
    out << format_record(StepRecord{token, boot_id(), run_id});
    out.flush();
    if (!out) {
      return make_error(ErrorCode::kInternal, "cannot record the command step in " + directory_.string(),
                        {{"directory", directory_.string()}}, "check that the store's directory is writable");
    }
  }
  // A rename is atomic: the next daemon reads a whole record or none.
  std::filesystem::rename(partial, directory_ / token, error);
  if (error) {
    std::filesystem::remove(partial, error);
    return make_error(ErrorCode::kInternal, "cannot record the command step: " + error.message(),
                      {{"directory", directory_.string()}}, "check that the store's directory is writable");
  }
  return token;
}

std::vector<pid_t> StepProcessRecord::end(const std::string& token) {
  std::vector<std::pair<StepRecord, KilledStep>> step = {{StepRecord{token, {}, 0}, KilledStep{}}};
  find_carriers(step);
  kill_carriers(step);
  std::error_code ignored;
  std::filesystem::remove(directory_ / token, ignored);
  return step.front().second.pids;
}

std::vector<KilledStep> StepProcessRecord::kill_left_over() {
  std::vector<std::pair<StepRecord, KilledStep>> steps;
  std::error_code error;
  const std::string boot = boot_id();
  for (const auto& entry : std::filesystem::directory_iterator(directory_, error)) {
    auto record = parse_record(entry.path().filename().string(), read_all(entry.path()));
    if (record && record->boot_id == boot) steps.emplace_back(*record, KilledStep{record->run_id, {}});
    std::error_code ignored;
    std::filesystem::remove(entry.path(), ignored);
  }
  if (steps.empty()) return {};
  find_carriers(steps);
  kill_carriers(steps);
  std::vector<KilledStep> killed;
  for (auto& [record, step] : steps) killed.push_back(std::move(step));
  return killed;
}

}  // namespace companyos::automation
