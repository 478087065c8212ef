// float_ms_ssim, CPU reference (spec: float_ms_ssim.md). The front (front.hpp) owns options, level
// sizes, refusals and the score; this file is the CPU's pyramid and per-level means.
#include <memory>

#include "common/cpu.hpp"
#include "common/luma_float.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/float_ms_ssim/front.hpp"
#include "features/float_ms_ssim/pyramid.hpp"
#include "features/float_ms_ssim/schema.hpp"
#include "features/float_ssim/ssim_core.hpp"

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
      : front_(o), pyramid_(pyramid_kernels_for(cpu::flags())), ssim_(float_ssim::ssim_kernels_for(cpu::flags())) {}

  void init(const PictureFormat& f) override { front_.init(f); }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const auto lease = workspaces_.take();
    Workspace& ws = *lease;
    const std::size_t size = front_.pyramid_size();
    if (ws.capacity < 2 * size) {
      ws.planes = std::make_unique_for_overwrite<float[]>(2 * size);  // all written before use
      ws.capacity = 2 * size;
    }
    float* r = ws.planes.get();
    float* d = r + size;
    luma_to_float(ref, 0.0f, r);
    luma_to_float(dist, 0.0f, d);
    for (int k = 1; k < kLevels; ++k) {
      pyramid_.lpf_decimate(ws.pyramid, r + front_.offset(k - 1), front_.w(k - 1), front_.h(k - 1), r + front_.offset(k));
      pyramid_.lpf_decimate(ws.pyramid, d + front_.offset(k - 1), front_.w(k - 1), front_.h(k - 1), d + front_.offset(k));
    }
    float l[kLevels], c[kLevels], s[kLevels];
    for (int k = 0; k < kLevels; ++k) {
      const float_ssim::Means m = ssim_.means(ws.ssim, r + front_.offset(k), d + front_.offset(k), front_.w(k), front_.h(k));
      l[k] = m.l;
      c[k] = m.c;
      s[k] = m.s;
    }
    front_.emit(l, c, s, index, out);
  }

 private:
  Front front_;
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
