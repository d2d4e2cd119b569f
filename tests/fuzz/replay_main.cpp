// Replays a fuzz target's committed inputs without libFuzzer (systemd's fuzz-main
// pattern): one test per file of the target's folder, each fed once to the target's
// LLVMFuzzerTestOneInput. A crash or sanitizer report fails that file's test; a target
// returns normally for every input it merely refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

// The file names (not paths, so test names and listings stay short), sorted.
std::vector<std::string> committed_inputs() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(COMPANYOS_FUZZ_INPUTS, ec)) {
    if (entry.is_regular_file()) files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class Replay : public ::testing::TestWithParam<std::string> {};

TEST_P(Replay, Input) {
  const fs::path file = fs::path(COMPANYOS_FUZZ_INPUTS) / GetParam();
  std::ifstream in(file, std::ios::binary);
  ASSERT_TRUE(in) << "cannot read " << file;
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A copy of exactly the file's size, so ASan sees a read past its end, as under libFuzzer.
  std::vector<std::uint8_t> input(bytes.begin(), bytes.end());
  EXPECT_EQ(LLVMFuzzerTestOneInput(input.data(), input.size()), 0);
}

// gtest names allow letters, digits and underscores only.
std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Committed, Replay, ::testing::ValuesIn(committed_inputs()), test_name);

// A target whose folder is empty or missing would replay nothing and still pass.
TEST(ReplayInputs, TheFolderHasInputs) {
  EXPECT_FALSE(committed_inputs().empty()) << "no inputs in " << COMPANYOS_FUZZ_INPUTS;
}

}  // namespace
