// The moment a synchronous call must be done by: every bounded call (reads, actions,
// waits) takes one, and everything it starts shares it, so a call that hangs costs at most
// the caller's budget. A point on the steady clock, which never jumps.
#pragma once

#include <chrono>

namespace companyos {

using Deadline = std::chrono::steady_clock::time_point;

}  // namespace companyos
