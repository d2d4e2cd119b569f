#include "cli/terminal_output.h"

#include <iostream>

#include "core/text.h"

namespace companyos::cli {

EscapingBuffer::~EscapingBuffer() { write_pending(true); }

EscapingBuffer::int_type EscapingBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return sync() == 0 ? traits_type::not_eof(c) : c;
  pending_.push_back(traits_type::to_char_type(c));
  if (traits_type::to_char_type(c) == '\n' && !write_pending(false)) return traits_type::eof();
  return c;
}

std::streamsize EscapingBuffer::xsputn(const char* text, std::streamsize count) {
  pending_.append(text, static_cast<std::size_t>(count));
  // A line break ends every character, so whole lines never cut a UTF-8 sequence.
  if (pending_.find('\n', pending_.size() - static_cast<std::size_t>(count)) != std::string::npos &&
      !write_pending(false)) {
    return 0;
  }
  return count;
}

int EscapingBuffer::sync() {
  if (!write_pending(true)) return -1;
  return sink_->pubsync();
}

bool EscapingBuffer::write_pending(bool all) {
  const std::size_t end = all ? pending_.size() : pending_.rfind('\n') + 1;
  if (end == 0) return true;
  const std::string shown = escape_for_terminal(std::string_view(pending_).substr(0, end), true);
  pending_.erase(0, end);
  return sink_->sputn(shown.data(), static_cast<std::streamsize>(shown.size())) ==
         static_cast<std::streamsize>(shown.size());
}

TerminalSafeOutput::TerminalSafeOutput()
    : out_(std::cout.rdbuf()), err_(std::cerr.rdbuf()), saved_out_(std::cout.rdbuf(&out_)),
      saved_err_(std::cerr.rdbuf(&err_)) {}

TerminalSafeOutput::~TerminalSafeOutput() {
  std::cout.flush();
  std::cerr.flush();
  std::cout.rdbuf(saved_out_);
  std::cerr.rdbuf(saved_err_);
}

}  // namespace companyos::cli
