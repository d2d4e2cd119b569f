#include "daemon/methods/combo/open_list.h"

#include <chrono>
#include <thread>

#include "a11y/vocabulary.h"

namespace companyos::daemon::methods::combo {
namespace {

// How often an opened combo box is looked at for its list.
constexpr std::chrono::milliseconds kListPoll{50};

std::uint32_t combo_box_role() { return static_cast<std::uint32_t>(a11y::role_from_name("combo box")); }

}  // namespace

a11y::ActionRequest as_kind(const a11y::ActionRequest& request, a11y::ActionKind kind, a11y::ActionTarget target) {
  a11y::ActionRequest changed;
  changed.kind = kind;
  changed.target = std::move(target);
  if (kind == a11y::ActionKind::kSelect) changed.expect = request.expect;
  changed.strict = request.strict;
  changed.verify_timeout = request.verify_timeout;
  changed.answer_timeout = request.answer_timeout;
  changed.caller_gone = request.caller_gone;
  return changed;
}

std::optional<a11y::OpenSurface> open_list(a11y::Observer& observer, const std::string& window_id, Deadline deadline) {
  for (;;) {
    if (const auto window = observer.bus().known_window(window_id)) {
      if (auto open = observer.surfaces_in(*window, deadline)) {
        for (a11y::OpenSurface& found : *open) {
          // Gecko's copy of an open <select> is a menu under a combo box of its own.
          const auto& surface = found.surface;
          const bool under_a_combo_box =
              surface.opener >= 0 &&
              found.snapshot->nodes[static_cast<std::size_t>(surface.opener)].role == combo_box_role();
          if (surface.items == 0 || (surface.kind != a11y::SurfaceKind::kList && !under_a_combo_box)) continue;
          return std::move(found);
        }
      }
    }
    if (std::chrono::steady_clock::now() + kListPoll >= deadline) return std::nullopt;
    std::this_thread::sleep_for(kListPoll);
  }
}

}  // namespace companyos::daemon::methods::combo
