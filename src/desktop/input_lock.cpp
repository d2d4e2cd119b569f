#include "desktop/input_lock.h"

namespace companyos::desktop {

std::mutex& physical_input_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace companyos::desktop
