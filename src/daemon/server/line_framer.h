// Splits a byte stream into newline-terminated lines of at most max_line bytes.
// A longer line is reported once as oversize (its bytes are dropped) and framing resumes
// at the next newline, so one bad line never kills the connection.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace companyos::daemon {

struct FramedLine {
  std::string text;
  bool oversize = false;
};

class LineFramer {
 public:
  explicit LineFramer(std::size_t max_line);

  // Appends bytes; complete lines (without the newline, a trailing CR removed) go to out.
  // Blank lines are skipped.
  void feed(std::string_view bytes, std::vector<FramedLine>& out);
  // At end of stream: a final line without a newline, if any.
  std::optional<FramedLine> finish();

 private:
  void emit(std::vector<FramedLine>& out);

  std::size_t max_line_;
  std::string pending_;
  bool discarding_ = false;
};

}  // namespace companyos::daemon
