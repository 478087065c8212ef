// integer_ssim (the fork's `ssim`), CPU reference (spec: integer_ssim.md).
#include <memory>
#include <string>

#include "common/cpu.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "core/format_checks.hpp"
#include "features/integer_ssim/moments.hpp"
#include "features/integer_ssim/schema.hpp"
#include "features/ssim_common/db.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace integer_ssim {
namespace {

class IntegerSsimCpu final : public Extractor {
 public:
  explicit IntegerSsimCpu(const OptionValues& o)
      : enable_db_(o.get_bool("enable_db")),
        clip_db_(o.get_bool("clip_db")),
        kernels_(score_kernels_for(cpu::flags())) {}

  void init(const PictureFormat& f) override {
    // Same refusal as the float SSIMs, although the integer algorithm itself would cope with any
    // depth 8..16: one rule for every SSIM (spec: DECISIONS.md §8).
    require_standard_bitdepth("integer_ssim", f.bitdepth);
    max_db_ = ssim_db::max_db(unsigned(f.bitdepth), unsigned(f.width), unsigned(f.height), clip_db_);
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const auto lease = workspaces_.take();  // frames run concurrently: one workspace each
    const double score = kernels_.score(*lease, ref, dist);
    out.put(kScoreName, index, enable_db_ ? ssim_db::to_db(score, max_db_) : score);
  }

 private:
  bool enable_db_, clip_db_;
  double max_db_ = 0;
  ScoreKernels kernels_;
  WorkspacePool<Workspace> workspaces_;
};

}  // namespace
}  // namespace integer_ssim

extern const ExtractorInfo kIntegerSsimInfo;
const ExtractorInfo kIntegerSsimInfo = cpu_extractor<integer_ssim::IntegerSsimCpu>(integer_ssim::kSpec);

}  // namespace vqtwin
