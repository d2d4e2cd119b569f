// Marks an object passed from one thread to another through GLib, for ThreadSanitizer.
// GThreadPool and g_main_context_invoke order the hand-off with GMutex, a bare futex on
// Linux that TSan does not see, so without these it would report every later read of the
// object as a race. Outside a -fsanitize=thread build they are empty.
#pragma once

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace companyos {

// In the sending thread, after its last write to object and before handing it over.
inline void handoff_release([[maybe_unused]] void* object) {
#if defined(__SANITIZE_THREAD__)
  __tsan_release(object);
#endif
}

// In the receiving thread, before its first read of object.
inline void handoff_acquire([[maybe_unused]] void* object) {
#if defined(__SANITIZE_THREAD__)
  __tsan_acquire(object);
#endif
}

}  // namespace companyos
