// Owning handles for GLib/GIO objects, for every module that touches them (a11y, launch,
// desktop, the daemon's services): each frees its object with the matching GLib function
// when it goes out of scope, so no path can leak or double-free. Header only: core itself
// does not link GLib; whoever includes this does.
#pragma once

#include <memory>

#include <gio/gio.h>
#include <glib.h>

namespace companyos {

struct GObjectUnref {
  void operator()(gpointer object) const { g_object_unref(object); }
};
struct GVariantUnref {
  void operator()(GVariant* variant) const { g_variant_unref(variant); }
};
struct GErrorFree {
  void operator()(GError* error) const { g_error_free(error); }
};
struct GFree {
  void operator()(gpointer memory) const { g_free(memory); }
};
struct GBytesUnref {
  void operator()(GBytes* bytes) const { g_bytes_unref(bytes); }
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
struct GMainContextUnref {
  void operator()(GMainContext* context) const { g_main_context_unref(context); }
};
struct GSourceDestroy {
  void operator()(GSource* source) const {
    g_source_destroy(source);
    g_source_unref(source);
  }
};

template <typename T>
using GObjectPtr = std::unique_ptr<T, GObjectUnref>;
using VariantPtr = std::unique_ptr<GVariant, GVariantUnref>;
using ErrorPtr = std::unique_ptr<GError, GErrorFree>;
using GCharPtr = std::unique_ptr<gchar, GFree>;
using BytesPtr = std::unique_ptr<GBytes, GBytesUnref>;
using StrvPtr = std::unique_ptr<gchar*, GStrvFree>;
using KeyFilePtr = std::unique_ptr<GKeyFile, GKeyFileFree>;
using UriPtr = std::unique_ptr<GUri, GUriUnref>;
using MainContextPtr = std::unique_ptr<GMainContext, GMainContextUnref>;
using SourcePtr = std::unique_ptr<GSource, GSourceDestroy>;

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

// A shared, reference-counted GObject (g_object_ref on copy), for objects that several
// threads hold at once, such as a cached GDBusConnection.
template <typename T>
class GObjectRef {
 public:
  GObjectRef() = default;
  // Adopts one reference the caller owns.
  static GObjectRef adopt(T* object) { return GObjectRef(object); }
  static GObjectRef retain(T* object) {
    return GObjectRef(object ? static_cast<T*>(g_object_ref(object)) : nullptr);
  }
  GObjectRef(const GObjectRef& other) : object_(other.object_) {
    if (object_) g_object_ref(object_);
  }
  GObjectRef(GObjectRef&& other) noexcept : object_(other.object_) { other.object_ = nullptr; }
  GObjectRef& operator=(GObjectRef other) noexcept {
    std::swap(object_, other.object_);
    return *this;
  }
  ~GObjectRef() {
    if (object_) g_object_unref(object_);
  }
  T* get() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }

 private:
  explicit GObjectRef(T* object) : object_(object) {}
  T* object_ = nullptr;
};

using ConnectionRef = GObjectRef<GDBusConnection>;

// The i-th child of a container variant, owned.
inline VariantPtr child_of(GVariant* container, gsize index) {
  return VariantPtr(g_variant_get_child_value(container, index));
}

}  // namespace companyos
