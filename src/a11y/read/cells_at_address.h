// find --cell: the cell at one address of each of a snapshot's tables, read live and made
// part of the snapshot, so that its ref reaches it as it reaches any cell of a table read by
// what it shows — through the table and the address (live_resolve.h) — a cell far off
// screen included.
#pragma once

#include <cstddef>
#include <vector>

#include "a11y/bus.h"
#include "a11y/cell_address.h"
#include "a11y/model.h"
#include "companyos/result.h"
#include "core/deadline.h"

namespace companyos::a11y {

// TABLES: indices into TREE of nodes offering Table. Gives the index of each table's cell at
// ADDRESS: the node TREE holds already when the cell is shown, or a node appended as the
// table's last child with its position, value, states, actions and bounds read. A table
// without that cell (past its end, or giving none) gives none. APP_UNRESPONSIVE when the app
// does not answer by DEADLINE, WINDOW_NOT_FOUND when it is gone.
Result<std::vector<std::size_t>> add_cells_at(Bus& bus, Snapshot& tree, const std::vector<std::size_t>& tables,
                                              const CellAddress& address, Deadline deadline);

}  // namespace companyos::a11y
