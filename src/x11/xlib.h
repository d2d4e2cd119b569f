// Internal: the one place src/x11 includes the Xlib headers. Xlib defines `Status` as a
// macro, which would rewrite companyos::Status; it is removed here, once the prototypes
// that use it have been read. (The keysym-only headers define no such macro.)
// XPtr<T> owns memory that Xlib allocated and must be released with XFree.
#pragma once

#include <memory>

// Xlib.h must come before the headers that build on it.
// clang-format off
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>
// clang-format on

#undef Status

namespace companyos::x11 {

struct XFreeDeleter {
  void operator()(void* data) const { XFree(data); }
};
template <typename T>
using XPtr = std::unique_ptr<T, XFreeDeleter>;

}  // namespace companyos::x11
