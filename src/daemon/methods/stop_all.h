// Stop-all, shared by the stop_all method and by settings.set automations_enabled=false:
// every automation disabled, every active run stopped, on a worker (stopping waits for the
// steps to end). Replies {disabled, stopped: [runs]}.
#pragma once

#include "daemon/context.h"
#include "daemon/method_table.h"

namespace companyos::daemon::methods {

void stop_all_automations(DaemonContext& ctx, Reply reply);

}  // namespace companyos::daemon::methods
