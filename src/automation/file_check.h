// check:"file" (docs/automations.md): does the file hold what the step expects — exactly these bytes,
// these bytes somewhere, or content with this SHA-256. The reason never quotes the content.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "automation/definition.h"

namespace companyos::automation {

// A larger file fails the check rather than being read whole.
inline constexpr std::size_t kMaxCheckedFileBytes = 64 * 1024 * 1024;

struct FileVerdict {
  bool holds = false;
  std::string reason;  // "the file holds the expected content", "no file at /x", …
};

// SHA-256 of `content`, 64 lower-case hex digits (GLib's GChecksum).
std::string sha256_hex(std::string_view content);

// The verdict on `content` alone.
FileVerdict judge_content(std::string_view content, const FileCheck& check);

// Reads check.path now (a regular file, at most kMaxCheckedFileBytes) and judges it.
FileVerdict judge_file(const FileCheck& check);

}  // namespace companyos::automation
