#include "automation/process_groups.h"

#include <signal.h>

#include <cerrno>
#include <charconv>
#include <fstream>
#include <sstream>
#include <system_error>

#include <spdlog/spdlog.h>

namespace companyos::automation {
namespace {

std::string read_first_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

template <typename Number>
std::optional<Number> parse_number(std::string_view text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// Field 22 of /proc/<pid>/stat, counted after the command name, which may hold spaces and
// parentheses: the fields start after its last ')'.
std::optional<std::uint64_t> start_time_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto closing = stat.rfind(')');
  if (closing == std::string::npos) return std::nullopt;
  std::istringstream fields(stat.substr(closing + 1));
  std::string field;
  // After the name: state is field 3, start time is field 22.
  for (int index = 3; index <= 22; ++index) {
    if (!(fields >> field)) return std::nullopt;
  }
  return parse_number<std::uint64_t>(field);
}

}  // namespace

LeftOver judge_left_over(const GroupRecord& record, const ProcessFacts& now) {
  if (record.boot_id != now.boot_id || !now.group_alive) return LeftOver::kGone;
  if (now.start_time && *now.start_time != record.start_time) return LeftOver::kReused;
  return LeftOver::kOurs;
}

std::string format_record(const GroupRecord& record) {
  return record.boot_id + " " + std::to_string(record.start_time) + " " + std::to_string(record.run_id) + "\n";
}

std::optional<GroupRecord> parse_record(pid_t group, std::string_view text) {
  if (!text.ends_with('\n')) return std::nullopt;
  text.remove_suffix(1);
  const auto first = text.find(' ');
  const auto second = first == std::string_view::npos ? first : text.find(' ', first + 1);
  if (second == std::string_view::npos || first == 0) return std::nullopt;
  const auto start_time = parse_number<std::uint64_t>(text.substr(first + 1, second - first - 1));
  const auto run_id = parse_number<std::int64_t>(text.substr(second + 1));
  if (!start_time || !run_id || group <= 0) return std::nullopt;
  return GroupRecord{group, std::string(text.substr(0, first)), *start_time, *run_id};
}

ProcessFacts process_facts(pid_t pid) {
  ProcessFacts facts;
  facts.boot_id = read_first_line("/proc/sys/kernel/random/boot_id");
  facts.start_time = start_time_of(pid);
  facts.group_alive = ::kill(-pid, 0) == 0 || errno == EPERM;
  return facts;
}

ProcessGroupRecord::ProcessGroupRecord(std::filesystem::path directory) : directory_(std::move(directory)) {}

Status ProcessGroupRecord::add(pid_t group, std::int64_t run_id) {
  const ProcessFacts facts = process_facts(group);
  if (!facts.start_time) return ok_status();  // already gone: nothing to record
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  const auto path = directory_ / std::to_string(group);
  const auto partial = directory_ / (std::to_string(group) + ".new");
  {
    std::ofstream out(partial, std::ios::trunc);
    out << format_record(GroupRecord{group, facts.boot_id, *facts.start_time, run_id});
    out.flush();
    if (!out) {
      return make_error(ErrorCode::kInternal, "cannot record the command's process group in " + directory_.string(),
                        {{"group", group}});
    }
  }
  // A rename is atomic: the next daemon reads a whole record or none.
  std::filesystem::rename(partial, path, error);
  if (error) {
    return make_error(ErrorCode::kInternal, "cannot record the command's process group: " + error.message(),
                      {{"group", group}});
  }
  return ok_status();
}

void ProcessGroupRecord::remove(pid_t group) {
  std::error_code ignored;
  std::filesystem::remove(directory_ / std::to_string(group), ignored);
}

std::vector<KilledGroup> ProcessGroupRecord::kill_left_over() {
  std::vector<KilledGroup> killed;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, error)) {
    const std::string name = entry.path().filename().string();
    const auto group = parse_number<pid_t>(name);
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto record = group ? parse_record(*group, text) : std::nullopt;
    if (record && judge_left_over(*record, process_facts(record->group)) == LeftOver::kOurs) {
      if (::kill(-record->group, SIGKILL) == 0) {
        killed.push_back({record->group, record->run_id});
      } else {
        spdlog::warn("cannot kill process group {} left by run {}: {}", record->group, record->run_id,
                     std::error_code(errno, std::generic_category()).message());
      }
    }
    std::error_code ignored;
    std::filesystem::remove(entry.path(), ignored);
  }
  return killed;
}

}  // namespace companyos::automation
