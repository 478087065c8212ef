// psnr_vulkan: the psnr front (parameters, names, dB/MSE/APSNR math, on the host) on the Vulkan
// device's exact per-plane SSE (backends/vulkan/sse.hpp). Same spec as the CPU extractor.
#include <cerrno>
#include <cstdint>

#include "backends/vulkan/sse.hpp"
#include "core/implementation.hpp"
#include "features/psnr/front.hpp"
#include "features/psnr/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace psnr {
namespace {

class PsnrVulkan final : public vulkan::StagedTwin<std::uint64_t> {
 public:
  explicit PsnrVulkan(const OptionValues& o) : front_(o), chroma_(o.get_bool("enable_chroma")) {}
  void flush(FeatureSink& out) override { front_.flush(out); }
  unsigned planes_read() const override { return chroma_ ? kAllPlanes : 1u; }

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<std::uint64_t>& plan) override {
    front_.init(f);
    format_ = f;
    plan.results(3 * vulkan::kSseGroups, /*zeroed=*/true);  // each plane's per-workgroup partial sums
  }

  void record(const vulkan::Frame<std::uint64_t>& frame) override {
    // The planted bug: the chroma regions one column short (the harness must catch this).
    const int short_by = vulkan::plant("psnr_vulkan_chroma_sse") ? 1 : 0;
    for (int p = 0; p < front_.planes(); ++p)
      // The scored region (libvmaf's floor-sized chroma), the top-left of the stored plane.
      vulkan::record_plane_sse(frame, format_, p, format_.scored_width(p) - (p ? short_by : 0),
                               format_.scored_height(p), std::uint32_t(p) * vulkan::kSseGroups);
  }

  void reduce(std::span<const std::uint64_t> partials, unsigned index, FeatureSink& out) override {
    std::uint64_t sse[3] = {0, 0, 0};
    for (int p = 0; p < 3; ++p)
      for (unsigned g = 0; g < vulkan::kSseGroups; ++g) sse[p] += partials[std::size_t(p) * vulkan::kSseGroups + g];
    front_.emit(sse, index, out);
  }

  Front front_;
  bool chroma_ = true;
  PictureFormat format_{};
};

int check(const OptionValues&, const PictureFormat& f) {
  try {
    return vulkan::plane_sse_check(vulkan::device(vulkan::current_device()).features(), f);
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace
}  // namespace psnr

extern const ExtractorInfo kPsnrVulkanInfo;
const ExtractorInfo kPsnrVulkanInfo =
    twin_extractor<psnr::PsnrVulkan>(psnr::kSpec, Backend::kVulkan, "psnr_vulkan", &psnr::check);

}  // namespace vqtwin
