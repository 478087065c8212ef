// float_ms_ssim, CPU reference (spec: float_ms_ssim.md).
#include <memory>
#include <string>

#include "common/cpu.hpp"
#include "common/luma_float.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "core/format_checks.hpp"
#include "features/float_ms_ssim/math.hpp"
#include "features/float_ms_ssim/pyramid.hpp"
#include "features/float_ms_ssim/schema.hpp"
#include "features/float_ssim/ssim_core.hpp"
#include "features/ssim_common/db.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_ms_ssim {
namespace {

// The memory of one frame in flight: both pyramids (ref levels 0..4, then dist levels) and the
// kernels' scratch, grown to the first frame's size and then reused.
struct Workspace {
  std::unique_ptr<float[]> planes;
  std::size_t capacity = 0;
  Scratch pyramid;
  float_ssim::Scratch ssim;
};

class FloatMsSsimCpu final : public Extractor {
 public:
  explicit FloatMsSsimCpu(const OptionValues& o)
      : enable_lcs_(o.get_bool("enable_lcs")),
        enable_db_(o.get_bool("enable_db")),
        clip_db_(o.get_bool("clip_db")),
        pyramid_(pyramid_kernels_for(cpu::flags())),
        ssim_(float_ssim::ssim_kernels_for(cpu::flags())) {}

  void init(const PictureFormat& f) override {
    require_standard_bitdepth("float_ms_ssim", f.bitdepth);
    // libvmaf fails every frame of such a video (spec: DECISIONS.md §13); say so once, up front.
    if (!size_supported(f.width, f.height))
      throw Error("float_ms_ssim: " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                  " is too small; its 5-level pyramid needs at least 176 pixels in each dimension");
    int w = f.width, h = f.height;
    std::size_t offset = 0;
    for (int k = 0; k < kLevels; ++k) {
      w_[k] = w;
      h_[k] = h;
      offset_[k] = offset;
      offset += std::size_t(w) * std::size_t(h);
      w = half_size(w);
      h = half_size(h);
    }
    pyramid_size_ = offset;
    max_db_ = ssim_db::max_db(unsigned(f.bitdepth), unsigned(f.width), unsigned(f.height), clip_db_);
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const auto lease = workspaces_.take();
    Workspace& ws = *lease;
    if (ws.capacity < 2 * pyramid_size_) {
      ws.planes = std::make_unique_for_overwrite<float[]>(2 * pyramid_size_);  // all written before use
      ws.capacity = 2 * pyramid_size_;
    }
    float* r = ws.planes.get();
    float* d = r + pyramid_size_;
    luma_to_float(ref, 0.0f, r);
    luma_to_float(dist, 0.0f, d);
    for (int k = 1; k < kLevels; ++k) {
      pyramid_.lpf_decimate(ws.pyramid, r + offset_[k - 1], w_[k - 1], h_[k - 1], r + offset_[k]);
      pyramid_.lpf_decimate(ws.pyramid, d + offset_[k - 1], w_[k - 1], h_[k - 1], d + offset_[k]);
    }
    float l[kLevels], c[kLevels], s[kLevels];
    for (int k = 0; k < kLevels; ++k) {
      const float_ssim::Means m = ssim_.means(ws.ssim, r + offset_[k], d + offset_[k], w_[k], h_[k]);
      l[k] = m.l;
      c[k] = m.c;
      s[k] = m.s;
    }
    const double score = combine(l, c, s);
    out.put(kScoreName, index, enable_db_ ? ssim_db::to_db(score, max_db_) : score);
    if (enable_lcs_) {
      for (int k = 0; k < kLevels; ++k) out.put(kLNames[k], index, double(l[k]));
      for (int k = 0; k < kLevels; ++k) out.put(kCNames[k], index, double(c[k]));
      for (int k = 0; k < kLevels; ++k) out.put(kSNames[k], index, double(s[k]));
    }
  }

 private:
  bool enable_lcs_, enable_db_, clip_db_;
  int w_[kLevels] = {}, h_[kLevels] = {};
  std::size_t offset_[kLevels] = {};
  std::size_t pyramid_size_ = 0;
  double max_db_ = 0;
  // Chosen when the context is created (common/cpu.hpp).
  const PyramidKernels pyramid_;
  const float_ssim::SsimKernels ssim_;
  WorkspacePool<Workspace> workspaces_;
};

}  // namespace
}  // namespace float_ms_ssim

extern const ExtractorInfo kFloatMsSsimInfo;
const ExtractorInfo kFloatMsSsimInfo = cpu_extractor<float_ms_ssim::FloatMsSsimCpu>(float_ms_ssim::kSpec);

}  // namespace vqtwin
