#include "a11y/read/shown_region.h"

#include <algorithm>
#include <functional>
#include <limits>
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
// The place a toolkit gives a cell it does not draw (GTK 3's tree view, for rows off screen).
constexpr int kNoPlace = std::numeric_limits<std::int32_t>::min();

// How far in from its corner each probe looks, in parts of the area's size.
constexpr std::size_t kProbeAttempts = 4;
constexpr int kProbeDivisors[kProbeAttempts] = {0, 16, 8, 4};

// A row whose bottom is below the area's top shows at least in part.
bool bottom_below_top(const Bounds& cell, const Bounds& area) { return cell.y + cell.height > area.y; }

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
  // First and last index, inclusive.
  using Span = std::pair<std::int64_t, std::int64_t>;
  using CellAt = std::function<CellPosition(std::int64_t)>;
  using ExtentsTest = std::function<bool(const Bounds&)>;

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
  // A point that gives the table itself is asked once more: Chromium hit-tests its page
  // asynchronously and answers the first ask of a point with the nearest node it knows.
  void probe(int corner, std::size_t attempt, bool again = false) {
    const auto [x, y] = probe_point(area_, corner, attempt);
    auto self = shared_from_this();
    pipeline_.call(path_.c_str(), kRegionComponent, "GetAccessibleAtPoint",
                   [self, corner, attempt, again, x = x, y = y](sd_bus_message* reply) {
                     auto hit = error_name(reply) == nullptr ? read_reference_path(reply) : std::nullopt;
                     if (hit && *hit == self->path_ && !again) {
                       self->probe(corner, attempt, true);
                       return;
                     }
                     if (!hit || *hit == kNullObjectPath || *hit == self->path_) {
                       self->missed(corner, attempt);
                       return;
                     }
                     if (!self->is_table()) {
                       self->index_of(corner, attempt, *hit);
                       return;
                     }
                     self->cell_position(corner, attempt, *hit, x, y);
                   },
                   "iiu", x, y, kScreenCoordinates);
  }

  // Where the cell at a point sits. A cell offering TableCell says its own row and column
  // (Position); a browser's point can land on the text inside a cell or on its row, and a
  // web cell's index in its parent is its column, not its place in the table. So: HIT's
  // Position, then that of the node under the point within HIT, then of HIT's parent; only
  // without TableCell on any of them, HIT's index in its parent.
  enum class Step { kHit, kChild, kParent };

  void cell_position(int corner, std::size_t attempt, const std::string& hit, int x, int y,
                     Step step = Step::kHit) {
    auto self = shared_from_this();
    auto next = [self, corner, attempt, hit, x, y, step] {
      if (step == Step::kHit) {
        self->cell_position(corner, attempt, hit, x, y, Step::kChild);
      } else if (step == Step::kChild) {
        self->cell_position(corner, attempt, hit, x, y, Step::kParent);
      } else {
        self->index_of(corner, attempt, hit);
      }
    };
    auto ask = [self, corner, attempt, next](const std::string& at) {
      self->pipeline_.call(at.c_str(), kPropertiesInterface, "Get",
                           [self, corner, attempt, next](sd_bus_message* reply) {
                             auto position = error_name(reply) == nullptr ? read_variant_int32_pair(reply)
                                                                          : std::nullopt;
                             if (!position) return next();
                             self->found(corner, attempt, CellPosition{position->first, position->second});
                           },
                           "ss", kTableCellInterface, "Position");
    };
    // The node to ask, once known: none, the hit itself or the table is skipped.
    auto ask_other = [self, hit, ask, next](std::optional<std::string> other) {
      if (!other || *other == kNullObjectPath || *other == hit || *other == self->path_) return next();
      ask(*other);
    };
    switch (step) {
      case Step::kHit:
        ask(hit);
        return;
      case Step::kChild:
        pipeline_.call(hit.c_str(), kRegionComponent, "GetAccessibleAtPoint",
                       [ask_other](sd_bus_message* reply) {
                         ask_other(error_name(reply) == nullptr ? read_reference_path(reply) : std::nullopt);
                       },
                       "iiu", x, y, kScreenCoordinates);
        return;
      case Step::kParent:
        pipeline_.call(hit.c_str(), kPropertiesInterface, "Get",
                       [ask_other](sd_bus_message* reply) {
                         ask_other(error_name(reply) == nullptr ? read_variant_reference_path(reply) : std::nullopt);
                       },
                       "ss", kAccessibleInterface, "Parent");
        return;
    }
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
      if (corner == 0) header_above_ = true;
      missed(corner, attempt);
      return;
    }
    corners_[static_cast<std::size_t>(corner)] = cell;
    if (corner == 0) top_found_inward_ = attempt > 0;
    if (corner == 1) bottom_found_inward_ = attempt > 0;
    corner_done();
  }

  void corner_done() {
    if (--corners_outstanding_ > 0) return;
    if (is_table() && (!corners_[0] || !corners_[1])) {
      locate_rows_by_extents();
      return;
    }
    if (is_table() && top_found_inward_ && !header_above_ && corners_[0]->row > 0) {
      first_row_above();
      return;
    }
    last_row_below();
  }

  // A top corner found further in, past something that was no cell (a border, or what
  // Firefox gives for a point now and then), may lie below the first row on screen: the
  // rows above it are searched by their extents for the first whose bottom is below the
  // area's top. Not past a header: the rows start below it, and a row scrolled away can
  // claim the header's place (GTK's tree view).
  void first_row_above() {
    const CellPosition top = *corners_[0];
    const Bounds area = area_;
    auto self = shared_from_this();
    bisect(0, top.row, [column = top.column](std::int64_t row) { return CellPosition{row, column}; },
           [area](const Bounds& b) { return bottom_below_top(b, area); },
           [self](std::optional<std::int64_t> first) {
             if (first && *first < self->corners_[0]->row) self->corners_[0]->row = *first;
             self->last_row_below();
           });
  }

  // Likewise a bottom corner found further in, past what gives no cell near the bottom
  // edge (Qt's table views answer no point within a header's height of it), may lie above
  // the last row on screen: the rows below it are searched for the first whose top is at or
  // past the area's bottom (or without a place on screen).
  void last_row_below() {
    if (!is_table() || !bottom_found_inward_ || corners_[1]->row + 1 >= size_.rows) {
      settle_region();
      return;
    }
    const CellPosition bottom = *corners_[1];
    const Bounds area = area_;
    auto self = shared_from_this();
    bisect(bottom.row + 1, size_.rows, [column = bottom.column](std::int64_t row) { return CellPosition{row, column}; },
           [area](const Bounds& b) { return b.y == kNoPlace || b.y >= area.y + area.height; },
           [self](std::optional<std::int64_t> after) {
             if (after && *after - 1 > self->corners_[1]->row) self->corners_[1]->row = *after - 1;
             self->settle_region();
           });
  }

  void settle_region() {
    read_.region = region_between(size_, corners_[0], corners_[1], max_cells_);
    fetch_children();
  }

  // Without a cell at both corners (Chromium hit-tests its page asynchronously and answers
  // a point with the table itself), the rows on screen are found by their cells' extents,
  // which a table gives for any row; likewise the columns of a table too wide to read
  // across. About 2 × log2(rows) calls, one after another.
  void locate_rows_by_extents() {
    const std::int64_t column = corners_[0] ? corners_[0]->column : corners_[1] ? corners_[1]->column : 0;
    const Bounds area = area_;
    auto self = shared_from_this();
    shown_span(
        size_.rows, [column](std::int64_t row) { return CellPosition{row, column}; },
        [area](const Bounds& b) { return bottom_below_top(b, area); },
        [area](const Bounds& b) { return b.y >= area.y + area.height; },
        [self](std::optional<Span> rows) {
          if (!rows) return self->settle_region();
          self->locate_columns_by_extents(*rows);
        });
  }

  void locate_columns_by_extents(Span rows) {
    if (size_.columns <= kMaxShownColumns) {  // read across: any column will do
      corners_[0] = CellPosition{rows.first, 0};
      corners_[1] = CellPosition{rows.second, 0};
      settle_region();
      return;
    }
    const Bounds area = area_;
    auto self = shared_from_this();
    shown_span(
        size_.columns, [row = rows.first](std::int64_t column) { return CellPosition{row, column}; },
        [area](const Bounds& b) { return b.x + b.width > area.x; },
        [area](const Bounds& b) { return b.x >= area.x + area.width; },
        [self, rows](std::optional<Span> columns) {
          if (columns) {
            self->corners_[0] = CellPosition{rows.first, columns->first};
            self->corners_[1] = CellPosition{rows.second, columns->second};
          }
          self->settle_region();
        });
  }

  // The indices in [0, COUNT) whose cells (CELL_AT) lie on screen along one axis: from the
  // first for which STARTED holds (its far edge past the area's start) to before the first
  // for which ENDED holds (its near edge at or past the area's end). nullopt when none is,
  // or a cell or its extents could not be read.
  void shown_span(std::int64_t count, CellAt cell_at, ExtentsTest started, ExtentsTest ended,
                  std::function<void(std::optional<Span>)> done) {
    auto self = shared_from_this();
    bisect(0, count, cell_at, std::move(started),
           [self, count, cell_at, ended = std::move(ended), done](std::optional<std::int64_t> first) {
             if (!first || *first >= count) return done(std::nullopt);
             self->bisect(*first, count, cell_at, ended, [first = *first, done](std::optional<std::int64_t> after) {
               if (!after) return done(std::nullopt);
               done(Span{first, std::max(first, *after - 1)});
             });
           });
  }

  // The first index in [LO, HI) whose cell (CELL_AT) has extents PAST holds for — false
  // before it, true from it on — or HI; nullopt when a cell or its extents could not be read.
  void bisect(std::int64_t lo, std::int64_t hi, CellAt cell_at, ExtentsTest past,
              std::function<void(std::optional<std::int64_t>)> done) {
    if (lo >= hi) {
      done(lo);
      return;
    }
    const std::int64_t mid = lo + (hi - lo) / 2;
    const CellPosition at = cell_at(mid);
    auto self = shared_from_this();
    read_cell_path(pipeline_, path_, at.row, at.column,
                   [self, lo, hi, mid, cell_at, past, done](std::optional<std::string> cell) {
                     if (!cell) return done(std::nullopt);
                     self->pipeline_.call(
                         cell->c_str(), kRegionComponent, "GetExtents",
                         [self, lo, hi, mid, cell_at, past, done](sd_bus_message* reply) {
                           auto bounds = error_name(reply) == nullptr ? read_extents(reply) : std::nullopt;
                           if (!bounds) return done(std::nullopt);
                           if (past(*bounds)) {
                             self->bisect(lo, mid, cell_at, past, done);
                           } else {
                             self->bisect(mid + 1, hi, cell_at, past, done);
                           }
                         },
                         "u", kScreenCoordinates);
                   });
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
  bool top_found_inward_ = false;
  bool bottom_found_inward_ = false;
  bool header_above_ = false;  // the top probe met a header (a cell of no row)
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
