// float_adm, CPU reference (spec: float_adm.md). The front (front.hpp) owns options, CSF factors,
// names, refusals and the combination; this file is the CPU's DWT and per-scale values.
#include <vector>

#include "common/luma_float.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/float_adm/cpu.hpp"
#include "features/float_adm/dwt.hpp"
#include "features/float_adm/front.hpp"
#include "features/float_adm/scale.hpp"
#include "features/float_adm/schema.hpp"

namespace vqtwin {
namespace float_adm {

FrameScores cpu_frame_scores(const Front& front, const Picture& ref, const Picture& dist, CpuWorkspace& ws) {
  const std::size_t n = std::size_t(front.width()) * std::size_t(front.height());
  ws.ref_in.resize(n);
  ws.dis_in.resize(n);
  luma_to_float(ref, 128.0f, ws.ref_in.data());
  luma_to_float(dist, 128.0f, ws.dis_in.data());

  FrameScores sc;
  const float* ref_src = ws.ref_in.data();
  const float* dis_src = ws.dis_in.data();
  int w = front.width(), h = front.height();
  for (int s = 0; s < kScales; ++s) {
    Subbands& rb = ws.ref[s & 1];
    Subbands& db = ws.dis[s & 1];
    const bool skipped = s == 0 && front.skip_scale0();
    dwt2(ref_src, w, h, rb, skipped, ws.scratch);
    dwt2(dis_src, w, h, db, skipped, ws.scratch);
    w = rb.a.w;
    h = rb.a.h;
    if (skipped) {
      sc.den[s] = 1e-10f;  // libvmaf's guard against 0/0 in adm_scale0
    } else {
      const ScaleValues v = scale_values(rb, db, front.factors(s), front.settings(), ws.scale);
      sc.num[s] = v.num;
      sc.den[s] = v.den;
      sc.aim[s] = v.aim;
    }
    ref_src = rb.a.px.data();
    dis_src = db.a.px.data();
  }
  sc.last_w = w;
  sc.last_h = h;
  return sc;
}

namespace {

class FloatAdmCpu final : public Extractor {
 public:
  FloatAdmCpu(const OptionValues& o, const RunSettings& run) : front_(o, run) {}

  void init(const PictureFormat& f) override { front_.init(f); }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const auto lease = workspaces_.take();
    front_.emit(cpu_frame_scores(front_, ref, dist, *lease), index, out);
  }

 private:
  Front front_;
  WorkspacePool<CpuWorkspace> workspaces_;
};

}  // namespace
}  // namespace float_adm

extern const ExtractorInfo kFloatAdmInfo;
const ExtractorInfo kFloatAdmInfo = cpu_extractor<float_adm::FloatAdmCpu>(float_adm::kSpec);

}  // namespace vqtwin
