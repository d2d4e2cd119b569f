#include "core/pipe_reading.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <string>

namespace companyos {
namespace {

using namespace std::chrono_literals;

// A pipe whose ends do not block.
struct NonBlockingPipe {
  UniqueFd read_end;
  UniqueFd write_end;
  NonBlockingPipe() {
    std::array<int, 2> ends{};
    EXPECT_EQ(::pipe2(ends.data(), O_NONBLOCK | O_CLOEXEC), 0);
    read_end.reset(ends[0]);
    write_end.reset(ends[1]);
  }
};

TEST(ReadAvailable, TakesWhatIsThereThenSaysDrainedOrClosed) {
  NonBlockingPipe pipe;
  ASSERT_EQ(::write(pipe.write_end.get(), "abc", 3), 3);
  std::string taken;
  const auto take = [&taken](std::string_view chunk) {
    taken += chunk;
    return true;
  };
  EXPECT_EQ(read_available(pipe.read_end, take), PipeRead::kDrained);
  EXPECT_EQ(taken, "abc");
  pipe.write_end.reset();
  EXPECT_EQ(read_available(pipe.read_end, take), PipeRead::kClosed);
  EXPECT_FALSE(pipe.read_end.valid());
}

TEST(ReadAvailable, StopsWhenTakeSaysSo) {
  NonBlockingPipe pipe;
  ASSERT_EQ(::write(pipe.write_end.get(), "abc", 3), 3);
  EXPECT_EQ(read_available(pipe.read_end, [](std::string_view) { return false; }), PipeRead::kHeld);
}

// The waits below return at once when they work; broken, they wait out their hour and the
// test's own timeout fails them.
TEST(WaitForDescriptors, ReturnsWhenOneIsReadableSkippingNegativeOnes) {
  NonBlockingPipe quiet;
  NonBlockingPipe ready;
  ASSERT_EQ(::write(ready.write_end.get(), "x", 1), 1);
  wait_for_descriptors({-1, quiet.read_end.get(), ready.read_end.get()}, {}, 1h);
  std::string taken;
  EXPECT_EQ(read_available(ready.read_end, [&taken](std::string_view chunk) {
              taken += chunk;
              return true;
            }),
            PipeRead::kDrained);
  EXPECT_EQ(taken, "x");
}

TEST(WaitForDescriptors, ReturnsWhenOneIsWritable) {
  NonBlockingPipe quiet;
  wait_for_descriptors({quiet.read_end.get()}, {-1, quiet.write_end.get()}, 1h);
  SUCCEED();
}

TEST(WaitForDescriptors, NothingToWatchAndNoTimeLeftReturnsAtOnce) {
  wait_for_descriptors({-1}, {}, -5ms);
  wait_for_descriptors({}, {}, 0ms);
  SUCCEED();
}

}  // namespace
}  // namespace companyos
