#include "daemon/services/approval_notice.h"

#include <ctime>

#include "core/glib_handles.h"

namespace companyos::daemon {
namespace {

std::string escaped(const std::string& text) {
  const GCharPtr escaped_text(g_markup_escape_text(text.c_str(), -1));
  return escaped_text.get();
}

std::string local_time(std::int64_t unix_seconds) {
  const std::time_t at = static_cast<std::time_t>(unix_seconds);
  std::tm local{};
  if (::localtime_r(&at, &local) == nullptr) return {};
  char text[32];
  return std::strftime(text, sizeof text, "%H:%M", &local) > 0 ? text : "";
}

}  // namespace

NoticePlan plan_notices(const std::vector<WaitingRun>& waiting, const std::map<std::string, PostedNotice>& posted,
                        const std::set<std::string>& handled) {
  NoticePlan plan;
  std::set<std::string> still_waiting;
  for (const WaitingRun& run : waiting) {
    still_waiting.insert(run.key());
    if (!handled.contains(run.key()) && !posted.contains(run.key())) plan.post.push_back(run);
  }
  for (const auto& [key, notice] : posted) {
    if (!still_waiting.contains(key)) plan.close.push_back(notice.id);
  }
  return plan;
}

NoticeText notice_text(const WaitingRun& run, bool body_markup) {
  const auto shown = [body_markup](const std::string& text) { return body_markup ? escaped(text) : text; };
  NoticeText text;
  // The summary is plain text in every server (the specification gives it no markup).
  const std::string id = std::to_string(run.run_id);
  if (run.question) {
    text.summary = "companyOS: " + run.automation + " asks you a question";
    text.body = shown(run.description);
    if (run.deadline) {
      const std::string until = local_time(*run.deadline);
      if (!until.empty()) text.body += shown("\nUntil " + until + "; then the step fails.");
    }
    text.body += shown("\nRun " + id + ": companyos approvals, then companyos run answer " + id + " …");
    return text;
  }
  text.summary = "companyOS: " + run.automation + " waits for your approval";
  text.body = shown(run.description.empty() ? "the run may start" : run.description);
  if (run.deadline) {
    const std::string until = local_time(*run.deadline);
    if (!until.empty()) text.body += shown("\nUntil " + until + "; then the run ends blocked.");
  }
  text.body += shown("\nRun " + id + ": companyos run approve|deny " + id);
  return text;
}

std::optional<DecidedRun> decide(const std::string& sender, const std::optional<std::string>& owner,
                                 std::uint32_t id, const std::string& action,
                                 const std::map<std::string, PostedNotice>& posted) {
  if (!owner || sender != *owner) return std::nullopt;
  Decision decision;
  if (action == "approve") {
    decision = Decision::kApprove;
  } else if (action == "deny") {
    decision = Decision::kDeny;
  } else {
    return std::nullopt;
  }
  for (const auto& [key, notice] : posted) {
    if (notice.id == id) return DecidedRun{notice.run_id, decision};
  }
  return std::nullopt;
}

}  // namespace companyos::daemon
