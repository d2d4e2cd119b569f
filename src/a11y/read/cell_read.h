// One cell of a table by its address, read live: the table's size first (an address past
// it is no cell), then Table.GetAccessibleAt, then the cell itself. Works for a cell
// scrolled far off screen: LibreOffice Calc answers for any of its 2^34 cells.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "a11y/bus/pipeline.h"
#include "a11y/cell_address.h"
#include "a11y/model.h"
#include "a11y/read/live_read.h"
#include "a11y/toolkit/traits.h"

namespace companyos::a11y {

struct CellRead {
  enum class Outcome { kRead, kOutsideTable, kNoCell, kNotATable };
  Outcome outcome = Outcome::kNoCell;
  std::int64_t rows = 0;  // the table's size, when it answered
  std::int64_t columns = 0;
  std::optional<LiveNode> cell;  // kRead: the cell, its CellPosition set
};

// The path of the cell at (ROW, COLUMN) of a table (Table.GetAccessibleAt); nullopt when the
// table gives none (an error, or the null object).
void read_cell_path(Pipeline& pipeline, const std::string& table_path, std::int64_t row, std::int64_t column,
                    std::function<void(std::optional<std::string>)> done);

// DONE runs once inside the pipeline's wait(), unless the deadline passed first.
void read_cell(Pipeline& pipeline, const std::string& table_path, const CellAddress& address,
               const ToolkitTraits& toolkit, std::function<void(CellRead)> done);

// A cell read live as a snapshot's node: its name as the toolkit shows it, its position;
// ref, parent, value, actions and bounds are the caller's to set.
Node cell_node(const RawNode& raw, const ToolkitTraits& toolkit);

}  // namespace companyos::a11y
