// A desktop entry file as the launcher reads it: the index loads it from an applications
// directory (GKeyFile through read_desktop_entry), the app name is matched (match_app), the
// entry is judged (entry_refusals: its Exec line, terminal and shell rules) and a launch is
// planned for a link and for a file (plan_launch), everything short of running gio.
// Properties: a planned launch has an entry whose Exec parses and that no rule refuses,
// runs exactly `gio launch <entry file> <target>`, and knows which windows to wait for.
//
// Input: the file's bytes.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "launch/app_match.h"
#include "launch/desktop_index.h"
#include "launch/exec_line.h"
#include "launch/launch_policy.h"

namespace companyos::fuzz {
namespace {

using namespace companyos::launch;
namespace fs = std::filesystem;

// One private applications directory for the process, removed at exit.
class EntryDirectory {
 public:
  EntryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "companyos-fuzz-XXXXXX").string();
    FUZZ_CHECK(::mkdtemp(pattern.data()) != nullptr);
    root_ = pattern;
    fs::create_directories(applications());
  }
  ~EntryDirectory() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }
  EntryDirectory(const EntryDirectory&) = delete;
  EntryDirectory& operator=(const EntryDirectory&) = delete;

  fs::path applications() const { return root_ / "applications"; }
  void write(std::string_view bytes) const {
    std::ofstream(applications() / "fuzz.desktop", std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

 private:
  fs::path root_;
};

const EntryDirectory& directory() {
  static const EntryDirectory made;
  return made;
}

void check_plan(const DesktopIndex& index, const std::string& app, const Target& target) {
  const PlatformFacts platform{x11::DisplayServer::kX11, /*gio_launch=*/true};
  auto plan = plan_launch(index, app, target, platform);
  if (!plan) {
    FUZZ_CHECK(plan.error().code != ErrorCode::kInternal);
    return;
  }
  FUZZ_CHECK(parse_exec(plan->entry.exec).ok());
  FUZZ_CHECK(entry_refusals(plan->entry).empty());
  FUZZ_CHECK(!plan->entry.terminal);
  FUZZ_CHECK((plan->argv == std::vector<std::string>{kDefaultGio, "launch",
                                                     plan->entry.file.string(), target.value}));
  FUZZ_CHECK(!plan->expected_classes.empty());
}

}  // namespace
}  // namespace companyos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace companyos;
  using namespace companyos::launch;
  const auto& dir = fuzz::directory();
  dir.write(fuzz::as_text(data, size));
  IndexOptions options;
  options.dirs = {dir.applications()};
  options.locale = "de_DE";
  const DesktopIndex index = DesktopIndex::load(options);
  FUZZ_CHECK(index.entries().size() + index.ignored().size() == 1);

  for (const DesktopEntry& entry : index.entries()) {
    FUZZ_CHECK(entry.id == "fuzz.desktop");
    (void)entry.handled_schemes();
    (void)entry_refusals(entry);
    // Each name the entry can be asked for by, and ones it cannot.
    for (const std::string& app : {entry.name, entry.localized_name, entry.startup_wm_class,
                                   entry.id_stem(), std::string("fuzz"), std::string("other")}) {
      FUZZ_CHECK(!match_app(index, app).ambiguous());  // one entry is never ambiguous
      fuzz::check_plan(index, app, Target{TargetKind::kLink, "https://example.org/page?q=1"});
      fuzz::check_plan(index, app, Target{TargetKind::kFile, entry.file.string()});
    }
  }
  return 0;
}
