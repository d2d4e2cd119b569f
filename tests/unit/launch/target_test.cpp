#include "launch/target.h"

#include <gtest/gtest.h>

#include <fstream>

#include "temp_dir.h"

namespace companyos::launch {
namespace {

DesktopEntry entry_with(const std::string& exec, std::vector<std::string> mime_types) {
  DesktopEntry entry;
  entry.id = "app.desktop";
  entry.exec = exec;
  entry.mime_types = std::move(mime_types);
  return entry;
}

struct TargetCase {
  std::string_view what;
  std::string exec;
  std::vector<std::string> mime_types;
  Target target;
  std::string problem;  // "" when the target fits
  ErrorCode code = ErrorCode::kActionNotSupported;
};

void run(const TargetCase& c) {
  SCOPED_TRACE(std::string(c.what));
  const DesktopEntry entry = entry_with(c.exec, c.mime_types);
  auto exec = parse_exec(entry.exec);
  ASSERT_TRUE(exec.ok()) << exec.error().message;
  const auto refusal = check_target(entry, *exec, c.target);
  if (c.problem.empty()) {
    EXPECT_FALSE(refusal.has_value()) << (refusal ? refusal->message : "");
    return;
  }
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(refusal->reason, RefusalReason::kCannotTakeTarget);
  EXPECT_EQ(refusal->details.value("problem", ""), c.problem) << refusal->message;
  EXPECT_EQ(refusal->code, c.code) << refusal->message;
}

const std::vector<std::string> kBrowser = {"text/html", "x-scheme-handler/http",
                                           "x-scheme-handler/https"};

TEST(CheckTarget, LinksNeedADeclaredSchemeAndAUrlFieldCode) {
  const TargetCase cases[] = {
      {"https with %u",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "https://example.org/a?b=c#d"},
       ""},
      {"http with %U", "browser %U", kBrowser, {TargetKind::kLink, "http://example.org"}, ""},
      {"upper-case scheme",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "HTTPS://example.org/"},
       ""},
      {"declared in upper case",
       "browser %u",
       {"X-Scheme-Handler/HTTPS"},
       {TargetKind::kLink, "https://example.org/"},
       ""},
      {"other scheme declared",
       "mailer %u",
       {"x-scheme-handler/mailto"},
       {TargetKind::kLink, "mailto:someone@example.org"},
       ""},
      {"percent escapes kept",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "https://example.org/%24x%20y"},
       ""},
      {"%f drops web links",
       "browser %f",
       kBrowser,
       {TargetKind::kLink, "https://example.org"},
       "no_url_field_code"},
      {"%F drops web links",
       "browser %F",
       kBrowser,
       {TargetKind::kLink, "https://example.org"},
       "no_url_field_code"},
      {"no field code",
       "browser",
       kBrowser,
       {TargetKind::kLink, "https://example.org"},
       "no_url_field_code"},
      {"scheme not declared",
       "viewer %u",
       {"image/png"},
       {TargetKind::kLink, "https://example.org"},
       "scheme_not_handled"},
      {"only http declared",
       "browser %u",
       {"x-scheme-handler/http"},
       {TargetKind::kLink, "https://example.org"},
       "scheme_not_handled"},
      {"mailto on a browser",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "mailto:a@example.org"},
       "scheme_not_handled"},
      {"file link on a browser",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "file:///etc/hosts"},
       "scheme_not_handled"},
      {"javascript",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "javascript:alert(1)"},
       "scheme_not_handled"},
      {"no scheme",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "example.org/page"},
       "unparseable",
       ErrorCode::kInvalidArgs},
      {"space",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "https://example.org/a b"},
       "unparseable",
       ErrorCode::kInvalidArgs},
      {"bad port",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "https://example.org:99999999/"},
       "unparseable",
       ErrorCode::kInvalidArgs},
      {"empty",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, ""},
       "unparseable",
       ErrorCode::kInvalidArgs},
      {"not UTF-8",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "https://example.org/\xFF"},
       "unparseable",
       ErrorCode::kInvalidArgs},
      {"newline",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "https://example.org/\nx"},
       "control_characters",
       ErrorCode::kInvalidArgs},
      {"tab",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "https://example.org/\tx"},
       "control_characters",
       ErrorCode::kInvalidArgs},
      {"NUL",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, std::string("https://example.org/\0x", 22)},
       "control_characters",
       ErrorCode::kInvalidArgs},
      {"DEL",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "https://example.org/\x7F"},
       "control_characters",
       ErrorCode::kInvalidArgs},
      {"C1 control",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "https://example.org/\xC2\x85"},
       "control_characters",
       ErrorCode::kInvalidArgs},
      {"no host",
       "browser %u",
       kBrowser,
       {TargetKind::kLink, "https:///path"},
       "missing_host",
       ErrorCode::kInvalidArgs},
  };
  for (const TargetCase& c : cases) run(c);
}

TEST(CheckTarget, FilesNeedAFileFieldCodeAndMustExist) {
  companyos::testing::TempDir dir;
  const std::string odd = dir.file("a$b;c&d\"e'f g.txt");
  std::ofstream(odd) << "x";
  const std::string plain = dir.file("plain.txt");
  std::ofstream(plain) << "x";
  const std::string plain_uri = "file://" + plain;
  const std::string odd_uri = "file://" + dir.path().string() + "/a%24b%3Bc%26d%22e%27f%20g.txt";
  const TargetCase cases[] = {
      {"%f", "viewer %f", {}, {TargetKind::kFile, plain}, ""},
      {"%F", "viewer %F", {}, {TargetKind::kFile, plain}, ""},
      {"%u", "viewer %u", {}, {TargetKind::kFile, plain}, ""},
      {"%U", "viewer %U", {}, {TargetKind::kFile, plain}, ""},
      {"shell characters in the name", "viewer %f", {}, {TargetKind::kFile, odd}, ""},
      {"a directory exists too", "viewer %f", {}, {TargetKind::kFile, dir.path().string()}, ""},
      {"file URI", "viewer %f", {}, {TargetKind::kFile, plain_uri}, ""},
      {"escaped file URI", "viewer %u", {}, {TargetKind::kFile, odd_uri}, ""},
      {"localhost file URI", "viewer %f", {}, {TargetKind::kFile, "file://localhost" + plain}, ""},
      {"no field code", "viewer", {}, {TargetKind::kFile, plain}, "no_file_field_code"},
      {"only %i %c %k", "viewer %i %c %k", {}, {TargetKind::kFile, plain}, "no_file_field_code"},
      {"missing",
       "viewer %f",
       {},
       {TargetKind::kFile, dir.file("missing.txt")},
       "file_missing",
       ErrorCode::kNotFound},
      {"missing behind a URI",
       "viewer %f",
       {},
       {TargetKind::kFile, "file://" + dir.file("nope")},
       "file_missing",
       ErrorCode::kNotFound},
      {"relative",
       "viewer %f",
       {},
       {TargetKind::kFile, "plain.txt"},
       "relative_path",
       ErrorCode::kInvalidArgs},
      {"empty", "viewer %f", {}, {TargetKind::kFile, ""}, "relative_path", ErrorCode::kInvalidArgs},
      // stat() and GLib would see only the part before the NUL, a file that exists.
      {"a NUL ends the path short",
       "viewer %f",
       {},
       {TargetKind::kFile, plain + std::string("\0.secret", 8)},
       "control_characters",
       ErrorCode::kInvalidArgs},
      {"another host",
       "viewer %f",
       {},
       {TargetKind::kFile, "file://elsewhere" + plain},
       "not_local",
       ErrorCode::kInvalidArgs},
      {"a web URL is no file",
       "viewer %u",
       {},
       {TargetKind::kFile, "https://example.org/x"},
       "relative_path",
       ErrorCode::kInvalidArgs},
      {"broken file URI",
       "viewer %f",
       {},
       {TargetKind::kFile, "file:relative"},
       "not_local",
       ErrorCode::kInvalidArgs},
  };
  for (const TargetCase& c : cases) run(c);
}

}  // namespace
}  // namespace companyos::launch
