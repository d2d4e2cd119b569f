// Human output reaches a terminal that a person trusts, and much of what it shows came from
// outside (an app's names, a page's title, a clipboard). Two layers keep that text from
// driving the terminal: plain() escapes every string it shows (render.h), and, for
// whatever a command prints some other way, TerminalSafeOutput escapes the controls of
// every line written to std::cout and std::cerr while it lives (core/text.h's
// escape_for_terminal, line breaks kept). Not for --json or `companyos mcp`, whose output is
// a protocol for programs.
#pragma once

#include <iosfwd>
#include <streambuf>
#include <string>

namespace companyos::cli {

// A stream buffer that writes whole lines to sink, each escaped; sync() writes the rest.
class EscapingBuffer : public std::streambuf {
 public:
  explicit EscapingBuffer(std::streambuf* sink) : sink_(sink) {}
  ~EscapingBuffer() override;
  EscapingBuffer(const EscapingBuffer&) = delete;
  EscapingBuffer& operator=(const EscapingBuffer&) = delete;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int sync() override;

 private:
  // Writes pending_ up to its last line break (everything when all is true).
  bool write_pending(bool all);

  std::streambuf* sink_;
  std::string pending_;
};

// Escapes std::cout and std::cerr for its lifetime; restores them (flushed) after.
class TerminalSafeOutput {
 public:
  TerminalSafeOutput();
  ~TerminalSafeOutput();
  TerminalSafeOutput(const TerminalSafeOutput&) = delete;
  TerminalSafeOutput& operator=(const TerminalSafeOutput&) = delete;

 private:
  EscapingBuffer out_;
  EscapingBuffer err_;
  std::streambuf* saved_out_;
  std::streambuf* saved_err_;
};

}  // namespace companyos::cli
