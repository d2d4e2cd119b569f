#include "a11y/cell_address.h"

#include <gtest/gtest.h>

namespace companyos::a11y {
namespace {

struct AddressCase {
  const char* text;
  std::int64_t row;     // -1: refused
  std::int64_t column;
  const char* canonical;  // how it is written back; or a part of the refusal
};

void PrintTo(const AddressCase& c, std::ostream* os) { *os << '"' << c.text << '"'; }

class CellAddresses : public ::testing::TestWithParam<AddressCase> {};

TEST_P(CellAddresses, ParseToZeroBasedIndicesAndBack) {
  const AddressCase& c = GetParam();
  auto parsed = parse_cell_address(c.text);
  if (c.row < 0) {
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgs);
    EXPECT_NE(parsed.error().message.find(c.canonical), std::string::npos) << parsed.error().message;
    EXPECT_EQ(parsed.error().details["cell"], c.text);
    return;
  }
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(*parsed, (CellAddress{c.row, c.column}));
  EXPECT_EQ(to_string(*parsed), c.canonical);
}

INSTANTIATE_TEST_SUITE_P(
    Table, CellAddresses,
    ::testing::Values(AddressCase{"A1", 0, 0, "A1"}, AddressCase{"B3", 2, 1, "B3"},
                      AddressCase{"b3", 2, 1, "B3"}, AddressCase{"$B$3", 2, 1, "B3"},
                      AddressCase{"B$3", 2, 1, "B3"}, AddressCase{"Z500", 499, 25, "Z500"},
                      AddressCase{"AA10", 9, 26, "AA10"}, AddressCase{"AZ1", 0, 51, "AZ1"},
                      AddressCase{"BA1", 0, 52, "BA1"}, AddressCase{"XFD1048576", 1'048'575, 16'383, "XFD1048576"},
                      AddressCase{"A2147483647", 2'147'483'646, 0, "A2147483647"},
                      AddressCase{"", -1, 0, "no column letters"}, AddressCase{"3", -1, 0, "no column letters"},
                      AddressCase{"B", -1, 0, "no row number"}, AddressCase{"B0", -1, 0, "numbered from 1"},
                      AddressCase{"B-3", -1, 0, "no row number"}, AddressCase{"B3 ", -1, 0, "goes on"},
                      AddressCase{" B3", -1, 0, "no column letters"}, AddressCase{"B3C", -1, 0, "goes on"},
                      AddressCase{"$$B3", -1, 0, "no column letters"}, AddressCase{"Ä1", -1, 0, "no column letters"},
                      AddressCase{"A2147483648", -1, 0, "row is past"},
                      AddressCase{"A99999999999999999999", -1, 0, "row is past"},
                      AddressCase{"ZZZZZZZZZZZZZZ1", -1, 0, "column is past"}));

TEST(CellRanges, EitherCornerFirstAndOneCellIsARange) {
  EXPECT_EQ(*parse_cell_range("A1:C10"), (CellRange{{0, 0}, {9, 2}}));
  EXPECT_EQ(*parse_cell_range("C10:A1"), (CellRange{{0, 0}, {9, 2}}));
  EXPECT_EQ(*parse_cell_range("C1:A10"), (CellRange{{0, 0}, {9, 2}}));
  EXPECT_EQ(*parse_cell_range("B3"), (CellRange{{2, 1}, {2, 1}}));
  EXPECT_EQ(parse_cell_range("A1:C10")->rows(), 10);
  EXPECT_EQ(parse_cell_range("A1:C10")->columns(), 3);
  EXPECT_EQ(to_string(*parse_cell_range("c10:a1")), "A1:C10");
  EXPECT_EQ(to_string(*parse_cell_range("B3")), "B3");
  for (const char* bad : {"A1:", ":C10", "A1:C10:D4", "A1-C10", "A0:B2"}) {
    auto range = parse_cell_range(bad);
    ASSERT_FALSE(range.ok()) << bad;
    EXPECT_EQ(range.error().code, ErrorCode::kInvalidArgs) << bad;
  }
}

TEST(CellRanges, ColumnNamesRunOnPastZ) {
  EXPECT_EQ(column_name(0), "A");
  EXPECT_EQ(column_name(25), "Z");
  EXPECT_EQ(column_name(26), "AA");
  EXPECT_EQ(column_name(701), "ZZ");
  EXPECT_EQ(column_name(702), "AAA");
  EXPECT_EQ(column_name(16'383), "XFD");
  for (std::int64_t column : {0, 1, 25, 26, 27, 51, 52, 701, 702, 16'383, 1'000'000}) {
    EXPECT_EQ(parse_cell_address(column_name(column) + "1")->column, column);
  }
}

TEST(CellRanges, WhatAReadShowsIsSaidInRowsAndColumnLetters) {
  EXPECT_EQ(describe_shown(*parse_cell_range("A1:P38"), 1'048'576, 16'384),
            "rows 1–38 of 1,048,576, columns A–P of 16,384");
}

}  // namespace
}  // namespace companyos::a11y
