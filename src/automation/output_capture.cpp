#include "automation/output_capture.h"

#include <algorithm>
#include <cstdint>

#include "store/output_cap.h"

namespace companyos::automation {

void OutputCapture::append(std::string_view bytes) {
  total_bytes_ += bytes.size();
  const std::size_t keep = cap_ < SIZE_MAX ? cap_ + 1 : cap_;
  const std::size_t room = keep - std::min(keep, head_.size());
  head_.append(bytes.substr(0, room));
}

std::string OutputCapture::text() const { return store::cap_output(head_, cap_).text; }

}  // namespace companyos::automation
