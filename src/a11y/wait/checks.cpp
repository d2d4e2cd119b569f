#include "a11y/wait/checks.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "a11y/bus.h"
#include "a11y/bus/call_scope.h"
#include "a11y/bus/variant_fields.h"
#include "core/glib_handles.h"
#include "a11y/policy.h"
#include "a11y/read/snapshot.h"
#include "a11y/ref.h"
#include "a11y/selected.h"
#include "a11y/vocabulary.h"

namespace companyos::a11y {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Asking a new app its name: it answers once its main loop runs, within tens of
// milliseconds of joining the bus; one that takes longer is named by the next check.
constexpr milliseconds kNameBudget{250};

using Presence = ElementSighting::Presence;

ElementSighting sighting(Presence presence) {
  ElementSighting seen;
  seen.presence = presence;
  return seen;
}

// A ref's resolution that failed, as a sighting: no element with its identity, its window
// gone, or twins; any other failure proves nothing either way (no sighting).
void classify_element_error(Error error, ElementSeen& seen) {
  const auto kind = error.details.value("kind", std::string());
  if (error.code == ErrorCode::kStaleRef && kind == "saved_ref_absent") {
    seen.sighting = sighting(Presence::kNone);
  } else if (error.code == ErrorCode::kStaleRef && kind == "window_gone") {
    seen.sighting = sighting(Presence::kWindowGone);
    seen.problem = std::move(error);
  } else if (error.code == ErrorCode::kAmbiguousTarget) {
    seen.sighting = sighting(Presence::kSeveral);
  } else {
    seen.problem = std::move(error);
  }
}

ElementSighting sighting_of(const Node& node) {
  ElementSighting seen = sighting(Presence::kOne);
  seen.value = node.value;
  seen.value_withheld = node.value_withheld;
  seen.states = node.states;
  return seen;
}

// What a look inside the windows starts from: whether the listing answered and the app runs.
template <typename Seen>
void take_listing(const WindowsSeen& listed, Seen& seen) {
  seen.answered = listed.answered;
  seen.app_running = listed.app_running;
  seen.problem = listed.problem;
}

}  // namespace

WindowsSeen check_windows(Observer& observer, const std::string& app, Deadline deadline) {
  WindowsSeen seen;
  auto windows = observer.windows(app, deadline);
  if (windows) {
    seen.app_running = true;
    seen.windows = std::move(windows).value();
  } else if (windows.error().code == ErrorCode::kAppNotFound) {
    seen.app_running = false;
  } else {
    seen.answered = false;
    seen.app_running = true;
    seen.problem = std::move(windows).take_error();
  }
  return seen;
}

TextSeen check_text(Observer& observer, const TextAppears& condition, Deadline deadline) {
  TextSeen seen;
  const WindowsSeen listed = check_windows(observer, condition.app, deadline);
  take_listing(listed, seen);
  for (const WindowInfo& window : listed.windows) {
    auto read = read_window(observer.bus(), window, deadline);
    if (!read) {
      if (read.error().code == ErrorCode::kWindowNotFound) continue;  // closed meanwhile
      seen.answered = false;
      seen.problem = std::move(read).take_error();
      continue;
    }
    ++seen.windows_read;
    seen.nodes_read += read->nodes.size();
    auto match = find_text(*read, condition.text);
    if (!match) continue;
    // Stored like a snapshot, so the caller can act on the element it found.
    auto taken = std::make_shared<Snapshot>(std::move(read).value());
    taken->id = observer.store().next_id();
    match->ref = format_ref(taken->id, match->index);
    observer.store().put(std::move(taken));
    seen.match = std::move(match);
    break;
  }
  return seen;
}

SurfaceSeen check_surface(Observer& observer, const SurfaceOpens& condition, Deadline deadline) {
  SurfaceSeen seen;
  const WindowsSeen listed = check_windows(observer, condition.app, deadline);
  take_listing(listed, seen);
  for (const WindowInfo& window : listed.windows) {
    auto open = observer.surfaces_in(window, deadline);
    if (!open) {
      if (open.error().code == ErrorCode::kWindowNotFound) continue;  // closed meanwhile
      seen.answered = false;
      seen.problem = std::move(open).take_error();
      continue;
    }
    ++seen.windows_read;
    seen.surfaces_open += open->size();
    // The innermost of the kind: the last found (a submenu follows its menu).
    const auto innermost = std::find_if(open->rbegin(), open->rend(), [&](const OpenSurface& surface) {
      return !condition.kind || surface.surface.kind == *condition.kind;
    });
    if (innermost == open->rend()) continue;
    const Snapshot& snapshot = *innermost->snapshot;
    const Surface& surface = innermost->surface;
    const Node& node = snapshot.nodes[static_cast<std::size_t>(surface.node)];
    seen.match = SurfaceOpenedEvidence{
        .window_id = snapshot.window.id,
        .window_title = snapshot.window.title,
        .ref = format_ref(snapshot.id, node.ref),
        .kind = std::string(to_string(surface.kind)),
        .role = role_name(node.role),
        .name = node.name,
        .items = surface.items,
        .opener_ref = surface.opener < 0
                          ? std::string()
                          : format_ref(snapshot.id, snapshot.nodes[static_cast<std::size_t>(surface.opener)].ref)};
    break;
  }
  return seen;
}

ElementSeen check_element(Observer& observer, const ElementPredicate& condition,
                          Deadline deadline) {
  ElementSeen seen;
  if (condition.predicate == Predicate::kExists || condition.predicate == Predicate::kGone) {
    auto resolved = observer.resolve(condition.ref, deadline);
    if (resolved) {
      seen.sighting = sighting(Presence::kOne);
    } else {
      classify_element_error(std::move(resolved).take_error(), seen);
    }
    return seen;
  }
  auto details = observer.get(condition.ref, deadline);
  if (!details) {
    classify_element_error(std::move(details).take_error(), seen);
    return seen;
  }
  seen.sighting = sighting_of(details->node);
  return seen;
}

ElementSeen check_selected(Observer& observer, const SelectedElement& condition, Deadline deadline) {
  ElementSeen seen;
  auto found = find_selected(observer, condition.selector, deadline);
  if (!found) {
    const ErrorCode code = found.error().code;
    // The app or its window not there (yet): a selector's window gone, which it waits through.
    if (code == ErrorCode::kAppNotFound || code == ErrorCode::kWindowNotFound) {
      seen.sighting = sighting(Presence::kWindowGone);
    }
    seen.problem = std::move(found).take_error();
    return seen;
  }
  if (found->size() == 1) {
    seen.sighting = sighting_of(*found->front().node);
    seen.ref = found->front().ref;
  } else {
    seen.sighting = sighting(found->empty() ? Presence::kNone : Presence::kSeveral);
    seen.sighting->matches = found->size();
  }
  return seen;
}

std::optional<std::string> ask_app_name(Observer& observer, const std::string& bus_name,
                                        Deadline deadline) {
  CallScope scope(std::min(deadline, Clock::now() + kNameBudget));
  auto bus = observer.bus().bus_channel(scope);
  if (!bus) return std::nullopt;
  std::optional<std::string> name;
  scope.call(Channel{bus->connection, bus_name, bus->router}, kRootPath, kPropertiesInterface,
             "Get", g_variant_new("(ss)", kAccessibleInterface, "Name"),
             [&name](GVariant* reply, const GError*) {
               const VariantPtr value = property_value(reply);
               if (value && g_variant_is_of_type(value.get(), G_VARIANT_TYPE_STRING)) {
                 name = g_variant_get_string(value.get(), nullptr);
               }
             });
  scope.wait();
  if (name && !name->empty()) observer.bus().remember_app_name(bus_name, *name);
  return name;
}

Result<std::string> element_app(Observer& observer, const ElementPredicate& condition) {
  auto ref = parse_ref(condition.ref);
  if (!ref) return std::move(ref).take_error();
  auto stored = observer.store().lookup(*ref);
  if (!stored) return std::move(stored).take_error();
  if (auto allowed = check_observation_allowed(stored->snapshot->app_name); !allowed) {
    return std::move(allowed).take_error();
  }
  if (condition.predicate == Predicate::kValue && is_password_role(stored->node->role)) {
    return make_error(ErrorCode::kPolicyDenied, "the value of a password field is never read",
                      {{"ref", condition.ref}}, "wait for another element");
  }
  return stored->snapshot->bus_name;
}

}  // namespace companyos::a11y
