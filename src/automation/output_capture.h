// Collects a command's output as it arrives: keeps what fits the cap, counts everything, so a
// step's output stays bounded however much the command prints (docs/automations.md: 64 KiB per
// step, 128 KiB per run — the runner passes what is left of the run's budget as the cap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace companyos::automation {

class OutputCapture {
 public:
  explicit OutputCapture(std::size_t cap) : cap_(cap) {}

  void append(std::string_view bytes);

  // At most `cap` bytes, cut where store::cap_output cuts: never inside a UTF-8 character.
  std::string text() const;
  // Every byte the command wrote, kept or not.
  std::uint64_t total_bytes() const { return total_bytes_; }
  bool truncated() const { return total_bytes_ > cap_; }

 private:
  std::size_t cap_;
  // The first cap + 1 bytes: the one past the cap tells whether the cut splits a character.
  std::string head_;
  std::uint64_t total_bytes_ = 0;
};

}  // namespace companyos::automation
