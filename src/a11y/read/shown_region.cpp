#include "a11y/read/shown_region.h"

#include <algorithm>
#include <memory>

#include "a11y/bus.h"
#include "a11y/bus/message_fields.h"
#include "a11y/read/cell_read.h"

namespace companyos::a11y {
namespace {

constexpr const char* kRegionComponent = "org.a11y.atspi.Component";
constexpr std::uint32_t kScreenCoordinates = 0;
// A point this far inside each corner: the corner pixel itself is often a border or a
// grid line that belongs to no cell.
constexpr int kCornerInset = 2;

// How far in from its corner each probe looks, in parts of the area's size.
constexpr std::size_t kProbeAttempts = 4;
constexpr int kProbeDivisors[kProbeAttempts] = {0, 16, 8, 4};

bool within(const CellPosition& cell, const TooManyChildren& size) {
  const std::int64_t columns = size.columns > 0 ? size.columns : 1;
  return cell.row >= 0 && cell.row < size.rows && cell.column >= 0 && cell.column < columns;
}

// The stages of one read, each started when the one before has answered.
class RegionReader : public std::enable_shared_from_this<RegionReader> {
 public:
  RegionReader(Pipeline& pipeline, std::string path, TooManyChildren size, std::optional<Bounds> clip,
               std::size_t max_cells, std::function<void(ShownRead)> done)
      : pipeline_(pipeline), path_(std::move(path)), size_(size), clip_(clip), max_cells_(max_cells),
        done_(std::move(done)) {
    read_.region.rows = size_.rows;
    read_.region.columns = size_.columns;
  }

  void start() {
    auto self = shared_from_this();
    pipeline_.call(path_.c_str(), kRegionComponent, "GetExtents",
                   [self](sd_bus_message* reply) {
                     auto extents = error_name(reply) == nullptr ? read_extents(reply) : std::nullopt;
                     auto area = extents ? shown_area(*extents, self->clip_) : std::nullopt;
                     if (!area) {
                       self->finish();
                       return;
                     }
                     self->probe_corners(*area);
                   },
                   "u", kScreenCoordinates);
  }

 private:
  bool is_table() const { return size_.columns > 0; }

  void probe_corners(const Bounds& area) {
    area_ = area;
    corners_outstanding_ = 2;
    probe(0, 0);
    probe(1, 0);
  }

  // The cell at a corner of the area, ATTEMPT steps towards its middle (a header row, a
  // grid line or the blank right of a list's last column holds no cell): what is there,
  // its index in its parent, and for a table its row and column from that index.
  void probe(int corner, std::size_t attempt) {
    const auto [x, y] = probe_point(area_, corner, attempt);
    auto self = shared_from_this();
    pipeline_.call(path_.c_str(), kRegionComponent, "GetAccessibleAtPoint",
                   [self, corner, attempt](sd_bus_message* reply) {
                     auto hit = error_name(reply) == nullptr ? read_reference_path(reply) : std::nullopt;
                     if (!hit || *hit == kNullObjectPath || *hit == self->path_) {
                       self->missed(corner, attempt);
                       return;
                     }
                     self->index_of(corner, attempt, *hit);
                   },
                   "iiu", x, y, kScreenCoordinates);
  }

  void missed(int corner, std::size_t attempt) {
    if (attempt + 1 < kProbeAttempts) {
      probe(corner, attempt + 1);
      return;
    }
    corner_done();
  }

  void index_of(int corner, std::size_t attempt, const std::string& hit) {
    auto self = shared_from_this();
    pipeline_.call(hit.c_str(), kAccessibleInterface, "GetIndexInParent",
                   [self, corner, attempt](sd_bus_message* reply) {
                     auto index = error_name(reply) == nullptr ? read_int32(reply) : std::nullopt;
                     if (!index || *index < 0) {
                       self->missed(corner, attempt);
                       return;
                     }
                     if (!self->is_table()) {
                       self->found(corner, attempt, CellPosition{*index, 0});
                       return;
                     }
                     self->position_of(corner, attempt, *index);
                   });
  }

  void position_of(int corner, std::size_t attempt, std::int32_t index) {
    struct Position {
      std::optional<std::int32_t> row;
      std::optional<std::int32_t> column;
      int outstanding = 2;
    };
    auto position = std::make_shared<Position>();
    auto self = shared_from_this();
    for (auto [member, field] : {std::pair{"GetRowAtIndex", &Position::row},
                                 std::pair{"GetColumnAtIndex", &Position::column}}) {
      pipeline_.call(path_.c_str(), kTableInterface, member,
                     [self, corner, attempt, position, field = field](sd_bus_message* reply) {
                       if (error_name(reply) == nullptr) (*position).*field = read_int32(reply);
                       if (--position->outstanding > 0) return;
                       if (position->row && position->column) {
                         self->found(corner, attempt, CellPosition{*position->row, *position->column});
                       } else {
                         self->missed(corner, attempt);
                       }
                     },
                     "i", index);
    }
  }

  void found(int corner, std::size_t attempt, CellPosition cell) {
    // A header (GTK's tree view gives its column headers row -1) is no cell: look further in.
    if (!within(cell, size_)) {
      missed(corner, attempt);
      return;
    }
    corners_[static_cast<std::size_t>(corner)] = cell;
    corner_done();
  }

  void corner_done() {
    if (--corners_outstanding_ > 0) return;
    read_.region = region_between(size_, corners_[0], corners_[1], max_cells_);
    fetch_children();
  }

  void fetch_children() {
    const ShownRegion& region = read_.region;
    const std::int64_t columns = is_table() ? region.column_count : 1;
    const auto cells = static_cast<std::size_t>(region.row_count * columns);
    if (cells == 0) {
      finish();
      return;
    }
    read_.children.resize(cells);
    auto self = shared_from_this();
    children_outstanding_ = cells;
    for (std::int64_t r = 0; r < region.row_count; ++r) {
      for (std::int64_t c = 0; c < columns; ++c) {
        const auto slot = static_cast<std::size_t>(r * columns + c);
        const auto row = static_cast<std::int32_t>(region.first_row + r);
        const auto column = static_cast<std::int32_t>(region.first_column + c);
        if (is_table()) read_.children[slot].cell = CellPosition{row, column};
        auto store = [self, slot](std::optional<std::string> child) {
          if (child) self->read_.children[slot].path = std::move(*child);
          if (--self->children_outstanding_ == 0) self->finish();
        };
        if (is_table()) {
          read_cell_path(pipeline_, path_, row, column, store);
        } else {
          pipeline_.call(path_.c_str(), kAccessibleInterface, "GetChildAtIndex",
                         [store](sd_bus_message* reply) {
                           auto child = error_name(reply) == nullptr ? read_reference_path(reply) : std::nullopt;
                           if (child && *child == kNullObjectPath) child.reset();
                           store(std::move(child));
                         },
                         "i", row);
        }
      }
    }
  }

  void finish() {
    // A cell the table could not give is left out; the rest keep their places.
    std::erase_if(read_.children, [](const ShownChild& child) { return child.path.empty(); });
    done_(std::move(read_));
  }

  Pipeline& pipeline_;
  const std::string path_;
  const TooManyChildren size_;
  const std::optional<Bounds> clip_;
  const std::size_t max_cells_;
  std::function<void(ShownRead)> done_;
  ShownRead read_;
  Bounds area_;
  std::optional<CellPosition> corners_[2];
  int corners_outstanding_ = 0;
  std::size_t children_outstanding_ = 0;
};

}  // namespace

std::pair<int, int> probe_point(const Bounds& area, int corner, std::size_t attempt) {
  const int inset_x = std::min(kCornerInset, area.width / 2);
  const int inset_y = std::min(kCornerInset, area.height / 2);
  const int divisor = kProbeDivisors[std::min(attempt, kProbeAttempts - 1)];
  const int in_x = inset_x + (divisor > 0 ? area.width / divisor : 0);
  const int in_y = inset_y + (divisor > 0 ? area.height / divisor : 0);
  if (corner == 0) return {area.x + in_x, area.y + in_y};
  return {area.x + area.width - 1 - in_x, area.y + area.height - 1 - in_y};
}

std::optional<Bounds> shown_area(const Bounds& extents, const std::optional<Bounds>& clip) {
  // In 64 bits: an app's extents may sit near INT_MAX.
  std::int64_t left = extents.x;
  std::int64_t top = extents.y;
  std::int64_t right = left + std::max(0, extents.width);
  std::int64_t bottom = top + std::max(0, extents.height);
  if (clip) {
    left = std::max<std::int64_t>(left, clip->x);
    top = std::max<std::int64_t>(top, clip->y);
    right = std::min<std::int64_t>(right, std::int64_t{clip->x} + std::max(0, clip->width));
    bottom = std::min<std::int64_t>(bottom, std::int64_t{clip->y} + std::max(0, clip->height));
  }
  if (right <= left || bottom <= top) return std::nullopt;
  return Bounds{static_cast<int>(left), static_cast<int>(top), static_cast<int>(right - left),
                static_cast<int>(bottom - top)};
}

ShownRegion region_between(const TooManyChildren& size, const std::optional<CellPosition>& top_left,
                           const std::optional<CellPosition>& bottom_right, std::size_t max_cells) {
  ShownRegion region;
  region.rows = size.rows;
  region.columns = size.columns;
  const auto& first = top_left ? top_left : bottom_right;
  const auto& last = bottom_right ? bottom_right : top_left;
  if (!first || max_cells == 0) return region;
  region.first_row = std::min(first->row, last->row);
  region.row_count = std::min(std::max(first->row, last->row) - region.first_row + 1, kMaxShownRows);
  if (size.columns > 0 && size.columns <= kMaxShownColumns) {
    // A table this narrow is read across: its columns right of the screen cost little, and
    // a probe at the right edge may land in the blank beside its last column.
    region.column_count = size.columns;
  } else if (size.columns > 0) {
    region.first_column = std::min(first->column, last->column);
    region.column_count =
        std::min(std::max(first->column, last->column) - region.first_column + 1, kMaxShownColumns);
  }
  const std::int64_t per_row = std::max<std::int64_t>(region.column_count, 1);
  const auto budget = static_cast<std::int64_t>(std::min<std::size_t>(max_cells, kMaxShownRows * kMaxShownColumns));
  if (per_row > budget) {
    region.column_count = budget;
    region.row_count = 1;
  } else {
    region.row_count = std::min(region.row_count, budget / per_row);
  }
  return region;
}

void read_shown_region(Pipeline& pipeline, const std::string& path, const TooManyChildren& size,
                       const std::optional<Bounds>& clip, std::size_t max_cells,
                       std::function<void(ShownRead)> done) {
  std::make_shared<RegionReader>(pipeline, path, size, clip, max_cells, std::move(done))->start();
}

}  // namespace companyos::a11y
