// Internal: owning handles for the GLib objects this library touches, each freed with the
// matching GLib function when it goes out of scope.
#pragma once

#include <gio/gio.h>
#include <glib.h>

#include <memory>

namespace companyos::launch {

struct GObjectUnref {
  void operator()(gpointer object) const { g_object_unref(object); }
};
struct GErrorFree {
  void operator()(GError* error) const { g_error_free(error); }
};
struct GFree {
  void operator()(gpointer memory) const { g_free(memory); }
};
struct GStrvFree {
  void operator()(gchar** strings) const { g_strfreev(strings); }
};
struct GKeyFileFree {
  void operator()(GKeyFile* key_file) const { g_key_file_free(key_file); }
};
struct GUriUnref {
  void operator()(GUri* uri) const { g_uri_unref(uri); }
};

template <typename T>
using GObjectPtr = std::unique_ptr<T, GObjectUnref>;
using ErrorPtr = std::unique_ptr<GError, GErrorFree>;
using GCharPtr = std::unique_ptr<gchar, GFree>;
using StrvPtr = std::unique_ptr<gchar*, GStrvFree>;
using KeyFilePtr = std::unique_ptr<GKeyFile, GKeyFileFree>;
using UriPtr = std::unique_ptr<GUri, GUriUnref>;

// Collects a GError out-parameter: `call(..., error.out())` then test `error`.
class ErrorSlot {
 public:
  GError** out() { return &raw_; }
  explicit operator bool() const { return raw_ != nullptr; }
  const char* message() const { return raw_ ? raw_->message : ""; }
  ~ErrorSlot() { ErrorPtr owned(raw_); }
  ErrorSlot() = default;
  ErrorSlot(const ErrorSlot&) = delete;
  ErrorSlot& operator=(const ErrorSlot&) = delete;

 private:
  GError* raw_ = nullptr;
};

}  // namespace companyos::launch
