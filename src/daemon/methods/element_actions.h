// The element actions (click, toggle, select, focus, expand, collapse, action, set_value,
// type) as batch needs to see them: which method is one, and the request its params make.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "a11y/action_request.h"
#include "a11y/snapshot_store.h"
#include "companyos/result.h"
#include "daemon/method_table.h"

namespace companyos::daemon::methods {

// The action a protocol method name asks for ("set_value" → kSetValue), if it is one.
std::optional<a11y::ActionKind> element_action_kind(std::string_view method);

// The request params make: a bare ref given with app (window, title) bound to the newest
// snapshot of that window (bare_ref.h), then parsed strictly. INVALID_ARGS, nothing
// delivered, for anything malformed. Params the method itself takes (timeout_ms, headed)
// are ignored here.
Result<a11y::ActionRequest> element_action_request(a11y::ActionKind kind, const nlohmann::json& params,
                                                   const a11y::SnapshotStore& snapshots);

}  // namespace companyos::daemon::methods
