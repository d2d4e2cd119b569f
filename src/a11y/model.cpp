#include "a11y/model.h"

#include <atspi/atspi.h>

namespace companyos::a11y {

bool WindowInfo::active() const { return has_state(states, ATSPI_STATE_ACTIVE); }

}  // namespace companyos::a11y
