#include "x11/properties.h"

#include <memory>

#include "x11/error_trap.h"
#include "x11/xlib.h"

namespace companyos::x11 {
namespace {

using XData = XPtr<unsigned char>;

struct StringListDeleter {
  void operator()(char** list) const { XFreeStringList(list); }
};

// Properties we read are small; this bound keeps a hostile client from making us copy
// megabytes (the unit is 32-bit words).
constexpr long kMaxPropertyWords = 1 << 16;

struct RawProperty {
  Atom type = None;
  int format = 0;
  unsigned long count = 0;
  XData data;
};

std::optional<RawProperty> read_raw(Connection& connection, Window window, Atom property,
                                    Atom requested_type) {
  ErrorTrap trap(connection.display());
  RawProperty raw;
  unsigned long bytes_after = 0;
  unsigned char* data = nullptr;
  const int status =
      XGetWindowProperty(connection.display(), window, property, 0, kMaxPropertyWords, False,
                         requested_type, &raw.type, &raw.format, &raw.count, &bytes_after, &data);
  raw.data.reset(data);
  if (status != Success || trap.first_error() || raw.type == None || !raw.data) {
    return std::nullopt;
  }
  if (requested_type != AnyPropertyType && raw.type != requested_type) return std::nullopt;
  return raw;
}

}  // namespace

std::optional<std::vector<unsigned long>> read_longs(Connection& connection, Window window,
                                                     const char* property, Atom type) {
  auto raw = read_raw(connection, window, connection.atom(property), type);
  if (!raw || raw->format != 32) return std::nullopt;
  const auto* items = reinterpret_cast<const unsigned long*>(raw->data.get());
  return std::vector<unsigned long>(items, items + raw->count);
}

std::optional<unsigned long> read_long(Connection& connection, Window window, const char* property,
                                       Atom type) {
  auto items = read_longs(connection, window, property, type);
  if (!items || items->empty()) return std::nullopt;
  return items->front();
}

std::optional<std::string> read_utf8(Connection& connection, Window window, const char* property) {
  auto raw =
      read_raw(connection, window, connection.atom(property), connection.atom("UTF8_STRING"));
  if (!raw || raw->format != 8) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(raw->data.get()), raw->count);
}

std::optional<std::string> read_wm_name(Connection& connection, Window window) {
  ErrorTrap trap(connection.display());
  XTextProperty text{};
  if (XGetWMName(connection.display(), window, &text) == 0 || trap.first_error()) {
    return std::nullopt;
  }
  const XData text_owner(text.value);
  char** list = nullptr;
  int count = 0;
  const int converted = Xutf8TextPropertyToTextList(connection.display(), &text, &list, &count);
  const std::unique_ptr<char*, StringListDeleter> list_owner(list);
  if (converted < Success || count < 1 || list == nullptr) return std::nullopt;
  return std::string(list[0]);
}

std::string atom_name(Connection& connection, Atom atom) {
  XPtr<char> name(XGetAtomName(connection.display(), atom));
  return name ? std::string(name.get()) : std::string();
}

std::optional<ClassHint> read_class_hint(Connection& connection, Window window) {
  ErrorTrap trap(connection.display());
  XClassHint hint{};
  const int got = XGetClassHint(connection.display(), window, &hint);
  const XPtr<char> name_owner(hint.res_name);
  const XPtr<char> class_owner(hint.res_class);
  if (got == 0 || trap.first_error()) return std::nullopt;
  return ClassHint{hint.res_name ? hint.res_name : "", hint.res_class ? hint.res_class : ""};
}

}  // namespace companyos::x11
