// Internal: typed reads of window properties, and atoms by name. Each read returns nullopt
// when the property is absent, has another type or format, or the window is gone (errors
// are trapped).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "x11/connection.h"
#include "x11/xlib.h"

namespace companyos::x11 {

// A 32-bit-format property of `type` (XA_CARDINAL, XA_WINDOW, ...), as Xlib hands it
// over: one long per item.
std::optional<std::vector<unsigned long>> read_longs(Connection& connection, Window window,
                                                     const char* property, Atom type);
// The first item of read_longs.
std::optional<unsigned long> read_long(Connection& connection, Window window, const char* property,
                                       Atom type);
// A UTF8_STRING property such as _NET_WM_NAME.
std::optional<std::string> read_utf8(Connection& connection, Window window, const char* property);
// WM_NAME in whatever encoding the client used (STRING, COMPOUND_TEXT, UTF8_STRING),
// converted to UTF-8.
std::optional<std::string> read_wm_name(Connection& connection, Window window);

// An atom's name; empty for an atom the server does not know.
std::string atom_name(Connection& connection, Atom atom);

struct ClassHint {
  std::string instance;  // res_name
  std::string klass;     // res_class
};
std::optional<ClassHint> read_class_hint(Connection& connection, Window window);

}  // namespace companyos::x11
