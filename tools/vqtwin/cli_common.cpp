#include "cli_common.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/quote.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin_cli {

void print_error(const std::string& message) {
  std::fprintf(stderr, "vqtwin: error: %s\n", vqtwin::printable(message, 2000).c_str());
}

void print_summary(std::FILE* f, const vqtwin::Results& r, const char* indent) {
  auto print = [&](const std::string& name) {
    if (auto v = r.pooled(name, {vqtwin::PoolMethod::kMean}))
      std::fprintf(f, "%s%s: %s\n", indent, name.c_str(), vqtwin::format_number(*v, -1).c_str());
  };
  for (const auto& name : r.scores) print(name);
  for (const auto& name : r.names())
    if (std::find(r.scores.begin(), r.scores.end(), name) == r.scores.end()) print(name);
  for (const auto& [name, v] : r.aggregates())
    std::fprintf(f, "%s%s: %s\n", indent, name.c_str(), vqtwin::format_number(v, -1).c_str());
}

std::string render_output(const vqtwin::Results& r, const vqtwin::OutputOptions& options) {
  char* data = nullptr;
  std::size_t size = 0;
  std::FILE* f = ::open_memstream(&data, &size);
  if (!f) throw vqtwin::Error("out of memory");
  vqtwin::write_output(f, r, options);
  std::fclose(f);
  std::string text(data, size);
  std::free(data);
  return text;
}

void report_peak_memory() {
  if (!std::getenv("VQTWIN_REPORT_PEAK_MEMORY")) return;
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return;
  char line[256];
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmHWM:", 6) == 0) std::fprintf(stderr, "vqtwin: peak memory%s", line + 5);
  std::fclose(f);
}

std::string path_name(const std::string& path) {
  if (path == "-") return "stdin";
  return std::filesystem::path(path).filename().string();
}

std::string path_stem(const std::string& path) {
  if (path == "-") return "stdin";
  return std::filesystem::path(path).stem().string();
}

}  // namespace vqtwin_cli
