#include "launch/exec_line.h"

#include <algorithm>

namespace companyos::launch {
namespace {

constexpr std::string_view kReservedOutsideQuotes = " \t\n\"'\\><~|&;$*?#()`";
constexpr std::string_view kEscapableInsideQuotes = "\"`$\\";
constexpr std::string_view kDeprecatedFieldCodes = "dDnNvm";

Error exec_error(std::string message, std::size_t position) {
  return make_error(ErrorCode::kInvalidArgs, std::move(message), {{"position", position}},
                    "quote the argument as the Desktop Entry Specification describes");
}

std::optional<FieldCode> field_code_for(char letter) {
  switch (letter) {
    case 'f':
      return FieldCode::kFile;
    case 'F':
      return FieldCode::kFiles;
    case 'u':
      return FieldCode::kUrl;
    case 'U':
      return FieldCode::kUrls;
    case 'i':
      return FieldCode::kIcon;
    case 'c':
      return FieldCode::kName;
    case 'k':
      return FieldCode::kLocation;
    default:
      return std::nullopt;
  }
}

bool must_stand_alone(FieldCode code) {
  return code == FieldCode::kFiles || code == FieldCode::kUrls || code == FieldCode::kIcon;
}

bool names_targets(FieldCode code) {
  return code == FieldCode::kFile || code == FieldCode::kFiles || code == FieldCode::kUrl ||
         code == FieldCode::kUrls;
}

void append_text(ExecArgument& argument, char c) {
  if (argument.parts.empty() || !std::holds_alternative<std::string>(argument.parts.back())) {
    argument.parts.emplace_back(std::string());
  }
  std::get<std::string>(argument.parts.back()).push_back(c);
}

// Reads one quoted argument starting at the opening quote; advances `pos` past the closing one.
Result<ExecArgument> read_quoted(std::string_view value, std::size_t& pos) {
  const std::size_t opening = pos++;
  ExecArgument argument;
  argument.quoted = true;
  argument.parts.emplace_back(std::string());
  std::string& text = std::get<std::string>(argument.parts.back());
  while (true) {
    if (pos >= value.size()) return exec_error("unterminated double quote", opening);
    const char c = value[pos];
    if (c == '"') break;
    if (c == '\\') {
      if (pos + 1 >= value.size() ||
          kEscapableInsideQuotes.find(value[pos + 1]) == std::string_view::npos) {
        return exec_error("inside double quotes a backslash may only escape \" ` $ or \\", pos);
      }
      text.push_back(value[pos + 1]);
      pos += 2;
      continue;
    }
    if (c == '`' || c == '$') {
      return exec_error(std::string("'") + c + "' must be escaped inside double quotes", pos);
    }
    if (c == '%') {
      return exec_error("a field code inside a quoted argument is undefined by the specification",
                        pos);
    }
    text.push_back(c);
    ++pos;
  }
  ++pos;  // the closing quote
  if (pos < value.size() && value[pos] != ' ') {
    return exec_error("a double quote must enclose a whole argument", pos);
  }
  return argument;
}

// Reads one unquoted argument; advances `pos` to the space or end after it.
Result<ExecArgument> read_unquoted(std::string_view value, std::size_t& pos) {
  ExecArgument argument;
  while (pos < value.size() && value[pos] != ' ') {
    const char c = value[pos];
    if (c == '%') {
      if (pos + 1 >= value.size()) return exec_error("'%' at the end of Exec", pos);
      const char letter = value[pos + 1];
      if (letter == '%') {
        append_text(argument, '%');
      } else if (auto code = field_code_for(letter)) {
        argument.parts.emplace_back(*code);
      } else if (kDeprecatedFieldCodes.find(letter) == std::string_view::npos) {
        return exec_error(std::string("unknown field code %") + letter, pos);
      }
      pos += 2;
      continue;
    }
    if (c == '"') return exec_error("a double quote must enclose a whole argument", pos);
    if (kReservedOutsideQuotes.find(c) != std::string_view::npos) {
      return exec_error(std::string("reserved character '") + c + "' outside double quotes", pos);
    }
    append_text(argument, c);
    ++pos;
  }
  return argument;
}

Status check_field_codes(const ExecLine& line) {
  int target_codes = 0;
  for (std::size_t i = 0; i < line.arguments.size(); ++i) {
    const auto& parts = line.arguments[i].parts;
    for (const auto& part : parts) {
      const auto* code = std::get_if<FieldCode>(&part);
      if (!code) continue;
      if (must_stand_alone(*code) && parts.size() != 1) {
        return make_error(ErrorCode::kInvalidArgs,
                          std::string(to_string(*code)) + " must be an argument on its own",
                          {{"argument", i}});
      }
      if (names_targets(*code)) ++target_codes;
    }
  }
  if (target_codes > 1) {
    return make_error(ErrorCode::kInvalidArgs, "Exec may hold only one of %f, %F, %u and %U");
  }
  return ok_status();
}

}  // namespace

std::string_view to_string(FieldCode code) {
  switch (code) {
    case FieldCode::kFile:
      return "%f";
    case FieldCode::kFiles:
      return "%F";
    case FieldCode::kUrl:
      return "%u";
    case FieldCode::kUrls:
      return "%U";
    case FieldCode::kIcon:
      return "%i";
    case FieldCode::kName:
      return "%c";
    case FieldCode::kLocation:
      return "%k";
  }
  return "%?";
}

std::optional<std::string> ExecArgument::literal() const {
  std::string text;
  for (const auto& part : parts) {
    const auto* piece = std::get_if<std::string>(&part);
    if (!piece) return std::nullopt;
    text += *piece;
  }
  return text;
}

bool ExecLine::has(FieldCode code) const {
  return std::any_of(arguments.begin(), arguments.end(), [code](const ExecArgument& argument) {
    return std::any_of(argument.parts.begin(), argument.parts.end(), [code](const auto& part) {
      const auto* found = std::get_if<FieldCode>(&part);
      return found && *found == code;
    });
  });
}

bool ExecLine::takes_urls() const { return has(FieldCode::kUrl) || has(FieldCode::kUrls); }

bool ExecLine::takes_files() const {
  return takes_urls() || has(FieldCode::kFile) || has(FieldCode::kFiles);
}

Result<ExecLine> parse_exec(std::string_view value) {
  ExecLine line;
  std::size_t pos = 0;
  while (true) {
    while (pos < value.size() && value[pos] == ' ') ++pos;
    if (pos >= value.size()) break;
    auto argument = value[pos] == '"' ? read_quoted(value, pos) : read_unquoted(value, pos);
    if (!argument) return std::move(argument).take_error();
    // An argument made only of deprecated field codes vanishes with them.
    if (argument->quoted || !argument->parts.empty()) {
      line.arguments.push_back(std::move(argument).value());
    }
  }
  if (line.arguments.empty()) return make_error(ErrorCode::kInvalidArgs, "Exec is empty");
  const auto program = line.arguments.front().literal();
  if (!program) return make_error(ErrorCode::kInvalidArgs, "the program of Exec is a field code");
  if (program->empty()) return make_error(ErrorCode::kInvalidArgs, "the program of Exec is empty");
  if (auto codes = check_field_codes(line); !codes) return std::move(codes).take_error();
  return line;
}

}  // namespace companyos::launch
