// Facts about the desktop session for `status`: display server, what the X server offers,
// and whether the accessibility bus and its registry answer. Blocking; run on a worker.
#pragma once

#include <chrono>

#include <nlohmann/json.hpp>

namespace companyos::a11y {
class Observer;
}

namespace companyos::daemon {

nlohmann::json probe_session(a11y::Observer& observer, std::chrono::milliseconds budget);

}  // namespace companyos::daemon
