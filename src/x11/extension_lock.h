// Internal: libXext keeps one list of displays per extension (XTest's among them) and
// reads its "most recent display" shortcut without a lock, while XCloseDisplay frees
// entries from that list; XInitThreads does not cover it. Two workers each using their
// own Display still crashed in XTestQueryExtension that way. So every XTest call, and
// every XCloseDisplay (which removes the display from those lists), holds this lock.
#pragma once

#include <mutex>

namespace companyos::x11 {

[[nodiscard]] std::unique_lock<std::mutex> lock_extension_state();

}  // namespace companyos::x11
