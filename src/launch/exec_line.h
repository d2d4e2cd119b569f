// A desktop entry's Exec value split into arguments by the Desktop Entry Specification's
// quoting rules (not a shell's), with field codes kept apart from literal text.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "companyos/result.h"

namespace companyos::launch {

// The field codes the specification defines; the deprecated ones (%d %D %n %N %v %m) are
// dropped while parsing, as it asks.
enum class FieldCode { kFile, kFiles, kUrl, kUrls, kIcon, kName, kLocation };

// "%f", "%F", "%u", "%U", "%i", "%c", "%k".
std::string_view to_string(FieldCode code);

struct ExecArgument {
  using Part = std::variant<std::string, FieldCode>;
  std::vector<Part> parts;
  bool quoted = false;

  // The argument's text when it holds no field code.
  std::optional<std::string> literal() const;
  friend bool operator==(const ExecArgument&, const ExecArgument&) = default;
};

struct ExecLine {
  std::vector<ExecArgument> arguments;  // the program first; never empty

  bool has(FieldCode code) const;
  // %u or %U: the program is handed URLs.
  bool takes_urls() const;
  // %f, %F, %u or %U: the program is handed local files (as paths or file:// URIs).
  bool takes_files() const;
};

// Parses `value`, the Exec string with the key file's own escapes (\s \n \t \r \\) already
// undone, as GKeyFile returns it. Arguments are separated by spaces; a quoted argument is
// enclosed whole in double quotes, inside which \" \` \$ \\ stand for the character. INVALID_ARGS
// (details.position, a byte offset) for: an unterminated quote, a quote that does not enclose
// a whole argument, a reserved character (space, tab, newline, " ' \ > < ~ | & ; $ * ? # ( ) `)
// outside quotes or unescaped inside them, an unknown field code, a field code inside quotes
// (undefined by the spec), %F/%U/%i not standing alone, more than one of %f/%F/%u/%U, and a
// program that is empty or a field code.
Result<ExecLine> parse_exec(std::string_view value);

}  // namespace companyos::launch
