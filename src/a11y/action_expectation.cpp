#include "a11y/action_expectation.h"

#include <thread>

#include "a11y/live_resolve.h"
#include "a11y/read/snapshot.h"

namespace companyos::a11y {
namespace {

using namespace std::chrono_literals;

constexpr auto kPollInterval = 15ms;
constexpr std::int64_t kMaxTimeoutMs = 60000;

Error invalid(std::string message, const std::string& field) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), {{"field", "expect." + field}},
                    "expect one of {\"window\":T}, {\"state\":S,\"ref\":R}, {\"text\":T}");
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

Result<Expectation> parse_expectation(const nlohmann::json& spec) {
  if (!spec.is_object()) return invalid("expect must be an object", "");
  Expectation expectation;
  int kinds = 0;
  for (const char* key : {"window", "state", "text"}) {
    if (!spec.contains(key)) continue;
    ++kinds;
    if (!spec[key].is_string() || spec[key].get<std::string>().empty()) {
      return invalid(std::string(key) + " must be a non-empty string", key);
    }
    expectation.text = spec[key].get<std::string>();
  }
  if (kinds != 1) return invalid("give exactly one of window, state, text", "");
  for (const auto& [key, value] : spec.items()) {
    if (key != "window" && key != "state" && key != "text" && key != "ref" && key != "snapshot" &&
        key != "timeout_ms") {
      return invalid("unknown field " + key, key);
    }
  }
  if (spec.contains("timeout_ms")) {
    const auto& timeout = spec["timeout_ms"];
    if (!timeout.is_number_integer() || timeout.get<std::int64_t>() < 1 ||
        timeout.get<std::int64_t>() > kMaxTimeoutMs) {
      return invalid("timeout_ms must be a whole number from 1 to 60000", "timeout_ms");
    }
    expectation.timeout = std::chrono::milliseconds(timeout.get<std::int64_t>());
  }
  if (spec.contains("window")) {
    expectation.kind = ExpectationKind::kWindowTitle;
  } else if (spec.contains("text")) {
    expectation.kind = ExpectationKind::kText;
  } else {
    expectation.kind = ExpectationKind::kElementState;
    const auto state = state_from_name(expectation.text);
    if (!state) return invalid("unknown state " + expectation.text, "state");
    expectation.state = *state;
    nlohmann::json target = nlohmann::json::object();
    if (spec.contains("ref")) target["ref"] = spec["ref"];
    if (spec.contains("snapshot")) target["snapshot"] = spec["snapshot"];
    if (!target.contains("ref")) return invalid("a state expectation needs ref", "ref");
    auto parsed = parse_target(target);
    if (!parsed) {
      Error error = std::move(parsed).take_error();
      error.details["field"] = "expect.ref";
      return error;
    }
    expectation.element = std::move(parsed).value();
  }
  if (expectation.kind != ExpectationKind::kElementState &&
      (spec.contains("ref") || spec.contains("snapshot"))) {
    return invalid("ref belongs to a state expectation only", "ref");
  }
  return expectation;
}

nlohmann::json expectation_to_json(const Expectation& expectation, const ExpectationResult& result) {
  static constexpr const char* kKinds[] = {"window", "state", "text"};
  nlohmann::json json = {{"kind", kKinds[static_cast<int>(expectation.kind)]},
                         {"expected", expectation.text},
                         {"met", result.met},
                         {"reason", result.reason},
                         {"waited_ms", result.waited_ms},
                         {"timeout_ms", expectation.timeout.count()}};
  if (expectation.element) json["ref"] = describe(*expectation.element);
  if (!result.observed.is_null()) json["observed"] = result.observed;
  return json;
}

ExpectationCheck::ExpectationCheck(Observer& observer, Expectation expectation, WindowInfo window)
    : observer_(observer), expectation_(std::move(expectation)), window_(std::move(window)) {}

// The windows (kWindowTitle), element (kElementState) or elements (kText) where the
// condition holds now.
Result<std::set<std::string>> ExpectationCheck::holders(Deadline deadline) {
  std::set<std::string> found;
  switch (expectation_.kind) {
    case ExpectationKind::kWindowTitle: {
      auto windows = observer_.windows(std::nullopt, deadline);
      if (!windows) return std::move(windows).take_error();
      for (const WindowInfo& window : *windows) {
        if (window.title == expectation_.text) found.insert(window.id);
      }
      return found;
    }
    case ExpectationKind::kElementState: {
      auto element = resolve_live(observer_, *expectation_.element, deadline);
      if (!element) return std::move(element).take_error();
      if (has_state(element->node.states, expectation_.state)) found.insert(element->node.path);
      return found;
    }
    case ExpectationKind::kText: {
      SnapshotOptions options;
      options.accessible_ids = AccessibleIds::kNone;
      auto tree = read_window(observer_.bus(), window_, deadline, options);
      if (!tree) return std::move(tree).take_error();
      for (const Node& node : tree->nodes) {
        if (contains(node.name, expectation_.text) ||
            (node.value && !node.value_withheld && contains(*node.value, expectation_.text))) {
          found.insert(node.path);
        }
      }
      return found;
    }
  }
  return found;
}

Status ExpectationCheck::before(Deadline deadline) {
  auto now = holders(deadline);
  if (!now) return std::move(now).take_error();
  held_before_ = std::move(now).value();
  held_before_at_all_ = !held_before_.empty();
  return ok_status();
}

std::optional<bool> ExpectationCheck::newly_holds(Deadline deadline, nlohmann::json& observed) {
  auto now = holders(deadline);
  if (!now) {
    observed = {{"error", std::string(to_string(now.error().code))}};
    return std::nullopt;
  }
  observed = {{"matches", now->size()}};
  for (const std::string& holder : *now) {
    if (!held_before_.contains(holder)) return true;
  }
  return false;
}

ExpectationResult ExpectationCheck::after(Deadline deadline) {
  const auto started = std::chrono::steady_clock::now();
  ExpectationResult result;
  // A state on one element has no "new holder": if it held before, nothing can show that
  // the action caused it.
  if (expectation_.kind == ExpectationKind::kElementState && held_before_at_all_) {
    result.reason = "held_before_the_action";
    return result;
  }
  const Deadline until = std::min(deadline, started + expectation_.timeout);
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) break;
    const auto held = newly_holds(until, result.observed);
    if (held.value_or(false)) {
      result.met = true;
      result.reason = "met";
      result.waited_ms = milliseconds_since(started);
      return result;
    }
    std::this_thread::sleep_until(std::min(until, std::chrono::steady_clock::now() + kPollInterval));
  }
  result.reason = "timeout";
  result.waited_ms = milliseconds_since(started);
  return result;
}

}  // namespace companyos::a11y
