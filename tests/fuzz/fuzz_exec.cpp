// A desktop entry's Exec value (parse_exec, by the Desktop Entry Specification's quoting
// rules), the program it really starts (resolve_exec_program, is_interpreter_name), and a
// launch target checked against it (check_target: a link parsed by GUri, or a file path or
// file:// URI). Properties: a parsed line starts with a literal, non-empty program, holds
// at most one of %f %F %u %U, and its takes_urls/takes_files agree with its field codes; a
// target accepted has the form check_target promises.
//
// Input: two lines: the Exec value (the key file's own escapes already undone), and a
// target, tried both as a link and as a file.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "fuzz_support.h"
#include "launch/desktop_entry.h"
#include "launch/exec_line.h"
#include "launch/exec_program.h"
#include "launch/target.h"

namespace companyos::fuzz {
namespace {

using namespace companyos::launch;

void check_line(const ExecLine& line) {
  FUZZ_CHECK(!line.arguments.empty());
  const auto program = line.arguments.front().literal();
  FUZZ_CHECK(program && !program->empty());
  int file_or_url_codes = 0;
  for (const ExecArgument& argument : line.arguments) {
    for (const auto& part : argument.parts) {
      const auto* code = std::get_if<FieldCode>(&part);
      if (code == nullptr) continue;
      FUZZ_CHECK(!argument.quoted);  // field codes inside quotes are refused
      if (*code == FieldCode::kFile || *code == FieldCode::kFiles || *code == FieldCode::kUrl ||
          *code == FieldCode::kUrls) {
        ++file_or_url_codes;
      }
      // %F, %U and %i stand alone as an argument.
      if (*code == FieldCode::kFiles || *code == FieldCode::kUrls || *code == FieldCode::kIcon) {
        FUZZ_CHECK(argument.parts.size() == 1);
      }
    }
  }
  FUZZ_CHECK(file_or_url_codes <= 1);
  FUZZ_CHECK(line.takes_urls() == (line.has(FieldCode::kUrl) || line.has(FieldCode::kUrls)));
  FUZZ_CHECK(line.takes_files() == (line.takes_urls() || line.has(FieldCode::kFile) ||
                                    line.has(FieldCode::kFiles)));
}

// Names are found in a fixed place, so the result does not depend on this machine's PATH.
std::optional<std::filesystem::path> fixed_locator(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return std::nullopt;
  return std::filesystem::path("/usr/bin") / name;
}

void check_program(const ExecLine& line) {
  const ExecProgram program = resolve_exec_program(line, fixed_locator);
  FUZZ_CHECK(!program.program.empty());  // env without a command stays the program
  if (program.interpreter) FUZZ_CHECK(is_interpreter_name(*program.interpreter));
}

void check_targets(const ExecLine& line, const std::string& exec, const std::string& value) {
  DesktopEntry entry;
  entry.id = "fuzz.desktop";
  entry.exec = exec;
  entry.mime_types = {"x-scheme-handler/https", "x-scheme-handler/http", "x-scheme-handler/mailto",
                      "text/plain"};
  if (!check_target(entry, line, Target{TargetKind::kLink, value})) {
    FUZZ_CHECK(line.takes_urls());
    FUZZ_CHECK(is_valid_utf8_without_nul(value) && !has_control_characters(value));
    FUZZ_CHECK(value.find(' ') == std::string::npos);
  }
  if (!check_target(entry, line, Target{TargetKind::kFile, value})) {
    FUZZ_CHECK(line.takes_files());
    // The file checked is the file gio is given: the path as a C string is the whole path.
    FUZZ_CHECK(value.find('\0') == std::string::npos);
  }
}

}  // namespace
}  // namespace companyos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  const auto lines = fuzz::fields(fuzz::as_text(data, size), 2);
  auto line = launch::parse_exec(lines[0]);
  if (!line) {
    FUZZ_CHECK(line.error().code == ErrorCode::kInvalidArgs);
    return 0;
  }
  fuzz::check_line(*line);
  fuzz::check_program(*line);
  fuzz::check_targets(*line, lines[0], lines[1]);
  return 0;
}
