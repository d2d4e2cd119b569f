"""What the X server itself says about windows, for judging the daemon from outside."""

import subprocess


def root_active_window():
    """Root's _NET_ACTIVE_WINDOW as xprop reads it; None when nothing is active."""
    out = subprocess.run(["xprop", "-root", "_NET_ACTIVE_WINDOW"], capture_output=True, text=True).stdout
    return int(out.strip().split()[-1], 16) if "#" in out else None


def client_origin(xid):
    """The client area's top-left corner on screen, as xwininfo reads it."""
    out = subprocess.run(["xwininfo", "-id", str(xid)], capture_output=True, text=True).stdout
    fields = dict(line.strip().split(":", 1) for line in out.splitlines() if ":" in line)
    return int(fields["Absolute upper-left X"]), int(fields["Absolute upper-left Y"])


def picture_point(bounds, xid):
    """The centre of screen `bounds` ({x, y, width, height}) in the window's own pixels, as
    a screenshot of its client area numbers them."""
    left, top = client_origin(xid)
    return bounds["x"] + bounds["width"] // 2 - left, bounds["y"] + bounds["height"] // 2 - top
