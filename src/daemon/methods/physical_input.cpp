#include "daemon/methods/physical_input.h"

#include "store/settings.h"

namespace companyos::daemon {

Status check_physical_input(store::Settings& settings, bool headed) {
  auto enabled = settings.get("physical_input");
  if (!enabled) return std::move(enabled).take_error();
  if (*enabled == true && headed) return ok_status();
  return make_error(ErrorCode::kPolicyDenied,
                    *enabled != true ? "physical input is off (setting physical_input)"
                                     : "physical input needs --headed on the request",
                    {{"reason", "physical_input_disabled"}},
                    "companyos settings set physical_input true, then repeat with --headed");
}

}  // namespace companyos::daemon
