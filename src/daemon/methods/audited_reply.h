// The audit row of an effectful method: opened before the method runs, completed when its
// reply arrives on the main loop, with method, app, target role, outcome (delivery, or the
// error code) and duration. Only those fields are recorded — never text, values or output.
#pragma once

#include <optional>
#include <string>

#include "daemon/context.h"
#include "daemon/method_table.h"

namespace companyos::daemon {

// Opens the row and wraps reply so that the row is completed before the reply goes out.
// When the row cannot be written (a full disk: STORAGE_FULL), nothing is wrapped: the error
// comes back, with details.delivery "not_delivered", and the method must not run.
Result<Reply> audited_reply(DaemonContext& ctx, std::string method, std::string app, Reply reply);

}  // namespace companyos::daemon
