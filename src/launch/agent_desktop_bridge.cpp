#include "launch/agent_desktop_bridge.h"

#include <glib.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstring>

#include "companyos/reply_fields.h"
#include "launch/bridge_arguments.h"
#include "launch/refusal.h"

namespace companyos::launch {
namespace {

constexpr const char* kListStep = "list-windows";
constexpr const char* kFocusStep = "focus-window";

std::string exit_text(const BridgeCall& call) {
  if (call.timed_out) return "killed at the deadline";
  return call.exit_status ? "exit " + std::to_string(*call.exit_status) : "ended by a signal";
}

// A call that ran and failed; `delivered` once focus-window was called.
Error call_failed(const BridgeCall& call, const std::vector<BridgeCall>& calls, bool delivered) {
  const bool timed_out = call.timed_out;
  nlohmann::json details{{"reason", timed_out ? "bridge_timeout" : "bridge_failed"},
                         {"step", call.step},
                         {"calls", bridge_calls_to_json(calls)},
                         {reply_fields::outcome::kDelivery, delivered ? "unknown" : "not_delivered"}};
  return make_error(timed_out ? ErrorCode::kTimeout : ErrorCode::kInternal,
                    "agent-desktop " + call.step + " failed (" + exit_text(call) + ")",
                    std::move(details), "check the agent-desktop program on its own",
                    delivered ? Retry::kUnsafe : Retry::kSafe);
}

// The program could not be started at all (exec format, a missing interpreter): nothing
// ran, so nothing was delivered whichever step it was.
Error start_failed(const char* step, Error error, const std::vector<BridgeCall>& calls) {
  spdlog::info("agent-desktop {}: could not start", step);
  nlohmann::json details{{"reason", "bridge_failed"},
                         {"step", step},
                         {"calls", bridge_calls_to_json(calls)},
                         {reply_fields::outcome::kDelivery, "not_delivered"}};
  std::string why = error.message;
  if (error.details.contains("errno") && error.details["errno"].is_number_integer()) {
    details["errno"] = error.details["errno"];
    why = std::strerror(error.details["errno"].get<int>());
  }
  return make_error(ErrorCode::kInternal,
                    "agent-desktop " + std::string(step) + " could not start: " + why,
                    std::move(details),
                    "check that the agent-desktop program is a binary or starts with #!",
                    Retry::kSafe);
}

Error blocked_after_listing(RefusalReason reason, std::size_t windows, std::string message,
                            std::string suggestion, const std::vector<BridgeCall>& calls) {
  spdlog::info("agent-desktop {}: blocked ({})", kFocusStep, to_string(reason));
  return to_error(make_refusal(reason, std::move(message),
                               {{"windows", windows}, {"calls", bridge_calls_to_json(calls)}},
                               std::move(suggestion)));
}

}  // namespace

nlohmann::json bridge_calls_to_json(const std::vector<BridgeCall>& calls) {
  nlohmann::json out = nlohmann::json::array();
  for (const BridgeCall& call : calls) {
    out.push_back({{"step", call.step},
                   {"exit_status",
                    call.exit_status ? nlohmann::json(*call.exit_status) : nlohmann::json(nullptr)},
                   {"timed_out", call.timed_out},
                   {"duration_ms", call.duration.count()}});
  }
  return out;
}

Status check_bridge_program(const std::filesystem::path& program) {
  auto blocked = [&program](const std::string& why) {
    return to_error(make_refusal(RefusalReason::kBridgeUnavailable,
                                 "the agent-desktop program cannot be used: " + why,
                                 {{"path", program.string()}, {"why", why}},
                                 "set agent_desktop_path to an existing program, or to '' to "
                                 "turn the bridge off"));
  };
  if (program.empty()) return blocked("no program is configured");
  if (!program.is_absolute()) return blocked("the path is not absolute");
  std::error_code error;
  const auto status = std::filesystem::status(program, error);
  if (error || !std::filesystem::exists(status)) return blocked("no file exists there");
  if (!std::filesystem::is_regular_file(status)) return blocked("it is not a regular file");
  if (::access(program.c_str(), X_OK) != 0) return blocked("it is not executable");
  return ok_status();
}

std::size_t count_listed_windows(std::string_view output) {
  std::size_t windows = 0;
  bool line_has_text = false;
  for (const char c : output) {
    if (c == '\n') {
      windows += line_has_text ? 1 : 0;
      line_has_text = false;
    } else if (!g_ascii_isspace(c)) {
      line_has_text = true;
    }
  }
  return windows + (line_has_text ? 1 : 0);
}

Result<BridgeFocusReport> focus_via_bridge(const BridgeOptions& options, std::string_view app) {
  if (auto usable = check_bridge_program(options.program); !usable) return usable.error();
  if (auto named = check_app_name(app); !named) return named.error();

  BridgeFocusReport report;
  auto call = [&](const char* step) -> Result<BridgeCall> {
    auto ran = run_subprocess({{options.program.string(), step, "--app", std::string(app)},
                               options.call_timeout,
                               options.output_cap,
                               Capture::kPipe});
    if (!ran) return start_failed(step, std::move(ran).take_error(), report.calls);
    BridgeCall record{step, ran->exit_status, ran->timed_out, ran->duration};
    spdlog::info("agent-desktop {}: {} in {} ms", step, exit_text(record), record.duration.count());
    report.calls.push_back(record);
    if (std::string_view(step) == kListStep && ran->succeeded())
      report.windows = count_listed_windows(ran->out);
    return record;
  };

  auto listed = call(kListStep);
  if (!listed) return std::move(listed).take_error();
  if (listed->timed_out || listed->exit_status != 0)
    return call_failed(*listed, report.calls, false);
  if (report.windows == 0) {
    return blocked_after_listing(RefusalReason::kNoWindow, 0,
                                 "agent-desktop lists no window of '" + std::string(app) + "'",
                                 "start the app first", report.calls);
  }
  if (report.windows > 1) {
    return blocked_after_listing(RefusalReason::kAmbiguousWindow, report.windows,
                                 "agent-desktop lists " + std::to_string(report.windows) +
                                     " windows of '" + std::string(app) +
                                     "'; focus needs exactly one",
                                 "close the app's extra windows", report.calls);
  }
  auto focused = call(kFocusStep);
  if (!focused) return std::move(focused).take_error();
  if (focused->timed_out || focused->exit_status != 0)
    return call_failed(*focused, report.calls, true);
  return report;
}

}  // namespace companyos::launch
