// The dashboard's page files (HTML, CSS, JavaScript modules, images), read once from one
// folder when serving starts. Only those files are ever served, by their exact names: no
// request path reaches the file system.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "companyos/result.h"

namespace companyos::web {

struct PageFile {
  std::string content_type;
  std::string bytes;
};

class PageFiles {
 public:
  // Each regular file of folder with a known type, up to 1 MiB each, 200 files: more, a
  // file of another type or a subfolder is refused (the folder is ours to install).
  static Result<PageFiles> load(const std::filesystem::path& folder);

  // "/" is "/index.html".
  const PageFile* find(std::string_view path) const;
  std::size_t size() const { return files_.size(); }

 private:
  std::map<std::string, PageFile, std::less<>> files_;  // "/app.js" → file
};

// The content type for a file name, or empty when it is not a page file's.
std::string_view content_type_for(std::string_view name);

}  // namespace companyos::web
