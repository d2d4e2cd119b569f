#include "daemon/server/flow_control.h"

namespace companyos::daemon {

bool may_dispatch(const Backlog& backlog, const FlowLimits& limits) {
  return backlog.unsent_bytes < limits.max_unsent_bytes;
}

bool may_read(const Backlog& backlog, const FlowLimits& limits) {
  return may_dispatch(backlog, limits) && backlog.queued_lines < limits.max_queued_lines &&
         backlog.queued_bytes < limits.max_queued_bytes;
}

}  // namespace companyos::daemon
