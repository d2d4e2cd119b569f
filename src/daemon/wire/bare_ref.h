// A bare ref ("e12") given with the app (and window or title) instead of its snapshot
// names an element of the newest snapshot of that window. This binds it: the params come
// back with "snapshot" set and the window keys dropped, ready for parse_action_request.
#pragma once

#include <memory>
#include <span>

#include <nlohmann/json.hpp>

#include "a11y/model.h"
#include "companyos/result.h"

namespace companyos::wire {

// Params without a bare ref, or with "snapshot" already, come back unchanged. INVALID_ARGS
// (saying to pass a snapshot id) when no stored snapshot is of a window of that app that
// also has the given window id / title, or when the stored snapshots of the app cover
// several windows and neither window nor title picks one. stored: oldest first.
Result<nlohmann::json> bind_bare_ref(const nlohmann::json& params,
                                     std::span<const std::shared_ptr<const a11y::Snapshot>> stored);

}  // namespace companyos::wire
