#include "a11y/read/toolkit.h"

#include <atspi/atspi.h>
#include <glib.h>

namespace companyos::a11y {
namespace {

bool is_gtk(std::string_view name) {
  return name.size() == 3 && g_ascii_strncasecmp(name.data(), "gtk", 3) == 0;
}

}  // namespace

ToolkitTraits toolkit_traits(std::string_view toolkit_name, std::string_view toolkit_version) {
  ToolkitTraits traits;
  traits.extents_coord_type = ATSPI_COORD_TYPE_SCREEN;
  if (!is_gtk(toolkit_name)) return traits;
  if (toolkit_version.starts_with("3.")) {
    traits.whole_text_with_minus_one = true;
    traits.showing_marks_bounds = true;
  } else if (toolkit_version.starts_with("4.")) {
    traits.extents_coord_type = ATSPI_COORD_TYPE_WINDOW;
  }
  return traits;
}

}  // namespace companyos::a11y
