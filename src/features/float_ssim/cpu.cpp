// float_ssim, CPU reference (spec: float_ssim.md): the front (front.hpp) on the CPU's SSIM map.
#include <memory>

#include "common/cpu.hpp"
#include "common/luma_float.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/float_ssim/decimate.hpp"
#include "features/float_ssim/front.hpp"
#include "features/float_ssim/schema.hpp"
#include "features/float_ssim/ssim_core.hpp"

namespace vqtwin {
namespace float_ssim {
namespace {

// The memory of one frame in flight: the luma planes (and their decimated copies), grown to the
// first frame's size and then reused, and the SSIM kernel's scratch.
struct Workspace {
  std::unique_ptr<float[]> planes;
  std::size_t capacity = 0;
  Scratch ssim;
};

class FloatSsimCpu final : public Extractor {
 public:
  explicit FloatSsimCpu(const OptionValues& o) : front_(o), ssim_(ssim_kernels_for(cpu::flags())) {}

  void init(const PictureFormat& f) override {
    front_.init(f);
    width_ = f.width;
    height_ = f.height;
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const Geometry& g = front_.geometry();
    const auto lease = workspaces_.take();
    Workspace& ws = *lease;
    const std::size_t full = std::size_t(width_) * std::size_t(height_);
    const std::size_t small = std::size_t(g.plane_w) * std::size_t(g.plane_h);
    const std::size_t need = g.scale > 1 ? 2 * full + 2 * small : 2 * full;
    if (ws.capacity < need) {
      ws.planes = std::make_unique_for_overwrite<float[]>(need);  // every sample is written before use
      ws.capacity = need;
    }
    float* r = ws.planes.get();
    float* d = r + full;
    luma_to_float(ref, 0.0f, r);  // the 8-bit range (spec: float_ssim.md §2)
    luma_to_float(dist, 0.0f, d);
    if (g.scale > 1) {
      float* rs = d + full;
      float* ds = rs + small;
      box_decimate(r, width_, height_, g.scale, rs);
      box_decimate(d, width_, height_, g.scale, ds);
      r = rs;
      d = ds;
    }
    front_.emit(ssim_.means(ws.ssim, r, d, g.plane_w, g.plane_h), index, out);
  }

 private:
  Front front_;
  int width_ = 0, height_ = 0;
  SsimKernels ssim_;
  WorkspacePool<Workspace> workspaces_;
};

}  // namespace
}  // namespace float_ssim

extern const ExtractorInfo kFloatSsimInfo;
const ExtractorInfo kFloatSsimInfo = cpu_extractor<float_ssim::FloatSsimCpu>(float_ssim::kSpec);

}  // namespace vqtwin
