// libFuzzer target: an option string for any extractor, then create + init + three frames + flush on
// a small picture of any format (4:2:0/4:2:2/4:4:4/4:0:0, 8/10/12/16 bits, sizes from 1x1, and
// sizes from float_ms_ssim's 176 px minimum). Input: [extractor][format][width][height]
// option-string NUL sample-bytes.
#include <algorithm>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/registry.hpp"
#include "fuzz_support.hpp"
#include "vqtwin/error.hpp"

namespace {

// Small sizes mostly (fast: about 1 ms a run); with the two top bits set, 176..191, the range of the
// multi-scale extractors (about 100 ms a run under the sanitizers, so kept to 1 run in 16).
int dimension(std::uint8_t b) { return (b & 0xC0) == 0xC0 ? 176 + (b & 15) : 1 + (b & 63); }

// Fills every plane from `bytes` (cycled), samples masked to the bit depth.
void fill(vqtwin::Picture& p, std::string_view bytes, std::size_t& at) {
  const vqtwin::PictureFormat& f = p.format();
  const unsigned mask = (1u << f.bitdepth) - 1;
  for (int k = 0; k < f.num_planes(); ++k)
    for (int y = 0; y < p.height(k); ++y)
      for (int x = 0; x < p.width(k); ++x) {
        unsigned v = bytes.empty() ? unsigned(x * 5 + y * 3) : static_cast<unsigned char>(bytes[at++ % bytes.size()]);
        if (f.bitdepth > 8) {
          v = v << 8 | (bytes.empty() ? unsigned(y) : static_cast<unsigned char>(bytes[at++ % bytes.size()]));
          p.row<std::uint16_t>(k, y)[x] = std::uint16_t(v & mask);
        } else {
          p.row<std::uint8_t>(k, y)[x] = std::uint8_t(v);
        }
      }
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
