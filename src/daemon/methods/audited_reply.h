// Wraps an action's reply so that, when it arrives on the main loop, one audit row is
// written: method, app, target role, outcome (delivery, or the error code) and duration.
// Only those fields are recorded — never text, values or output.
#pragma once

#include <string>

#include "daemon/context.h"
#include "daemon/method_table.h"

namespace companyos::daemon {

Reply audited_reply(DaemonContext& ctx, std::string method, std::string app, Reply reply);

}  // namespace companyos::daemon
