#include "daemon/methods/methods.h"

namespace companyos::daemon::methods {

std::vector<const MethodSpec*> all_methods() {
  return {
#define COMPANYOS_METHOD(name) &k##name,
#include "companyos/methods.def"
#undef COMPANYOS_METHOD
  };
}

}  // namespace companyos::daemon::methods
