// Reading what a non-blocking pipe holds now, without waiting: the loop every reader of a
// child's output shares (a command's output, a launch's, pi's stdout and stderr).
#pragma once

#include <functional>
#include <string_view>

#include "core/unique_fd.h"

namespace companyos {

enum class PipeRead {
  kDrained,  // nothing more to read now; the pipe is open
  kClosed,   // the pipe reached its end (or broke): `fd` is closed
  kHeld,     // `take` asked to stop; what is left stays in the pipe
};

// Hands each chunk read to `take` until the pipe is empty, ends, or `take` returns false.
// Retries reads interrupted by a signal.
PipeRead read_available(UniqueFd& fd, const std::function<bool(std::string_view)>& take);

}  // namespace companyos
