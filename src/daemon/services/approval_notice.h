// What the desktop notifications for runs waiting for approval say and do, apart from D-Bus
// (approval_notifier.h sends them): which waits need a notification and which
// notifications must close, the text of one, and whether an ActionInvoked signal decides a
// run. Pure, so each rule is tested on its own.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace companyos::daemon {

// A run waiting for a person, as the runner lists it.
struct WaitingRun {
  std::int64_t run_id = 0;
  std::string automation;
  std::string step;         // "actions[1]"; "" for a run-level approval
  std::string description;  // what the person is asked to approve
  std::optional<std::int64_t> deadline;  // Unix seconds: it ends blocked then
  // The step asks a question (a pi step's) rather than for an approval: answered with
  // `run answer`, so the notification has no approve or deny.
  bool question = false;

  // One wait: a run waits again for its next step, or its step's question, under another key.
  std::string key() const { return std::to_string(run_id) + "/" + step + (question ? "?" : ""); }
};

// A notification this daemon posted and has not closed.
struct PostedNotice {
  std::uint32_t id = 0;
  std::int64_t run_id = 0;
};

struct NoticePlan {
  std::vector<WaitingRun> post;     // waits with no notification yet
  std::vector<std::uint32_t> close;  // notifications whose wait has ended
};

// `posted` by wait key; `handled`: keys already posted or being posted, or dismissed by the
// person (never posted again while the same wait lasts).
NoticePlan plan_notices(const std::vector<WaitingRun>& waiting, const std::map<std::string, PostedNotice>& posted,
                        const std::set<std::string>& handled);

struct NoticeText {
  std::string summary;
  std::string body;
};
// The automation's name and the step's description are the automation author's and the
// apps' words: escaped when the server reads markup in bodies (capability "body-markup").
// `now` and the deadline in Unix seconds; the deadline is shown in local time.
NoticeText notice_text(const WaitingRun& run, bool body_markup);

enum class Decision { kApprove, kDeny };
struct DecidedRun {
  std::int64_t run_id = 0;
  Decision decision = Decision::kApprove;
};
// An ActionInvoked(id, action) signal decides a run only when it comes from the current owner
// of org.freedesktop.Notifications (any process of the session could send one otherwise)
// and names a notification this daemon posted, with the action "approve" or "deny".
std::optional<DecidedRun> decide(const std::string& sender, const std::optional<std::string>& owner,
                                 std::uint32_t id, const std::string& action,
                                 const std::map<std::string, PostedNotice>& posted);

}  // namespace companyos::daemon
