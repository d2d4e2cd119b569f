#include "web/http/page_files.h"

#include <fstream>
#include <sstream>

namespace companyos::web {
namespace {

constexpr std::uintmax_t kMaxFileBytes = 1024 * 1024;
constexpr std::size_t kMaxFiles = 200;

Error cannot(const std::filesystem::path& where, const std::string& why) {
  return make_error(ErrorCode::kInternal, "dashboard pages: " + where.string() + ": " + why,
                    {{"path", where.string()}}, "reinstall companyOS, or rebuild it");
}

}  // namespace

std::string_view content_type_for(std::string_view name) {
  const auto dot = name.rfind('.');
  if (dot == std::string_view::npos) return {};
  const std::string_view extension = name.substr(dot + 1);
  if (extension == "html") return "text/html; charset=utf-8";
  if (extension == "css") return "text/css; charset=utf-8";
  if (extension == "js") return "text/javascript; charset=utf-8";
  if (extension == "svg") return "image/svg+xml";
  if (extension == "png") return "image/png";
  if (extension == "ico") return "image/x-icon";
  return {};
}

Result<PageFiles> PageFiles::load(const std::filesystem::path& folder) {
  std::error_code error;
  std::filesystem::directory_iterator entries(folder, error);
  if (error) return cannot(folder, error.message());
  PageFiles pages;
  for (const auto& entry : entries) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file(error)) return cannot(entry.path(), "not a regular file");
    const std::string_view type = content_type_for(name);
    if (type.empty()) return cannot(entry.path(), "not a page file (html, css, js, svg, png, ico)");
    if (entry.file_size(error) > kMaxFileBytes || error) return cannot(entry.path(), "larger than 1 MiB");
    if (pages.files_.size() == kMaxFiles) return cannot(folder, "more than 200 files");
    std::ifstream in(entry.path(), std::ios::binary);
    if (!in.is_open()) return cannot(entry.path(), "cannot be read");
    std::ostringstream bytes;
    bytes << in.rdbuf();
    pages.files_["/" + name] = PageFile{std::string(type), std::move(bytes).str()};
  }
  if (pages.find("/") == nullptr) return cannot(folder, "no index.html");
  return pages;
}

const PageFile* PageFiles::find(std::string_view path) const {
  if (path == "/") path = "/index.html";
  const auto found = files_.find(path);
  return found == files_.end() ? nullptr : &found->second;
}

}  // namespace companyos::web
