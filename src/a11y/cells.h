// Reading a table's cells by address, for scripts and agents: one cell with what it shows
// and the formula behind it, or a range of cells as rows of what they show. The table is
// the one a ref or selector names (with app alone, the window's one table), resolved live
// as an action's target is (live_resolve.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "a11y/action_target.h"
#include "a11y/cell_address.h"
#include "a11y/observer.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

// The most cells one range read returns: a few screenfuls.
inline constexpr std::int64_t kMaxRangeCells = 10'000;

// TARGET names a cell (its cell set). ElementDetails::formula: where the app exposes one.
Result<ElementDetails> get_cell(Observer& observer, const ActionTarget& target, Deadline deadline);

struct CellRows {
  WindowInfo window;
  CellRange range;
  std::int64_t table_rows = 0;
  std::int64_t table_columns = 0;
  // range.rows() rows of range.columns() texts as each cell shows it ("" when empty);
  // nullopt for a cell the table did not give.
  std::vector<std::vector<std::optional<std::string>>> rows;
};

// TARGET names the table as for get_cell (its cell ignored); RANGE within it. A range of
// more than kMaxRangeCells cells, or past the table's end, is INVALID_ARGS / ELEMENT_NOT_FOUND.
Result<CellRows> get_cells(Observer& observer, const ActionTarget& target, const CellRange& range,
                           Deadline deadline);

}  // namespace companyos::a11y
