// A private main context for a thread that waits on accessibility events: the event
// signals and timers of one wait (or one settle) are dispatched only there.
#pragma once

#include <chrono>

#include <glib.h>

#include "core/glib_handles.h"

namespace companyos::a11y {

// A fresh main context as the thread's default while it lives.
class ThreadContext {
 public:
  ThreadContext();
  ~ThreadContext();
  ThreadContext(const ThreadContext&) = delete;
  ThreadContext& operator=(const ThreadContext&) = delete;
  GMainContext* get() const { return context_.get(); }

 private:
  MainContextPtr context_;
};

// Iterates the context until wake, or until something was dispatched (an event came); with
// wake already past, dispatches what is pending and returns.
void sleep_until(GMainContext* context, std::chrono::steady_clock::time_point wake);

}  // namespace companyos::a11y
