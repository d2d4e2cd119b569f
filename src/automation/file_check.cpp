#include "automation/file_check.h"

#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <memory>

#include <glib.h>

namespace companyos::automation {
namespace {

struct ChecksumFree {
  void operator()(GChecksum* checksum) const { g_checksum_free(checksum); }
};

}  // namespace

std::string sha256_hex(std::string_view content) {
  std::unique_ptr<GChecksum, ChecksumFree> checksum(g_checksum_new(G_CHECKSUM_SHA256));
  g_checksum_update(checksum.get(), reinterpret_cast<const guchar*>(content.data()),
                    static_cast<gssize>(content.size()));
  return g_checksum_get_string(checksum.get());
}

FileVerdict judge_content(std::string_view content, const FileCheck& check) {
  switch (check.expectation) {
    case FileExpectation::kEquals:
      if (content == check.expected) return {true, "the file holds exactly the expected content"};
      return {false, "the file's content differs from the expected (" + std::to_string(content.size()) +
                         " bytes, " + std::to_string(check.expected.size()) + " expected)"};
    case FileExpectation::kContains:
      if (content.find(check.expected) != std::string_view::npos) {
        return {true, "the file contains the expected text"};
      }
      return {false, "the file does not contain the expected text"};
    case FileExpectation::kSha256:
      if (sha256_hex(content) == check.expected) return {true, "the file's SHA-256 is the expected one"};
      return {false, "the file's SHA-256 differs from the expected one"};
  }
  return {false, "unknown expectation"};
}

FileVerdict judge_file(const FileCheck& check) {
  struct stat info {};
  if (::stat(check.path.c_str(), &info) != 0) return {false, "no file at " + check.path};
  if (!S_ISREG(info.st_mode)) return {false, check.path + " is not a regular file"};
  if (static_cast<std::size_t>(info.st_size) > kMaxCheckedFileBytes) {
    return {false, check.path + " is larger than the " + std::to_string(kMaxCheckedFileBytes) +
                       " bytes a check reads"};
  }
  std::ifstream in(check.path, std::ios::binary);
  if (!in) return {false, "cannot read " + check.path};
  std::string content;
  content.reserve(static_cast<std::size_t>(info.st_size));
  char buffer[64 * 1024];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    content.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (content.size() > kMaxCheckedFileBytes) {
      return {false, check.path + " grew past the bytes a check reads"};
    }
  }
  return judge_content(content, check);
}

}  // namespace companyos::automation
