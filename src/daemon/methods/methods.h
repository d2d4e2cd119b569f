// The handlers of the protocol's methods, each paired with its declaration
// (companyos/methods.h).
#pragma once

#include <vector>

#include "daemon/method_table.h"

namespace companyos::daemon::methods {

// Every method's handler (companyos/methods.def lists them).
#define COMPANYOS_METHOD(name) extern const MethodSpec k##name;
#include "companyos/methods.def"
#undef COMPANYOS_METHOD

// Every handler, in the order of methods.def.
std::vector<const MethodSpec*> all_methods();

}  // namespace companyos::daemon::methods
