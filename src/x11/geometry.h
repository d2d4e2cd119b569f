// Rectangles in root-window (screen) coordinates.
#pragma once

namespace companyos::x11 {

struct Rect {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;

  bool empty() const { return width <= 0 || height <= 0; }
  bool contains(const Rect& inner) const {
    return inner.x >= x && inner.y >= y && inner.x + inner.width <= x + width &&
           inner.y + inner.height <= y + height;
  }
  friend bool operator==(const Rect&, const Rect&) = default;
};

}  // namespace companyos::x11
