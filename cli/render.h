// Human-readable output: aligned key/value blocks and tables.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace companyos::cli {

// A scalar as a person reads it: strings unquoted with every control, bidi override and
// stray byte shown as a visible escape (core/text.h), null as "-".
std::string plain(const nlohmann::json& value);

// Nested objects flatten to dotted keys ("store.path"); keys are aligned.
void render_fields(std::ostream& out, const nlohmann::json& object);

struct Column {
  std::string header;
  std::string key;  // field of each row; dotted for nested fields
};
void render_table(std::ostream& out, const nlohmann::json& rows, const std::vector<Column>& columns);

// An action's settled state (--settle), when its reply holds one: a line saying when the app
// settled and which window it is, then the window's outline.
void render_settled_state(std::ostream& out, const nlohmann::json& data);

}  // namespace companyos::cli
