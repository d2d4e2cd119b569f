// The one rectangle: an element's bounds, a window's frame, a capture's area, in
// screen (root-window) coordinates unless a caller says otherwise.
#pragma once

namespace companyos {

struct Bounds {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;

  bool empty() const { return width <= 0 || height <= 0; }
  bool contains(const Bounds& inner) const {
    return inner.x >= x && inner.y >= y && inner.x + inner.width <= x + width &&
           inner.y + inner.height <= y + height;
  }
  friend bool operator==(const Bounds&, const Bounds&) = default;
};

}  // namespace companyos
