#include "a11y/bulk_reply.h"

#include <gtest/gtest.h>

#include "recorded_items.h"

namespace companyos::a11y {
namespace {

using testing::editor_items;
using testing::get_items_reply;
using testing::path;

TEST(BulkReply, ParsesEveryFieldOfEveryItem) {
  auto reply = get_items_reply(editor_items());
  auto parsed = parse_get_items(reply.get());
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->size(), 8u);
  const RawNode& entry = (*parsed)[3];
  EXPECT_EQ(entry.path, path(4));
  EXPECT_EQ(entry.parent_path, path(2));
  EXPECT_EQ(entry.index_in_parent, 1);
  EXPECT_EQ(entry.child_count, 0);
  EXPECT_EQ(entry.name, "Name");
  EXPECT_EQ(entry.role, static_cast<std::uint32_t>(ATSPI_ROLE_TEXT));
  EXPECT_EQ(entry.interfaces, kInterfaceAction | kInterfaceComponent | kInterfaceEditableText |
                                  kInterfaceText);
  EXPECT_TRUE(has_state(entry.states, ATSPI_STATE_EDITABLE));
  EXPECT_TRUE(has_state(entry.states, ATSPI_STATE_FOCUSABLE));
  EXPECT_FALSE(has_state(entry.states, ATSPI_STATE_VISIBLE));
  EXPECT_FALSE(entry.accessible_id.has_value());  // GetItems has none
  EXPECT_EQ((*parsed)[6].child_count, -1);
}

TEST(BulkReply, RejectsRepliesOfAnotherShape) {
  const char* bad_replies[] = {
      "(@a(so) [],)",                         // GetChildren's shape
      "('not a list',)",                      // a string
      "(@a((so)(so)(so)a(so)assusau) [],)",   // the pre-2.x signature with child lists
  };
  for (const char* text : bad_replies) {
    VariantPtr reply(g_variant_ref_sink(g_variant_parse(nullptr, text, nullptr, nullptr, nullptr)));
    ASSERT_TRUE(reply) << text;
    auto parsed = parse_get_items(reply.get());
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_EQ(parsed.error().code, ErrorCode::kInternal) << text;
  }
  EXPECT_FALSE(parse_get_items(nullptr).ok());
}

TEST(BulkReply, EmptyReplyIsAnEmptyTree) {
  auto parsed = parse_get_items(get_items_reply({}).get());
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->empty());
}

TEST(BulkReply, StateWordsMapToBits) {
  struct Case {
    std::vector<std::uint32_t> words;
    StateSet expected;
  };
  const Case cases[] = {
      {{}, 0},
      {{1u << ATSPI_STATE_ENABLED}, StateSet{1} << ATSPI_STATE_ENABLED},
      {{0, 1u << (ATSPI_STATE_READ_ONLY - 32)}, StateSet{1} << ATSPI_STATE_READ_ONLY},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(state_set_from_words(c.words.data(), c.words.size()), c.expected);
  }
}

TEST(BulkReply, ObjectPathsOfReferences) {
  VariantPtr refs(g_variant_ref_sink(g_variant_parse(
      G_VARIANT_TYPE("a(so)"), "[(':1.5', objectpath '/a'), (':1.5', '/b')]", nullptr, nullptr,
      nullptr)));
  EXPECT_EQ(object_paths_of(refs.get()), (std::vector<std::string>{"/a", "/b"}));
  VariantPtr wrong(g_variant_ref_sink(g_variant_new_string("x")));
  EXPECT_TRUE(object_paths_of(wrong.get()).empty());
  EXPECT_EQ(object_path_of(wrong.get()), "");
}

}  // namespace
}  // namespace companyos::a11y
