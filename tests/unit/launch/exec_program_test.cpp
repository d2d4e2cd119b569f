#include "launch/exec_program.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "entry_fixture.h"

namespace companyos::launch {
namespace {

namespace fs = std::filesystem;

TEST(IsInterpreterName, KnowsShellsInterpretersAndWrappers) {
  struct Case {
    std::string name;
    bool interpreter;
  };
  const Case cases[] = {
      {"sh", true},          {"bash", true},
      {"dash", true},        {"zsh", true},
      {"fish", true},        {"ksh", true},
      {"csh", true},         {"tcsh", true},
      {"busybox", true},     {"env", true},
      {"python", true},      {"python3", true},
      {"python3.11", true},  {"python3.11-dbg", true},
      {"pypy3", true},       {"perl", true},
      {"perl5.36.0", true},  {"ruby", true},
      {"ruby3.1", true},     {"node", true},
      {"nodejs", true},      {"php", true},
      {"php8.2", true},      {"php-cgi", true},
      {"lua", true},         {"lua5.4", true},
      {"luajit", true},      {"tclsh", true},
      {"tclsh8.6", true},    {"wish", true},
      {"wish8.6", true},     {"osascript", true},
      {"sudo", true},        {"pkexec", true},
      {"nohup", true},       {"xargs", true},
      {"setsid", true},      {"awk", true},
      {"gjs", true},         {"BASH", true},
      {"Python3", true},     {"firefox", false},
      {"mousepad", false},   {"rubyripper", false},
      {"luakit", false},     {"perlapp", false},
      {"pythonista", false}, {"shotwell", false},
      {"bashtop", false},    {"envy", false},
      {"flatpak", false},    {"gio", false},
      {"", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(is_interpreter_name(c.name), c.interpreter);
  }
}

TEST(ResolveExecProgram, LooksThroughEnvAndPaths) {
  const std::map<std::string, std::string> path = {
      {"viewer", "/usr/bin/viewer"}, {"python3", "/usr/bin/python3"}, {"env", "/usr/bin/env"}};
  const ProgramLocator locate = [&path](const std::string& name) -> std::optional<fs::path> {
    auto found = path.find(name);
    if (found == path.end()) return std::nullopt;
    return fs::path(found->second);
  };
  struct Case {
    std::string exec;
    std::string program;
    std::optional<std::string> interpreter;
    std::string note_part;
  };
  const Case cases[] = {
      {"viewer %u", "viewer", std::nullopt, ""},
      {"/opt/viewer/bin/viewer %u", "/opt/viewer/bin/viewer", std::nullopt, ""},
      {"/bin/sh -c viewer", "/bin/sh", "sh", ""},
      {"bash -c viewer", "bash", "bash", ""},
      {"python3 /opt/app.py %f", "python3", "python3", ""},
      {"/usr/bin/python3.11 app.py", "/usr/bin/python3.11", "python3.11", ""},
      {"perl5.36 app.pl", "perl5.36", "perl5.36", ""},
      {"env viewer %u", "viewer", std::nullopt, ""},
      {"env FOO=1 BAR=2 viewer %u", "viewer", std::nullopt, ""},
      {"env -i viewer", "viewer", std::nullopt, ""},
      {"env -u HOME -C /tmp viewer", "viewer", std::nullopt, ""},
      {"env -uHOME -iv -CDIR viewer", "viewer", std::nullopt, ""},
      {"env --unset=HOME --chdir=/tmp --ignore-environment viewer", "viewer", std::nullopt, ""},
      {"env --unset HOME --chdir /tmp --null --debug viewer", "viewer", std::nullopt, ""},
      {"env --default-signal=PIPE --ignore-signal --block-signal=INT viewer", "viewer",
       std::nullopt, ""},
      {"env - -- FOO=1 viewer", "viewer", std::nullopt, ""},
      {"env -- viewer", "viewer", std::nullopt, ""},
      {"/usr/bin/env LANG=C python3 app.py", "python3", "python3", ""},
      {"env env FOO=1 bash -c x", "bash", "bash", ""},
      {"env -S viewer", "env", "env", "-S"},
      {"env --split-string=viewer", "env", "env", "-S"},
      {"env -x viewer", "env", "env", "not known"},
      {"env --frobnicate viewer", "env", "env", "not known"},
      {"env FOO=1", "env", "env", "no command"},
      {"env", "env", "env", "no command"},
      // env cannot run an empty name, so "" is no command, not a program named "".
      {"env \"\" viewer", "env", "env", "empty"},
      {"env A=1 \"\"", "env", "env", "empty"},
      {"env %f", "env", "env", "field code"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.exec);
    auto line = parse_exec(c.exec);
    ASSERT_TRUE(line.ok()) << line.error().message;
    const ExecProgram program = resolve_exec_program(*line, locate);
    EXPECT_EQ(program.program, c.program);
    EXPECT_EQ(program.interpreter, c.interpreter);
    EXPECT_NE(program.note.find(c.note_part), std::string::npos) << program.note;
  }
}

TEST(ResolveExecProgram, FollowsSymbolicLinksToTheRealProgram) {
  testing::EntryFixture fixture;
  const fs::path bin = fixture.root() / "bin";
  const std::string real_shell = fixture.program("bash");
  const std::string real_app = fixture.program("viewer-bin");
  fs::create_symlink(real_shell, bin / "innocent-name");
  fs::create_symlink(real_app, bin / "viewer");
  fs::create_symlink(bin / "innocent-name", bin / "second-hop");

  struct Case {
    std::string exec;
    std::vector<std::string> names;
    std::optional<std::string> interpreter;
  };
  const Case cases[] = {
      {(bin / "innocent-name").string() + " %f", {"innocent-name", "bash"}, "bash"},
      {(bin / "second-hop").string(), {"second-hop", "bash"}, "bash"},
      {(bin / "viewer").string() + " %f", {"viewer", "viewer-bin"}, std::nullopt},
      {"innocent-name %f", {"innocent-name", "bash"}, "bash"},  // found through the locator
      {(bin / "missing").string(), {"missing"}, std::nullopt},
  };
  const ProgramLocator locate = [&bin](const std::string& name) -> std::optional<fs::path> {
    if (fs::exists(bin / name)) return bin / name;
    return std::nullopt;
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.exec);
    auto line = parse_exec(c.exec);
    ASSERT_TRUE(line.ok()) << line.error().message;
    const ExecProgram program = resolve_exec_program(*line, locate);
    EXPECT_EQ(program.names, c.names);
    EXPECT_EQ(program.interpreter, c.interpreter);
  }
}

TEST(LocateInPath, FindsProgramsThroughPath) {
  EXPECT_TRUE(locate_in_path("sh").has_value());
  EXPECT_FALSE(locate_in_path("companyos-no-such-program").has_value());
}

}  // namespace
}  // namespace companyos::launch
