// How far one connection may run ahead of its client. A client that pipelines requests
// and never reads would otherwise have every reply queued in the daemon's memory; so a
// connection stops dispatching while its unsent replies exceed a bound, and stops reading
// while its queue of read-but-undispatched requests is long, and both resume as the
// client catches up. Pure decisions, so the bounds can be tested without sockets.
#pragma once

#include <cstddef>

namespace companyos::daemon {

struct FlowLimits {
  std::size_t max_unsent_bytes = 1024 * 1024;       // replies not yet taken by the socket
  std::size_t max_queued_lines = 256;               // requests read, not yet dispatched
  std::size_t max_queued_bytes = 4 * 1024 * 1024;   // their text (one longest line)
  // Requests one connection answers in one turn of the main loop before the others get
  // theirs: without it, one pipelining client had up to max_unsent_bytes of replies made
  // before a ping on another connection was read (10 s under ASan with 32 such clients).
  std::size_t dispatch_quantum = 8;
};

struct Backlog {
  std::size_t unsent_bytes = 0;
  std::size_t queued_lines = 0;
  std::size_t queued_bytes = 0;
};

// Whether the next queued request may be answered now.
bool may_dispatch(const Backlog& backlog, const FlowLimits& limits = {});
// Whether more may be read from the socket now. Reading stops when dispatch does (what
// is read could only wait) and when the queue is full. One read may overshoot a bound by
// what one chunk frames; the socket's own buffer then holds the rest.
bool may_read(const Backlog& backlog, const FlowLimits& limits = {});

}  // namespace companyos::daemon
