#include "daemon/server/line_framer.h"

#include <gtest/gtest.h>

namespace companyos::daemon {
namespace {

std::vector<FramedLine> feed_all(LineFramer& framer, std::initializer_list<std::string_view> chunks) {
  std::vector<FramedLine> out;
  for (auto chunk : chunks) framer.feed(chunk, out);
  return out;
}

TEST(LineFramer, SplitsLinesAcrossChunkBoundaries) {
  LineFramer framer(100);
  auto out = feed_all(framer, {"{\"a\"", ":1}\n{\"b\":", "2}\n{\"c\":3}"});
  ASSERT_EQ(out.size(), 2U);
  EXPECT_EQ(out[0].text, "{\"a\":1}");
  EXPECT_EQ(out[1].text, "{\"b\":2}");
  auto last = framer.finish();
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->text, "{\"c\":3}");
  EXPECT_FALSE(framer.finish().has_value());
}

TEST(LineFramer, SeveralLinesInOneChunkAndCrlfAndBlankLines) {
  LineFramer framer(100);
  auto out = feed_all(framer, {"one\r\n\n\ntwo\nthree\r\n"});
  ASSERT_EQ(out.size(), 3U);
  EXPECT_EQ(out[0].text, "one");
  EXPECT_EQ(out[1].text, "two");
  EXPECT_EQ(out[2].text, "three");
}

TEST(LineFramer, ExactlyTheLimitIsAcceptedOneMoreIsOversize) {
  LineFramer framer(10);
  auto out = feed_all(framer, {std::string(10, 'x') + "\n", std::string(11, 'y') + "\n", "ok\n"});
  ASSERT_EQ(out.size(), 3U);
  EXPECT_FALSE(out[0].oversize);
  EXPECT_EQ(out[0].text.size(), 10U);
  EXPECT_TRUE(out[1].oversize);
  EXPECT_TRUE(out[1].text.empty());
  EXPECT_FALSE(out[2].oversize);
  EXPECT_EQ(out[2].text, "ok");
}

TEST(LineFramer, OversizeLineFedInPiecesIsReportedOnceAndFramingResumes) {
  LineFramer framer(8);
  std::vector<FramedLine> out;
  for (int i = 0; i < 100; ++i) framer.feed("abcdefgh", out);
  EXPECT_TRUE(out.empty());
  framer.feed("tail\nnext\n", out);
  ASSERT_EQ(out.size(), 2U);
  EXPECT_TRUE(out[0].oversize);
  EXPECT_EQ(out[1].text, "next");
}

TEST(LineFramer, OversizeWithoutNewlineAtEndOfStream) {
  LineFramer framer(4);
  std::vector<FramedLine> out;
  framer.feed("123456789", out);
  auto last = framer.finish();
  ASSERT_TRUE(last.has_value());
  EXPECT_TRUE(last->oversize);
}

}  // namespace
}  // namespace companyos::daemon
