// float_ssim, CPU reference (spec: float_ssim.md).
#include <memory>
#include <string>

#include "common/cpu.hpp"
#include "common/luma_float.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "core/format_checks.hpp"
#include "features/float_ssim/decimate.hpp"
#include "features/float_ssim/math.hpp"
#include "features/float_ssim/schema.hpp"
#include "features/float_ssim/ssim_core.hpp"
#include "features/ssim_common/db.hpp"
#include "vqtwin/error.hpp"

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
  explicit FloatSsimCpu(const OptionValues& o)
      : enable_lcs_(o.get_bool("enable_lcs")),
        enable_db_(o.get_bool("enable_db")),
        clip_db_(o.get_bool("clip_db")),
        scale_option_(o.get_int("scale")),
        ssim_(ssim_kernels_for(cpu::flags())) {}

  void init(const PictureFormat& f) override {
    require_standard_bitdepth("float_ssim", f.bitdepth);
    width_ = f.width;
    height_ = f.height;
    scale_ = scale_option_ > 0 ? scale_option_ : auto_scale(width_, height_);
    if (scale_ > kMaxScale)
      throw Error("float_ssim: scale " + std::to_string(scale_) + " is above the supported " +
                  std::to_string(kMaxScale));
    map_w_ = scale_ > 1 ? decimated_size(width_, scale_) : width_;
    map_h_ = scale_ > 1 ? decimated_size(height_, scale_) : height_;
    // libvmaf does not guard this: the map would be empty and the means NaN (spec: DECISIONS.md §8).
    if (map_w_ < kWindow || map_h_ < kWindow)
      throw Error("float_ssim: " + std::to_string(width_) + "x" + std::to_string(height_) +
                  " at scale " + std::to_string(scale_) + " gives a " + std::to_string(map_w_) + "x" +
                  std::to_string(map_h_) + " plane, smaller than the 11x11 SSIM window");
    max_db_ = ssim_db::max_db(unsigned(f.bitdepth), unsigned(width_), unsigned(height_), clip_db_);
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const auto lease = workspaces_.take();
    Workspace& ws = *lease;
    const std::size_t full = std::size_t(width_) * std::size_t(height_);
    const std::size_t small = std::size_t(map_w_) * std::size_t(map_h_);
    const std::size_t need = scale_ > 1 ? 2 * full + 2 * small : 2 * full;
    if (ws.capacity < need) {
      ws.planes = std::make_unique_for_overwrite<float[]>(need);  // every sample is written before use
      ws.capacity = need;
    }
    float* r = ws.planes.get();
    float* d = r + full;
    luma_to_float(ref, 0.0f, r);  // the 8-bit range (spec: float_ssim.md §2)
    luma_to_float(dist, 0.0f, d);
    if (scale_ > 1) {
      float* rs = d + full;
      float* ds = rs + small;
      box_decimate(r, width_, height_, scale_, rs);
      box_decimate(d, width_, height_, scale_, ds);
      r = rs;
      d = ds;
    }
    const Means m = ssim_.means(ws.ssim, r, d, map_w_, map_h_);
    const double score = double(m.lcs);
    out.put(kScoreName, index, enable_db_ ? ssim_db::to_db(score, max_db_) : score);
    if (enable_lcs_) {
      out.put(kLName, index, double(m.l));
      out.put(kCName, index, double(m.c));
      out.put(kSName, index, double(m.s));
    }
  }

 private:
  bool enable_lcs_, enable_db_, clip_db_;
  int scale_option_;
  int width_ = 0, height_ = 0, scale_ = 1, map_w_ = 0, map_h_ = 0;
  double max_db_ = 0;
  SsimKernels ssim_;
  WorkspacePool<Workspace> workspaces_;
};

}  // namespace
}  // namespace float_ssim

extern const ExtractorInfo kFloatSsimInfo;
const ExtractorInfo kFloatSsimInfo = cpu_extractor<float_ssim::FloatSsimCpu>(float_ssim::kSpec);

}  // namespace vqtwin
