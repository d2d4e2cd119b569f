// What a table or list too large to list shows (read/live_read.h refuses to list it): the
// area it covers on screen, within the window, is probed at its top-left and bottom-right
// corners for the cells (or items) there; their indices give the rows and columns shown,
// and those cells are fetched one by one — Table.GetAccessibleAt for a table,
// GetChildAtIndex for a list. LibreOffice Calc's sheet answers each in well under a
// millisecond, whatever its 2,147,483,647 children.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "a11y/bus/pipeline.h"
#include "a11y/model.h"
#include "a11y/read/live_read.h"

namespace companyos::a11y {

// The most rows and columns one read takes, whatever the screen shows: no screen shows
// more (a 2160-pixel screen holds about 120 rows of the smallest font a person reads).
inline constexpr std::int64_t kMaxShownRows = 250;
inline constexpr std::int64_t kMaxShownColumns = 100;

struct ShownChild {
  std::string path;
  std::optional<CellPosition> cell;  // a table's; nullopt for a list's item
};

struct ShownRead {
  ShownRegion region;
  std::vector<ShownChild> children;  // row by row, left to right
};

// The part of EXTENTS inside CLIP (the window), or nullopt when none of it is.
std::optional<Bounds> shown_area(const Bounds& extents, const std::optional<Bounds>& clip);

// Where a probe for a corner (0: top-left, 1: bottom-right) of AREA looks on its ATTEMPT
// (0 at the corner, 2 px in; then a 16th, an 8th and a quarter of the area further in).
std::pair<int, int> probe_point(const Bounds& area, int corner, std::size_t attempt);

// The region between the cells found at the two corners (either may be missing: then the
// other alone, or nothing), within SIZE and the caps, with at most MAX_CELLS cells.
ShownRegion region_between(const TooManyChildren& size, const std::optional<CellPosition>& top_left,
                           const std::optional<CellPosition>& bottom_right, std::size_t max_cells);

// Reads the region PATH shows; CLIP is the window's extents (nullopt: unknown). DONE runs
// once, with what was found — a region of no rows when nothing shown could be read.
void read_shown_region(Pipeline& pipeline, const std::string& path, const TooManyChildren& size,
                       const std::optional<Bounds>& clip, std::size_t max_cells,
                       std::function<void(ShownRead)> done);

}  // namespace companyos::a11y
