// float_ssim_cuda's device planes (raw luma converted, or box-decimated at scales 1..128) against the
// CPU's (luma_to_float + box_decimate), byte for byte: 8/10/12/16 bits, scales 1..10, 16, 32, 64, 128,
// odd and narrow sizes, random / extreme / smooth content, any 16-bit word at 10/12 bits (libvmaf
// accepts words of 2^bpc or more there) and the first frame of each shared fixture.
// The twin harness cannot see these planes (only the means they lead to), and scales above 10 are
// reached only by auto scale on huge pictures.
//   float_ssim_decimation_check [--fixtures DIR]
// Exit 0 all identical, 1 a difference, 77 no device (CTest: skipped). Built a second time with
// VQTWIN_PLANES_VULKAN=1 for float_ssim_vulkan's planes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "backends/device.hpp"
#include "common/luma_float.hpp"
#include "features/float_ssim/decimate.hpp"
#include "features/float_ssim/device_hooks.hpp"
#include "features/float_ssim/math.hpp"
#include "io/picture_source.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

std::vector<float> cpu_plane(const Picture& p, int s) {
  const int w = p.width(0), h = p.height(0);
  std::vector<float> full(std::size_t(w) * h);
  vqtwin::luma_to_float(p, 0.0f, full.data());
  if (s == 1) return full;
  std::vector<float> out(std::size_t(float_ssim::decimated_size(w, s)) * float_ssim::decimated_size(h, s));
  float_ssim::box_decimate(full.data(), w, h, s, out.data());
  return out;
}

Picture make(int w, int h, int bits, int kind, unsigned seed) {
  Picture p(PictureFormat{w, h, bits, ChromaFormat::k400});
  std::mt19937 rng(seed);
  const unsigned max = (1u << bits) - 1;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      unsigned v = 0;
      if (kind == 0) v = unsigned(rng() % (max + 1));
      else if (kind == 1) v = ((x / 3 + y / 2) & 1) ? max : 0;
      else if (kind == 2) v = unsigned(std::lround((0.5 + 0.45 * std::sin(0.013 * x + 0.021 * y)) * max));
      else v = bits > 8 ? (((x / 5 + y / 4) % 3) == 0 ? 65535u : unsigned(rng() % 65536)) : unsigned(rng() % 256);
      if (bits > 8) p.row<std::uint16_t>(0, y)[x] = std::uint16_t(v);
      else p.row<std::uint8_t>(0, y)[x] = std::uint8_t(v);
    }
  return p;
}

struct Tally {
  unsigned long planes = 0, identical = 0;
};

void compare(const Picture& p, int s, const std::string& what, Tally& t) {
#if VQTWIN_PLANES_VULKAN
  const std::vector<float> dev = float_ssim::vulkan_luma_plane(p, s), cpu = cpu_plane(p, s);
#else
  const std::vector<float> dev = float_ssim::device_luma_plane(p, s), cpu = cpu_plane(p, s);
#endif
  ++t.planes;
  std::size_t bad = dev.size() == cpu.size() ? 0 : std::max(dev.size(), cpu.size());
  for (std::size_t i = 0; !bad && i < dev.size(); ++i) bad = std::memcmp(&dev[i], &cpu[i], sizeof(float)) ? i + 1 : 0;
  if (!bad) {
    ++t.identical;
    return;
  }
  std::printf("  DIFF %s scale %d: sample %zu cpu %.9g device %.9g\n", what.c_str(), s, bad - 1,
              bad <= cpu.size() ? cpu[bad - 1] : -1.0, bad <= dev.size() ? dev[bad - 1] : -1.0);
}

int check(int argc, char** argv) {
  std::string fixtures;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--fixtures" && i + 1 < argc) fixtures = argv[++i];
  std::string why;
#if VQTWIN_PLANES_VULKAN  // float_ssim_vulkan's planes (float_ssim_decimate.comp)
  if (!vulkan_device_usable(0, &why)) {
#else
  if (!cuda_device_usable(0, &why)) {
#endif
    std::printf("float_ssim_decimation_check: skipped: no device (%s)\n", why.c_str());
    return 77;
  }
  const int scales[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 32, 64, 128};
  const int sizes[][2] = {{853, 481}, {161, 91}, {1920, 1080}, {21, 22}, {1281, 13}, {13, 1281}};
  Tally t;
  unsigned seed = 1;
  for (int bits : {8, 10, 12, 16})
    for (const auto& sz : sizes)
      for (int kind = 0; kind < 4; ++kind) {
        const Picture p = make(sz[0], sz[1], bits, kind, seed++);
        for (int s : scales)
          compare(p, s, std::to_string(sz[0]) + "x" + std::to_string(sz[1]) + " " + std::to_string(bits) + "-bit kind " +
                            std::to_string(kind), t);
      }
  if (!fixtures.empty())
    for (const auto& entry : std::filesystem::directory_iterator(fixtures)) {
      if (entry.path().extension() != ".y4m") continue;
      auto src = open_picture_source(entry.path().string(), SourceOptions{});
      Picture p(src->format());
      if (!src->read(p)) continue;
      for (int s : scales) compare(p, s, entry.path().filename().string(), t);
    }
  std::printf("float_ssim_decimation_check: %lu planes, %lu identical: %s\n", t.planes, t.identical,
              t.planes == t.identical ? "every plane byte-identical" : "DIFFERENCES FOUND");
  return t.planes == t.identical ? 0 : 1;
}

}  // namespace
}  // namespace vqtwin

int main(int argc, char** argv) {
  try {
    return vqtwin::check(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "float_ssim_decimation_check: error: %s\n", e.what());
    return 1;
  }
}
