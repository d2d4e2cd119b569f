#include "core/object_reader.h"

namespace companyos {

std::string joined(Fields names) {
  std::string text;
  for (std::string_view name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

}  // namespace companyos
