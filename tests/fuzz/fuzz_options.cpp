// libFuzzer target: an option string for any extractor, then create + init + three frames + flush on
// a small picture of any format (4:2:0/4:2:2/4:4:4/4:0:0, 8/10/12/16 bits, sizes from 1x1, and
// sizes from float_ms_ssim's 176 px minimum). Input: [extractor][format][width][height]
// option-string NUL sample-bytes.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/registry.hpp"
#include "fuzz_support.hpp"
#include "vqtwin/error.hpp"

namespace {

// Small sizes mostly (fast: tens of microseconds a run); with the top four bits set, 176..191, the
// range of the multi-scale extractors and of speed's 80-pixel minimum (milliseconds a run under the
// sanitizers, so kept to 1 byte value in 16; both sides large: 1 in 256 of random bytes, and kept in
// the corpus by the coverage they reach).
int dimension(std::uint8_t b) { return (b & 0xF0) == 0xF0 ? 176 + (b & 15) : 1 + (b & 63); }

// Fills every plane from `bytes` (cycled from `at`; one byte a sample, two above 8 bits, high byte
// first), samples masked to the bit depth; with no bytes, a fixed ramp. Row by row with a running
// index (no division a sample): filling was a quarter of the target's time. Not instrumented for
// coverage (it is the harness, not code under test).
__attribute__((no_sanitize("coverage"))) void fill(vqtwin::Picture& p, std::string_view bytes, std::size_t& at) {
  const vqtwin::PictureFormat& f = p.format();
  const unsigned mask = (1u << f.bitdepth) - 1;
  const std::size_t n = bytes.size();
  const auto* src = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t i = n ? at % n : 0;
  const auto next = [&]() -> unsigned {
    const unsigned v = src[i];
    if (++i == n) i = 0;
    return v;
  };
  for (int k = 0; k < f.num_planes(); ++k)
    for (int y = 0; y < p.height(k); ++y) {
      const int w = p.width(k);
      if (f.bitdepth > 8) {
        std::uint16_t* row = p.row<std::uint16_t>(k, y);
        if (n == 0)
          for (int x = 0; x < w; ++x) row[x] = std::uint16_t(((unsigned(x * 5 + y * 3) & 255) << 8 | unsigned(y)) & mask);
        else
          for (int x = 0; x < w; ++x) {
            const unsigned hi = next();
            row[x] = std::uint16_t((hi << 8 | next()) & mask);
          }
      } else {
        std::uint8_t* row = p.row<std::uint8_t>(k, y);
        if (n == 0)
          for (int x = 0; x < w; ++x) row[x] = std::uint8_t(x * 5 + y * 3);
        else
          for (int x = 0; x < w;) {  // runs of the cycled bytes
            const int run = int(std::min<std::size_t>(std::size_t(w - x), n - i));
            std::memcpy(row + x, src + i, std::size_t(run));
            x += run;
            i += std::size_t(run);
            if (i == n) i = 0;
          }
      }
    }
  at = i;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace vqtwin;
  fuzz::Bytes in(data, size);
  // The CPU extractors (twins need a device pipeline, and share the CPU extractor's options).
  static const std::vector<const ExtractorInfo*> extractors = [] {
    std::vector<const ExtractorInfo*> cpu;
    for (const ExtractorInfo* e : all_extractors())
      if (e->backend == Backend::kCpu && e->make) cpu.push_back(e);
    return cpu;
  }();
  const ExtractorInfo& info = *extractors[in.u8() % extractors.size()];
  const std::uint8_t fmt = in.u8();
  static const ChromaFormat kChroma[] = {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::k400};
  static const int kDepths[] = {8, 10, 12, 16};
  const PictureFormat format{dimension(in.u8()), dimension(in.u8()), kDepths[(fmt >> 2) & 3], kChroma[fmt & 3]};
  const std::string_view options = in.until_nul();
  const std::string_view samples = in.rest();
  try {
    const OptionValues values(info.spec->options, split_option_string(options, info.name), info.name);
    (void)values.output_name("x");
    auto extractor = info.create(values);
    extractor->init(format);
    Picture ref(format), dist(format);
    std::size_t at = 0;
    fuzz::NullSink sink;
    for (unsigned i = 0; i < 3; ++i) {
      fill(ref, samples, at);
      fill(dist, samples, at);
      extractor->extract(ref, dist, i, sink);
    }
    extractor->flush(sink);
  } catch (const Error&) {
  }
  return 0;
}
