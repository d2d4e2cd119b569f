#include <array>
#include <string>

#include "companyos/methods.h"

namespace companyos::methods {
namespace {

// Function-local: the declarations live in other files, so their addresses are taken here
// only after static initialisation, never during it.
std::span<const MethodDeclaration* const> table() {
  static const std::array all = {
#define COMPANYOS_METHOD(name) &k##name,
#include "companyos/methods.def"
#undef COMPANYOS_METHOD
  };
  return all;
}

std::string params_cell(const MethodDeclaration& method) {
  if (method.params.empty()) return "—";
  std::string cell;
  for (const ParamSpec& param : method.params) {
    if (!cell.empty()) cell += ", ";
    cell += "`" + std::string(param.name) + (param.required ? "" : "?") + "`";
    if (param.range) {
      cell += " (" + std::to_string(param.range->min) +
              (param.range->max ? "–" + std::to_string(*param.range->max) : " or more") + ")";
    }
    if (param.length) cell += " (" + length_text(*param.length) + ")";
  }
  return cell;
}

}  // namespace

std::string markdown_table() {
  std::string table = "| method | CLI | params | data |\n|---|---|---|---|\n";
  for (const MethodDeclaration* method : all()) {
    table += "| `" + std::string(method->name) + "` | " +
             (method->command.empty() ? "—" : "`companyos " + std::string(method->command) + "`") + " | " +
             params_cell(*method) + " | " + std::string(method->returns) + " |\n";
  }
  return table;
}

std::span<const MethodDeclaration* const> all() { return table(); }

const MethodDeclaration* find(std::string_view name) {
  for (const MethodDeclaration* method : table()) {
    if (method->name == name) return method;
  }
  return nullptr;
}

const MethodDeclaration* find_command(std::string_view command) {
  for (const MethodDeclaration* method : table()) {
    if (!method->command.empty() && method->command == command) return method;
  }
  return nullptr;
}

}  // namespace companyos::methods
