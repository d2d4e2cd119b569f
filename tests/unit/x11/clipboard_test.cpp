// What the clipboard owner offers and answers, and which targets a save keeps: the pure
// half of the X11 clipboard (the desktop test judges the other half against xclip).
#include "x11/clipboard.h"

#include <gtest/gtest.h>

#include <string>

namespace companyos::x11 {
namespace {

std::vector<std::string> names_of(const ClipboardContents& contents) {
  std::vector<std::string> names;
  for (const SelectionTarget& target : contents.targets) names.push_back(target.name);
  return names;
}

TEST(ClipboardTest, MetaTargetsAreTheOnesAboutTheSelectionItself) {
  for (const char* meta : {"TARGETS", "MULTIPLE", "TIMESTAMP", "DELETE", "SAVE_TARGETS", "INSERT_SELECTION",
                           "INSERT_PROPERTY", "_GTK_TEXT_BUFFER_CONTENTS"}) {
    EXPECT_TRUE(is_meta_target(meta)) << meta;
  }
  for (const char* content : {"UTF8_STRING", "STRING", "TEXT", "text/html", "image/png", "targets", ""}) {
    EXPECT_FALSE(is_meta_target(content)) << content;
  }
}

TEST(ClipboardTest, TextIsOfferedAsStringOnlyWhenItIsAscii) {
  EXPECT_EQ(names_of(text_contents("plain")),
            (std::vector<std::string>{"UTF8_STRING", "text/plain;charset=utf-8", "TEXT", "STRING", "text/plain"}));
  EXPECT_EQ(names_of(text_contents("café")),
            (std::vector<std::string>{"UTF8_STRING", "text/plain;charset=utf-8", "TEXT"}));
  const ClipboardContents contents = text_contents("café");
  EXPECT_TRUE(contents.owned);
  for (const SelectionTarget& target : contents.targets) {
    EXPECT_EQ(target.data, "café");
    EXPECT_EQ(target.format, 8);
  }
  EXPECT_EQ(contents.targets[2].type, "UTF8_STRING") << "TEXT is sent as UTF8_STRING";
}

TEST(ClipboardTest, TheTextOfAClipboardPrefersUtf8AndNeverTakesLatin1AsIt) {
  struct Case {
    const char* name;
    std::vector<SelectionTarget> targets;
    std::optional<std::string> text;
  };
  const Case cases[] = {
      {"utf8", {{"STRING", "STRING", 8, "a"}, {"UTF8_STRING", "UTF8_STRING", 8, "é"}}, "é"},
      {"plain utf8 only", {{"text/plain;charset=utf-8", "text/plain;charset=utf-8", 8, "ü"}}, "ü"},
      {"ascii STRING", {{"STRING", "STRING", 8, "abc"}}, "abc"},
      {"latin-1 STRING", {{"STRING", "STRING", 8, "caf\xe9"}}, std::nullopt},
      {"invalid UTF8_STRING", {{"UTF8_STRING", "UTF8_STRING", 8, "\xff"}}, std::nullopt},
      {"an image only", {{"image/png", "image/png", 8, "\x89PNG"}}, std::nullopt},
      {"nothing", {}, std::nullopt},
      {"empty text", {{"UTF8_STRING", "UTF8_STRING", 8, ""}}, ""},
  };
  for (const Case& c : cases) {
    ClipboardContents contents{true, c.targets, {}};
    EXPECT_EQ(text_of(contents), c.text) << c.name;
  }
}

TEST(ClipboardTest, APasswordManagersHintMarksTheContentSecret) {
  ClipboardContents contents = text_contents("hunter2");
  EXPECT_FALSE(marked_secret(contents));
  contents.targets.push_back({"x-kde-passwordManagerHint", "x-kde-passwordManagerHint", 8, "secret"});
  EXPECT_TRUE(marked_secret(contents));
}

TEST(ClipboardTest, AnOwnerAnswersMetaTargetsAndOfferedOnesWithinTheRequestSize) {
  ClipboardContents contents = text_contents("hello");
  contents.targets.push_back({"image/png", "image/png", 8, std::string(100, 'x')});
  struct Case {
    const char* target;
    std::size_t max_bytes;
    ConversionAnswer::Kind kind;
  };
  const Case cases[] = {
      {"TARGETS", 0, ConversionAnswer::Kind::kTargets},
      {"TIMESTAMP", 0, ConversionAnswer::Kind::kTimestamp},
      {"UTF8_STRING", 1000, ConversionAnswer::Kind::kData},
      {"STRING", 5, ConversionAnswer::Kind::kData},
      {"STRING", 4, ConversionAnswer::Kind::kRefuse},  // would need INCR
      {"image/png", 1000, ConversionAnswer::Kind::kData},
      {"image/png", 99, ConversionAnswer::Kind::kRefuse},
      {"MULTIPLE", 1000, ConversionAnswer::Kind::kRefuse},
      {"DELETE", 1000, ConversionAnswer::Kind::kRefuse},
      {"text/html", 1000, ConversionAnswer::Kind::kRefuse},
      {"", 1000, ConversionAnswer::Kind::kRefuse},
  };
  for (const Case& c : cases) {
    const ConversionAnswer answer = answer_conversion(contents, c.target, c.max_bytes);
    EXPECT_EQ(answer.kind, c.kind) << c.target << " in " << c.max_bytes;
    if (answer.kind == ConversionAnswer::Kind::kData) {
      ASSERT_NE(answer.data, nullptr);
      EXPECT_EQ(answer.data->name, c.target);
    }
  }
  EXPECT_EQ(answer_conversion(ClipboardContents{}, "UTF8_STRING", 1000).kind, ConversionAnswer::Kind::kRefuse)
      << "an owner with nothing offers nothing";
}

TEST(ClipboardTest, TargetsListsItselfTimestampAndEveryOfferedTarget) {
  ClipboardContents contents;
  contents.targets = {{"image/png", "image/png", 8, "p"}, {"text/html", "text/html", 8, "<b>"}};
  EXPECT_EQ(offered_targets(contents), (std::vector<std::string>{"TARGETS", "TIMESTAMP", "image/png", "text/html"}));
  EXPECT_EQ(offered_targets(ClipboardContents{}), (std::vector<std::string>{"TARGETS", "TIMESTAMP"}));
}

}  // namespace
}  // namespace companyos::x11
