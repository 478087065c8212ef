// integer VIF's kernel sets (features/integer_vif/kernels.hpp) against the reference set: whole
// frames (every entry together, odd sizes for the row tails, every depth, contents that reach both
// branches of the statistic), the downsampled planes sample for sample, and the statistic on
// extreme sigmas.
#include <random>
#include <string>
#include <vector>

#include "../support/integer_vif_planes.hpp"
#include "features/integer_vif/kernels.hpp"
#include "features/integer_vif/log_table.hpp"
#include "features/integer_vif/pipeline.hpp"
#include "variants.hpp"

namespace vqtwin::integer_vif {
namespace {

using cpu_check::for_each_table;
using cpu_check::for_each_variant;
using cpu_check::seed;

std::string show(const Accum& a) {
  return "{num_log " + std::to_string(a.num_log) + ", den_log " + std::to_string(a.den_log) + ", lin_sigma2 " +
         std::to_string(a.lin_sigma2) + ", lin_count " + std::to_string(a.lin_count) + "}";
}

TEST(IntegerVif, WholeFramesEqualTheReference) {
  log2_table();
  for_each_table(&kernels_for, "integer_vif", [](const KernelSet& ref, const KernelSet& var, const std::string&) {
    Workspace wr, wv;
    const std::pair<int, int> sizes[] = {{16, 16}, {17, 19}, {61, 17}, {66, 44}, {129, 95},
                                         {333, 187}, {256, 64}, {31, 200}, {1030, 40}};
    const Pattern patterns[] = {Pattern::kNoisyCopy, Pattern::kRandom, Pattern::kCheckerMax, Pattern::kMaxVsZero,
                                Pattern::kGradient, Pattern::kFlatPlusOne};
    int n = 0;
    for (int bpc : {8, 10, 12, 16})
      for (auto [w, h] : sizes) {
        for (int k = 0; k < 2; ++k) {
          const Pattern pat = patterns[(n++ + k * 3) % std::size(patterns)];
          const Pair p = make_pair(w, h, bpc, pat, seed() * 7919u + unsigned(w * 131 + h + bpc));
          for (double egl : {100.0, 1.0, 1.5}) {
            const FrameSetup s{w, h, bpc, egl, egl == 1.5};
            const auto want = frame_sums(ref, s, p.ref(), p.dist(), wr);
            const auto got = frame_sums(var, s, p.ref(), p.dist(), wv);
            for (int sc = 0; sc < 4; ++sc)
              ASSERT_TRUE(got[sc] == want[sc]) << w << "x" << h << " " << bpc << "-bit pattern " << int(pat)
                                               << " egl " << egl << " scale " << sc << ": " << show(got[sc])
                                               << " != " << show(want[sc]);
          }
        }
      }
  });
}

// One downsampling step, sample for sample (8-bit planes at scale 0 only, as in a frame).
template <class T, class Entry>
void check_downsample(Entry KernelSet::*entry, const char* name) {
  for_each_variant(&kernels_for, entry, "integer_vif", name, [&](const KernelSet& ref, const KernelSet& var,
                                                                  const std::string&) {
    std::mt19937 rng(seed());
    Scratch sr, sv;
    for (int bpc : sizeof(T) == 1 ? std::vector<int>{8} : std::vector<int>{10, 12, 16})
      for (int from : sizeof(T) == 1 ? std::vector<int>{0} : std::vector<int>{0, 1, 2})
        for (auto [w, h] : {std::pair{16, 16}, {33, 17}, {97, 41}, {300, 21}}) {
          const int in_bpc = from == 0 ? bpc : 16;  // later scales hold 16-bit means
          const std::ptrdiff_t stride = w + 5;
          std::vector<T> x(std::size_t(stride) * h);
          std::uniform_int_distribution<std::uint32_t> any(0, (1u << in_bpc) - 1);
          for (auto& v : x) v = T(rng() % 3 == 0 ? (1u << in_bpc) - 1 : any(rng));
          std::vector<std::uint16_t> a(std::size_t(w / 2) * (h / 2)), b(a.size());
          (ref.*entry)(x.data(), stride, w, h, bpc, from, a.data(), sr);
          (var.*entry)(x.data(), stride, w, h, bpc, from, b.data(), sv);
          ASSERT_EQ(a, b) << w << "x" << h << " " << bpc << "-bit from scale " << from;
        }
  });
}

TEST(IntegerVif, DownsampleU8EqualsTheReference) {
  check_downsample<std::uint8_t>(&KernelSet::downsample_u8, "downsample_u8");
}
TEST(IntegerVif, DownsampleU16EqualsTheReference) {
  check_downsample<std::uint16_t>(&KernelSet::downsample_u16, "downsample_u16");
}

TEST(IntegerVif, StatisticEqualsTheReferenceOnExtremeSigmas) {
  std::mt19937 rng(seed() + 6);
  const std::int32_t special[] = {0,      1,          -1,         131071,     131072,     131073,
                                  262143, 262144,     1 << 20,    (1 << 30),  1073741823, -1073741824,
                                  65536,  1000000007, -131072,    2147352575, 12345678,   -5};
  std::vector<std::int32_t> s1, s2, s12;
  std::uniform_int_distribution<int> pick(0, int(std::size(special)) - 1);
  std::uniform_int_distribution<std::int32_t> any(-(1 << 30), (1 << 30));
  std::uniform_int_distribution<std::int32_t> small(-300000, 3000000);
  for (int i = 0; i < 20000; ++i) {
    const int mode = i % 3;
    auto draw = [&] { return mode == 0 ? special[pick(rng)] : mode == 1 ? any(rng) : small(rng); };
    s1.push_back(draw());
    s2.push_back(draw());
    s12.push_back(draw());
  }
  // Identical-frame pixels: sigma12 = sigma1 = sigma2, where p truncates just below the integer.
  for (std::int32_t v = 131072; v < 131072 + 5000; ++v) {
    s1.push_back(v);
    s2.push_back(v);
    s12.push_back(v);
  }
  for_each_variant(&kernels_for, &KernelSet::statistic, "integer_vif", "statistic",
                   [&](const KernelSet& ref, const KernelSet& var, const std::string&) {
                     for (double egl : {100.0, 1.0, 1.5, 7.25})
                       for (int n : {int(s1.size()), 1, 7, 8, 9, 15, 16, 17, 31, 33}) {
                         Accum a, b;
                         ref.statistic(s1.data(), s2.data(), s12.data(), n, egl, log2_table(), a);
                         var.statistic(s1.data(), s2.data(), s12.data(), n, egl, log2_table(), b);
                         ASSERT_TRUE(a == b) << "n " << n << " egl " << egl << ": " << show(b) << " != " << show(a);
                       }
                   });
}

}  // namespace
}  // namespace vqtwin::integer_vif
