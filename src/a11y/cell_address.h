// Cells named as people and spreadsheets name them: "B3" is column B (the second), row 3;
// "A1:C10" a range. Tables are addressed by 0-based row and column (AT-SPI's
// Table.GetAccessibleAt); these turn one into the other, and say which part of a table a
// read shows ("rows 1–38 of 1,048,576, columns A–P of 16,384").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "companyos/result.h"
#include "core/text.h"

namespace companyos::a11y {

// The largest row and column a table address may name: AT-SPI's Table counts in int32.
inline constexpr std::int64_t kMaxTableIndex = 2'147'483'646;

struct CellAddress {
  std::int64_t row = 0;     // 0-based
  std::int64_t column = 0;  // 0-based
  friend bool operator==(const CellAddress&, const CellAddress&) = default;
};

// Inclusive; first is above and left of last.
struct CellRange {
  CellAddress first;
  CellAddress last;
  std::int64_t rows() const { return last.row - first.row + 1; }
  std::int64_t columns() const { return last.column - first.column + 1; }
  friend bool operator==(const CellRange&, const CellRange&) = default;
};

// "A", "Z", "AA", … for 0, 25, 26, …
std::string column_name(std::int64_t column);
// "B3" for row 2, column 1.
std::string to_string(const CellAddress& address);
// "A1:C10"; one cell as "B3".
std::string to_string(const CellRange& range);

// "B3", "b3", "$B$3" (a spreadsheet's absolute form), "XFD1048576". INVALID_ARGS (with the
// text and what a cell address looks like) for anything else: no letters, no row, row 0,
// signs, spaces, a column or row past kMaxTableIndex.
Result<CellAddress> parse_cell_address(std::string_view text);
// "A1:C10" (either corner first), or one cell ("B3" is B3:B3). Same errors.
Result<CellRange> parse_cell_range(std::string_view text);

// "rows 1–38 of 1,048,576, columns A–P of 16,384": the part of a rows × columns table a
// read shows.
std::string describe_shown(const CellRange& shown, std::int64_t rows, std::int64_t columns);

}  // namespace companyos::a11y
