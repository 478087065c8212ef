// ciede's whole frame, fast path (memo of conversions + batch kernels) against the scalar reference (math.hpp
// per pixel, the C library's functions), every pixel's float and the frame's double sum bit for bit: each build
// this CPU runs (portable, x86-64-v3, x86-64-v4), 8-, 10-, 12- and 16-bit samples, 4:2:0, 4:2:2 and 4:4:4, odd
// and even sizes, contents from flat to noise and wild words (any 16-bit word at 10 and 12 bits), a memo carried
// from frame to frame and from size to size as in a run. The planted bugs VQTWIN_PLANT=ciede_cpu_memo_key (the
// memo's key missing a bit) and ciede_cpu_memo_narrow_key (samples packed in bpc bits, so wild colours share
// keys) must fail it (ctest cpu_check_plant_ciede_memo_key, cpu_check_plant_ciede_memo_narrow_key).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "features/ciede/batch.hpp"
#include "features/ciede/frame.hpp"
#include "features/ciede/front.hpp"
#include "variants.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

// Wild samples: any word the picture's sample type holds (at 10 and 12 bits words of 2^bpc or more, which
// libvmaf accepts, core/sample_range.hpp), a third of them the largest word (runs of it, as the twin
// harness's wild content: colours that share most of their bits).
void fill_wild(Picture& ref, Picture& dist, std::mt19937& rng) {
  const PictureFormat& f = ref.format();
  const unsigned word_max = f.bitdepth == 8 ? 255u : 65535u;
  for (Picture* pic : {&ref, &dist})
    for (int p = 0; p < f.num_planes(); ++p)
      for (int y = 0; y < pic->height(p); ++y)
        for (int x = 0; x < pic->width(p); ++x) {
          const unsigned r = unsigned(rng());
          const unsigned w = r % 3 == 0 ? word_max : (r >> 8) & word_max;
          if (f.bitdepth == 8) pic->row<std::uint8_t>(p, y)[x] = std::uint8_t(w);
          else pic->row<std::uint16_t>(p, y)[x] = std::uint16_t(w);
        }
}

// A picture pair: a smooth reference (gradients, a few flat patches, extremes at the corners) and a distorted
// copy that differs by `noise` in each sample where it differs (kinds: 0 near colours, 1 some samples equal,
// 2 unrelated noise, 3 wild words in both).
void fill_pair(Picture& ref, Picture& dist, std::mt19937& rng, int kind) {
  if (kind == 3) return fill_wild(ref, dist, rng);
  const PictureFormat& f = ref.format();
  const unsigned top = (1u << f.bitdepth) - 1, unit = 1u << (f.bitdepth - 8);
  for (int p = 0; p < f.num_planes(); ++p)
    for (int y = 0; y < ref.height(p); ++y)
      for (int x = 0; x < ref.width(p); ++x) {
        const unsigned r = unsigned(rng());
        unsigned a = (unsigned(x * (7 + p) + y * (3 + 2 * p)) * unit + (r & (unit - 1))) & top;
        if ((x / 5 + y / 3) % 7 == 0) a = p == 0 ? 16 * unit : 128 * unit;  // flat, grey
        if ((x == 0 || y == 0) && r % 3 == 0) a = (r & 8) ? top : 0;       // extremes
        long b = long(a);
        if (kind == 2) b = long(rng() & top);
        else if (kind == 0 || r % 4 != 0) b += long(rng() % (2 * 3 * unit + 1)) - long(3 * unit);
        b = b < 0 ? 0 : b > long(top) ? long(top) : b;
        if (f.bitdepth == 8) {
          ref.row<std::uint8_t>(p, y)[x] = std::uint8_t(a);
          dist.row<std::uint8_t>(p, y)[x] = std::uint8_t(b);
        } else {
          ref.row<std::uint16_t>(p, y)[x] = std::uint16_t(a);
          dist.row<std::uint16_t>(p, y)[x] = std::uint16_t(b);
        }
      }
}

TEST(CiedeFrames, EveryBuildEqualsTheScalarReference) {
  using ciede::BatchKernels;
  std::vector<cpu_check::Level> builds{{"portable", 0u}};
  for (const cpu_check::Level& l : cpu_check::levels()) builds.push_back(l);
  const std::pair<int, int> sizes[] = {{2, 2}, {7, 4}, {33, 6}, {64, 17}, {129, 10}, {250, 8}};
  const ChromaFormat formats[] = {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444};
  int checked = 0;
  std::vector<std::string> seen;  // the builds checked (levels above x86-64-v4 run its build again)
  for (const cpu_check::Level& build : builds) {
    const BatchKernels kernels = ciede::batch_kernels_for(build.flags);
    if (std::find(seen.begin(), seen.end(), kernels.name) != seen.end()) continue;
    seen.push_back(kernels.name);
    ciede::LabCache cache;  // carried across frames, sizes and depths, as a worker thread's
    std::mt19937 rng(cpu_check::seed() + 13);
    for (int bpc : {8, 10, 12, 16})
      for (ChromaFormat chroma : formats)
        for (auto [w, h] : sizes) {
          PictureFormat f;
          f.width = w;
          f.height = h;
          f.bitdepth = bpc;
          f.chroma = chroma;
          ciede::ChromaMap map;
          try {
            map = ciede::accept(f);
          } catch (const Error&) {
            continue;  // a size whose chroma reads libvmaf leaves undefined (refused)
          }
          for (int kind = 0; kind < 4; ++kind) {
            Picture ref(f), dist(f);
            fill_pair(ref, dist, rng, kind);
            std::vector<float> fast(std::size_t(w) * std::size_t(h), -1.0f), scalar(fast.size(), -2.0f);
            const double a = ciede::difference_sum(kernels, cache, map, ref, dist, fast.data());
            const double b = ciede::reference_difference_sum(map, ref, dist, scalar.data());
            const std::string what = build.name + " (" + kernels.name + ") " +
                                     f.describe() + " kind " + std::to_string(kind) +
                                     " (CPU_CHECK_SEED=" + std::to_string(cpu_check::seed()) + ")";
            for (std::size_t i = 0; i < fast.size(); ++i)
              ASSERT_EQ(std::bit_cast<std::uint32_t>(fast[i]), std::bit_cast<std::uint32_t>(scalar[i]))
                  << what << ": pixel (" << i % std::size_t(w) << ", " << i / std::size_t(w) << ") " << fast[i]
                  << " != " << scalar[i];
            ASSERT_EQ(std::bit_cast<std::uint64_t>(a), std::bit_cast<std::uint64_t>(b)) << what << ": sum";
            ++checked;
          }
        }
    cpu_check::record("ciede", "frame (memo + batch)", build.name);
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace vqtwin
