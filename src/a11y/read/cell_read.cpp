#include "a11y/read/cell_read.h"

#include <memory>

#include "a11y/bus.h"
#include "a11y/bus/message_fields.h"

namespace companyos::a11y {
namespace {

constexpr const char* kNoObject = "/org/a11y/atspi/null";
// A cell's children are its own parts (a check box in a tree view's row); none is a table.
constexpr std::size_t kCellChildren = 64;

struct PendingCell {
  CellRead read;
  std::optional<std::int32_t> rows;
  std::optional<std::int32_t> columns;
  int outstanding = 2;
  std::function<void(CellRead)> done;
};

void fetch_cell(Pipeline& pipeline, const std::string& table_path, const CellAddress& address,
                const ToolkitTraits& toolkit, std::shared_ptr<PendingCell> pending) {
  Pipeline* on = &pipeline;
  pipeline.call(table_path.c_str(), kTableInterface, "GetAccessibleAt",
                [on, address, toolkit, pending](sd_bus_message* reply) {
                  auto path = error_name(reply) == nullptr ? read_reference_path(reply) : std::nullopt;
                  if (!path || *path == kNoObject) {
                    pending->read.outcome = CellRead::Outcome::kNoCell;
                    pending->done(std::move(pending->read));
                    return;
                  }
                  read_node_live(*on, *path, toolkit,
                                 [pending, address](std::optional<LiveNode> live) {
                                   if (!live) {
                                     pending->read.outcome = CellRead::Outcome::kNoCell;
                                   } else {
                                     live->node.cell = CellPosition{address.row, address.column};
                                     pending->read.outcome = CellRead::Outcome::kRead;
                                     pending->read.cell = std::move(live);
                                   }
                                   pending->done(std::move(pending->read));
                                 },
                                 kCellChildren);
                },
                "ii", static_cast<std::int32_t>(address.row), static_cast<std::int32_t>(address.column));
}

}  // namespace

void read_cell(Pipeline& pipeline, const std::string& table_path, const CellAddress& address,
               const ToolkitTraits& toolkit, std::function<void(CellRead)> done) {
  auto pending = std::make_shared<PendingCell>();
  pending->done = std::move(done);
  Pipeline* on = &pipeline;
  for (auto [property, field] : {std::pair{"NRows", &PendingCell::rows}, std::pair{"NColumns", &PendingCell::columns}}) {
    pipeline.call(table_path.c_str(), kPropertiesInterface, "Get",
                  [on, table_path, address, toolkit, pending, field = field](sd_bus_message* reply) {
                    if (error_name(reply) == nullptr) (*pending).*field = read_variant_int32(reply);
                    if (--pending->outstanding > 0) return;
                    if (!pending->rows || !pending->columns) {
                      pending->read.outcome = CellRead::Outcome::kNotATable;
                      pending->done(std::move(pending->read));
                      return;
                    }
                    pending->read.rows = *pending->rows;
                    pending->read.columns = *pending->columns;
                    if (address.row >= *pending->rows || address.column >= *pending->columns) {
                      pending->read.outcome = CellRead::Outcome::kOutsideTable;
                      pending->done(std::move(pending->read));
                      return;
                    }
                    fetch_cell(*on, table_path, address, toolkit, pending);
                  },
                  "ss", kTableInterface, property);
  }
}

}  // namespace companyos::a11y
