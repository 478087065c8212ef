// Where version=NAME user models are found (after the built-in ones): a search path read from the
// environment at run time, never a folder baked in at build time.
#include <cstdlib>
#include <filesystem>

#include "models/vmaf_model.hpp"

namespace vqtwin::models {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

std::vector<std::string> model_search_path() {
  std::vector<std::string> folders;
  const std::string list = env("VQTWIN_MODEL_PATH");
  std::size_t pos = 0;
  while (pos <= list.size() && !list.empty()) {
    std::size_t end = list.find(':', pos);
    if (end == std::string::npos) end = list.size();
    if (end > pos) folders.push_back(list.substr(pos, end - pos));
    pos = end + 1;
  }
  // XDG base directories: a relative XDG_DATA_HOME is invalid and ignored (the spec says so).
  const std::string xdg = env("XDG_DATA_HOME");
  const std::string home = env("HOME");
  if (!xdg.empty() && xdg[0] == '/') folders.push_back(xdg + "/vqtwin/models");
  else if (!home.empty()) folders.push_back(home + "/.local/share/vqtwin/models");
  folders.push_back("/usr/local/share/vqtwin/models");
  folders.push_back("/usr/share/vqtwin/models");
  return folders;
}

std::optional<std::string> find_model_file(std::string_view version) {
  if (version.empty() || version.find('/') != std::string_view::npos) return std::nullopt;
  for (const std::string& folder : model_search_path()) {
    std::string file = folder;
    if (file.back() != '/') file += '/';
    file += version;
    file += ".json";
    std::error_code ec;
    if (std::filesystem::is_regular_file(file, ec)) return file;
  }
  return std::nullopt;
}

}  // namespace vqtwin::models
