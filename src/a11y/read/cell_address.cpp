#include "a11y/cell_address.h"

#include <algorithm>
#include <cctype>

namespace companyos::a11y {
namespace {

Error bad_address(std::string_view text, std::string_view why) {
  return make_error(ErrorCode::kInvalidArgs, "'" + std::string(text) + "' is not a cell address: " + std::string(why),
                    {{"cell", std::string(text)}},
                    "name a cell by its column letters and row number, as a spreadsheet does: B3, AA10, "
                    "or a range A1:C10");
}

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string column_name(std::int64_t column) {
  std::string name;
  for (std::int64_t n = column + 1; n > 0; n = (n - 1) / 26) {
    name.push_back(static_cast<char>('A' + (n - 1) % 26));
  }
  std::reverse(name.begin(), name.end());
  return name;
}

std::string to_string(const CellAddress& address) {
  return column_name(address.column) + std::to_string(address.row + 1);
}

std::string to_string(const CellRange& range) {
  if (range.first == range.last) return to_string(range.first);
  return to_string(range.first) + ":" + to_string(range.last);
}

Result<CellAddress> parse_cell_address(std::string_view text) {
  std::size_t at = 0;
  if (at < text.size() && text[at] == '$') ++at;
  std::int64_t column = 0;
  const std::size_t letters_start = at;
  while (at < text.size() && is_letter(text[at])) {
    column = column * 26 + (std::toupper(static_cast<unsigned char>(text[at])) - 'A' + 1);
    if (column - 1 > kMaxTableIndex) return bad_address(text, "the column is past the last a table may have");
    ++at;
  }
  if (at == letters_start) return bad_address(text, "it starts with no column letters");
  if (at < text.size() && text[at] == '$') ++at;
  const std::size_t digits_start = at;
  std::int64_t row = 0;
  while (at < text.size() && is_digit(text[at])) {
    row = row * 10 + (text[at] - '0');
    if (row - 1 > kMaxTableIndex) return bad_address(text, "the row is past the last a table may have");
    ++at;
  }
  if (at == digits_start) return bad_address(text, "it has no row number after its column letters");
  if (at != text.size()) return bad_address(text, "it goes on after the row number");
  if (row == 0) return bad_address(text, "rows are numbered from 1");
  return CellAddress{row - 1, column - 1};
}

Result<CellRange> parse_cell_range(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    auto cell = parse_cell_address(text);
    if (!cell) return std::move(cell).take_error();
    return CellRange{*cell, *cell};
  }
  auto first = parse_cell_address(text.substr(0, colon));
  if (!first) return bad_address(text, "its first corner: " + first.error().message);
  auto last = parse_cell_address(text.substr(colon + 1));
  if (!last) return bad_address(text, "its second corner: " + last.error().message);
  return CellRange{{std::min(first->row, last->row), std::min(first->column, last->column)},
                   {std::max(first->row, last->row), std::max(first->column, last->column)}};
}

std::string describe_shown(const CellRange& shown, std::int64_t rows, std::int64_t columns) {
  return "rows " + std::to_string(shown.first.row + 1) + "–" + std::to_string(shown.last.row + 1) + " of " +
         with_thousands(rows) + ", columns " + column_name(shown.first.column) + "–" +
         column_name(shown.last.column) + " of " + with_thousands(columns);
}

}  // namespace companyos::a11y
