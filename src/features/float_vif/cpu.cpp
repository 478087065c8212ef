// float_vif, CPU reference (spec: float_vif.md). The front (front.hpp) owns options, kernels, names,
// refusals and the scores; this file is the CPU's per-scale sums.
#include <array>

#include "common/cpu.hpp"
#include "common/luma_float.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/float_vif/front.hpp"
#include "features/float_vif/prescale.hpp"
#include "features/float_vif/scale.hpp"
#include "features/float_vif/schema.hpp"

namespace vqtwin {
namespace float_vif {
namespace {

// Planes and row buffers of one extract() call, borrowed from the context's pool so that
// concurrent frames never share them and they are not reallocated frame after frame.
struct Workspace {
  FloatPlane ref_in, dis_in;          // converted samples
  FloatPlane ref_scaled, dis_scaled;  // after vif_prescale (when it changes the size)
  FloatPlane ref[2], dis[2];          // scales 1..3, alternating between the two
  ScaleScratch scratch;
};

class FloatVifCpu final : public Extractor {
 public:
  explicit FloatVifCpu(const OptionValues& o) : front_(o), rows_(scale_kernels_for(cpu::flags())) {}

  void init(const PictureFormat& f) override { front_.init(f); }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const auto lease = workspaces_.take();
    Workspace& ws = *lease;
    ws.ref_in.resize(front_.width(), front_.height());
    ws.dis_in.resize(front_.width(), front_.height());
    luma_to_float(ref, 128.0f, ws.ref_in.px.data());
    luma_to_float(dist, 128.0f, ws.dis_in.px.data());
    const FloatPlane* r = &ws.ref_in;
    const FloatPlane* d = &ws.dis_in;
    if (front_.resizes()) {
      prescale(ws.ref_in, front_.method(), front_.scaled_width(), front_.scaled_height(), ws.ref_scaled);
      prescale(ws.dis_in, front_.method(), front_.scaled_width(), front_.scaled_height(), ws.dis_scaled);
      r = &ws.ref_scaled;
      d = &ws.dis_scaled;
    }

    std::array<ScaleSums, kScales> sums{};
    int next = 0;
    for (int s = front_.skip_scale0() ? 1 : 0; s < kScales; ++s) {
      const std::span<const float> k = front_.kernel(s);
      if (s > 0) {
        // The new scale's kernel serves as anti-alias filter on the previous scale's plane.
        blur_decimate(rows_, *r, k, ws.ref[next], ws.scratch);
        blur_decimate(rows_, *d, k, ws.dis[next], ws.scratch);
        r = &ws.ref[next];
        d = &ws.dis[next];
        next ^= 1;
      }
      sums[std::size_t(s)] = scale_sums(rows_, *r, *d, k, front_.params(), ws.scratch);
    }
    front_.emit(sums, index, out);
  }

 private:
  Front front_;
  const ScaleKernels rows_;  // chosen when the context is created (common/cpu.hpp)
  WorkspacePool<Workspace> workspaces_;
};

}  // namespace
}  // namespace float_vif

extern const ExtractorInfo kFloatVifInfo;
const ExtractorInfo kFloatVifInfo = cpu_extractor<float_vif::FloatVifCpu>(float_vif::kSpec);

}  // namespace vqtwin
