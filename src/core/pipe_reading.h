// Reading what a non-blocking pipe holds now, without waiting: the loop every reader of a
// child's output shares (a command's output, a launch's, pi's stdout and stderr).
#pragma once

#include <chrono>
#include <functional>
#include <initializer_list>
#include <string_view>

#include "core/unique_fd.h"

namespace companyos {

enum class PipeRead {
  kDrained,  // nothing more to read now; the pipe is open
  kClosed,   // the pipe reached its end (or broke): `fd` is closed
  kHeld,     // `take` asked to stop; what is left stays in the pipe
};

// Waits at most LIMIT (negative: not at all; capped at INT_MAX ms) until one of READABLE can
// be read or one of WRITABLE written, or a signal comes; descriptors below 0 are skipped.
// What became ready is for the caller's next reads to find.
void wait_for_descriptors(std::initializer_list<int> readable, std::initializer_list<int> writable,
                          std::chrono::milliseconds limit);

// Hands each chunk read to `take` until the pipe is empty, ends, or `take` returns false.
// Retries reads interrupted by a signal.
PipeRead read_available(UniqueFd& fd, const std::function<bool(std::string_view)>& take);

}  // namespace companyos
