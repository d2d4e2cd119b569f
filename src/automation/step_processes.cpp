#include "automation/step_processes.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <fstream>
#include <memory>
#include <system_error>
#include <utility>

#include <glib.h>
#include <spdlog/spdlog.h>

#include "core/proc_files.h"

namespace companyos::automation {
namespace {

std::string boot_id() {
  std::string id = read_small_file("/proc/sys/kernel/random/boot_id", 64).value_or(std::string());
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
  return id;
}

// One pass over /proc for every record: each process's environment is read once. Own
// processes only: another user's environment is not readable anyway.
void find_carriers(std::vector<std::pair<StepRecord, KilledStep>>& steps) {
  const pid_t self = ::getpid();
  for (const pid_t pid : listed_pids()) {
    if (pid == self) continue;
    // Gone since the listing, or another user's: it carries no token of ours.
    const auto environ = read_small_file("/proc/" + std::to_string(pid) + "/environ");
    if (!environ) continue;
    for (auto& [record, step] : steps) {
      if (carries_token(*environ, record.token)) step.pids.push_back(pid);
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
  // Incremented with an error code: the range-for's increment throws on an error.
  for (std::filesystem::directory_iterator entry(directory_, error), end; !error && entry != end;
       entry.increment(error)) {
    auto record = parse_record(entry->path().filename().string(),
                               read_small_file(entry->path(), 4096).value_or(std::string()));
    if (record && record->boot_id == boot) steps.emplace_back(*record, KilledStep{record->run_id, {}});
    std::error_code ignored;
    std::filesystem::remove(entry->path(), ignored);
  }
  if (steps.empty()) return {};
  find_carriers(steps);
  kill_carriers(steps);
  std::vector<KilledStep> killed;
  for (auto& [record, step] : steps) killed.push_back(std::move(step));
  return killed;
}

}  // namespace companyos::automation
