#include "store/output_cap.h"

namespace companyos::store {
namespace {

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

CappedOutput cap_output(std::string_view output, std::size_t budget) {
  if (output.size() <= budget) return {std::string(output), false};
  std::size_t cut = budget;
  // Back up to the lead byte of the sequence the cut falls in (at most three bytes).
  for (int i = 0; i < 3 && cut > 0 && is_continuation_byte(output[cut]); ++i) --cut;
  return {std::string(output.substr(0, cut)), true};
}

}  // namespace companyos::store
