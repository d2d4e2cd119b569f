// The process groups of the command steps now running, kept as one small file each in a
// directory beside the store, so that a daemon started after one that was killed (SIGKILL,
// a crash, an OOM kill) can kill what that one's steps left running: a command step's
// processes never outlive the daemon unrecorded, and a new run never overlaps them.
//
// A record holds the boot, the group leader's start time (/proc/<pid>/stat) and the run.
// At start, a recorded group is killed only when it is provably the same group: same boot,
// some process still in it, and its leader either gone (a group id is not reused while any
// member lives) or started at the recorded time. A reused pid is left alone.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace companyos::automation {

// The kernel's facts a decision needs; Linux's are read from /proc.
struct ProcessFacts {
  std::string boot_id;                      // /proc/sys/kernel/random/boot_id
  std::optional<std::uint64_t> start_time;  // of the pid, in clock ticks since boot; none: no such process
  bool group_alive = false;                 // some process has the group id
};

struct GroupRecord {
  pid_t group = 0;
  std::string boot_id;
  std::uint64_t start_time = 0;
  std::int64_t run_id = 0;
};

enum class LeftOver {
  kGone,    // nothing of the group is left (or the machine has rebooted since)
  kOurs,    // the group is still running: kill it
  kReused,  // another process now has the leader's pid: not ours
};

LeftOver judge_left_over(const GroupRecord& record, const ProcessFacts& now);

// "<boot_id> <start_time> <run_id>\n"; nullopt for anything else (a torn write is skipped).
std::string format_record(const GroupRecord& record);
std::optional<GroupRecord> parse_record(pid_t group, std::string_view text);

// Linux: the facts about `pid` as its own group's leader.
ProcessFacts process_facts(pid_t pid);

struct KilledGroup {
  pid_t group = 0;
  std::int64_t run_id = 0;
};

class ProcessGroupRecord {
 public:
  explicit ProcessGroupRecord(std::filesystem::path directory);

  // Records a group that has just started. INTERNAL when the record cannot be written: the
  // caller kills the group rather than run it unrecorded.
  Status add(pid_t group, std::int64_t run_id);
  // After the group is reaped and killed.
  void remove(pid_t group);
  // At daemon start, before any run: SIGKILLs every recorded group that is still ours and
  // deletes every record. Returns the groups killed.
  std::vector<KilledGroup> kill_left_over();

 private:
  std::filesystem::path directory_;
};

}  // namespace companyos::automation
