// cambi's heatmap files (see heatmaps.hpp).
#include "features/cambi/heatmaps.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <vector>

#include "features/cambi/math.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::cambi {
namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace

static_assert(kNumScales == 5);

Heatmaps::Heatmaps(const std::string& folder, int enc_w, int enc_h, int window, int num_diffs) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw Error("cambi: cannot create heatmaps_path '" + folder + "': " + ec.message());
  int w = enc_w, h = enc_h;
  for (int s = 0; s < kNumScales; ++s) {
    // Named after the encode size halved per scale, as libvmaf names them (with
    // cambi_high_res_speedup the data of scale s is half that size).
    const std::string path = folder + "/cambi_heatmap_scale_" + std::to_string(s) + "_" + size_text(w, h) + "_16b.gray";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw Error("cambi: could not open heatmaps_path: " + path + " (" + std::strerror(errno) + ")");
    fds_[s] = fd;
    w = (w + 1) >> 1;
    h = (h + 1) >> 1;
  }
  int max_weight = kContrastWeights[0];
  for (int d = 0; d < num_diffs; ++d) max_weight = std::max(max_weight, kContrastWeights[d]);
  scaling_ = 65535.0 / (max_weight * window * window / 4);
}

Heatmaps::~Heatmaps() {
  for (int fd : fds_)
    if (fd >= 0) ::close(fd);
}

void Heatmaps::write(int scale, const float* values, int w, int h, unsigned frame) const {
  std::vector<std::uint16_t> row(static_cast<std::size_t>(w));
  for (int i = 0; i < h; ++i) {
    for (int j = 0; j < w; ++j) row[std::size_t(j)] = std::uint16_t(scaling_ * values[std::ptrdiff_t(i) * w + j]);
    const off_t offset = off_t((std::uint64_t(frame) * std::uint64_t(h) + std::uint64_t(i)) * std::uint64_t(w) * 2);
    const std::size_t bytes = row.size() * 2;
    if (::pwrite(fds_[scale], row.data(), bytes, offset) != ssize_t(bytes))
      throw Error(std::string("cambi: could not write a heatmap (") + std::strerror(errno) + ")");
  }
}

}  // namespace vqtwin::cambi
