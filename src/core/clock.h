// Injected time source: production uses SystemClock, tests drive a FakeClock.
// wall() is Unix time (may jump); steady() only moves forward.
#pragma once

#include <chrono>
#include <cstdint>

namespace companyos {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::chrono::system_clock::time_point wall() const = 0;
  virtual std::chrono::steady_clock::time_point steady() const = 0;

  std::int64_t unix_seconds() const {
    return std::chrono::duration_cast<std::chrono::seconds>(wall().time_since_epoch()).count();
  }
};

class SystemClock final : public Clock {
 public:
  std::chrono::system_clock::time_point wall() const override {
    return std::chrono::system_clock::now();
  }
  std::chrono::steady_clock::time_point steady() const override {
    return std::chrono::steady_clock::now();
  }
};

// Time stands still until the test advances it; steady time advances with wall time
// except on set_wall(), which models a clock jump.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(std::int64_t unix_seconds = 1'700'000'000)
      : wall_(std::chrono::seconds(unix_seconds)) {}
  std::chrono::system_clock::time_point wall() const override { return wall_; }
  std::chrono::steady_clock::time_point steady() const override { return steady_; }
  void advance(std::chrono::nanoseconds d) {
    wall_ += std::chrono::duration_cast<std::chrono::system_clock::duration>(d);
    steady_ += d;
  }
  void set_wall(std::chrono::system_clock::time_point t) { wall_ = t; }

 private:
  std::chrono::system_clock::time_point wall_;
  std::chrono::steady_clock::time_point steady_{};
};

}  // namespace companyos
