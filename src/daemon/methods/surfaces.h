// What `surfaces` and `snapshot --surface` share: the kind a caller names, and the open
// surfaces of that kind.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "a11y/observer.h"
#include "core/result.h"

namespace companyos::daemon::methods {

// "menu", "list", "tooltip" (and "any", nullopt, where any_allowed); INVALID_ARGS otherwise.
Result<std::optional<a11y::SurfaceKind>> surface_filter(const std::string& name, bool any_allowed);
// The surfaces of that kind (all when nullopt), in the order found.
std::vector<a11y::OpenSurface> of_kind(std::vector<a11y::OpenSurface> open, std::optional<a11y::SurfaceKind> kind);

}  // namespace companyos::daemon::methods
