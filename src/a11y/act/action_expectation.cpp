#include "a11y/action_expectation.h"

#include <thread>

#include "a11y/live_resolve.h"
#include "a11y/read/snapshot.h"

namespace companyos::a11y {
namespace {

using namespace std::chrono_literals;

constexpr auto kPollInterval = 15ms;

double waited_ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

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

std::optional<bool> ExpectationCheck::newly_holds(Deadline deadline,
                                                  std::optional<ExpectationObservation>& observed) {
  auto now = holders(deadline);
  if (!now) {
    observed = ExpectationObservation{std::nullopt, now.error().code};
    return std::nullopt;
  }
  observed = ExpectationObservation{now->size(), std::nullopt};
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
      result.waited_ms = waited_ms_since(started);
      return result;
    }
    std::this_thread::sleep_until(std::min(until, std::chrono::steady_clock::now() + kPollInterval));
  }
  result.reason = "timeout";
  result.waited_ms = waited_ms_since(started);
  return result;
}

}  // namespace companyos::a11y
