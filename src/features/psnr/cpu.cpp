// psnr, CPU reference (behaviour: ../shared/spec/psnr.md).
#include <memory>
#include <mutex>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/psnr/math.hpp"
#include "features/psnr/schema.hpp"
#include "features/psnr/sse.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace psnr {
namespace {

class PsnrCpu final : public Extractor {
 public:
  explicit PsnrCpu(const OptionValues& o)
      : enable_chroma_(o.get_bool("enable_chroma")),
        enable_mse_(o.get_bool("enable_mse")),
        enable_apsnr_(o.get_bool("enable_apsnr")),
        reduced_hbd_peak_(o.get_bool("reduced_hbd_peak")),
        min_sse_(o.get_double("min_sse")) {}

  void init(const PictureFormat& f) override {
    require_standard_bitdepth("psnr", f.bitdepth);
    if (f.chroma == ChromaFormat::k400) enable_chroma_ = false;
    setup_ = make_setup(f, reduced_hbd_peak_, min_sse_);
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const int n = enable_chroma_ ? 3 : 1;
    for (int p = 0; p < n; ++p) {
      const std::uint64_t sse = plane_sse(ref, dist, p);
      const std::uint64_t samples = std::uint64_t(ref.width(p)) * std::uint64_t(ref.height(p));
      const double mse = mse_of(sse, samples);
      out.put(kPsnrNames[p], index, psnr_of(mse, setup_.peak, setup_.psnr_max[p]));
      if (enable_mse_) out.put(kMseNames[p], index, mse);
      if (enable_apsnr_) {
        // Integer sums: the same totals whatever order the frames arrive in.
        std::lock_guard lock(mutex_);
        total_sse_[p] += sse;
        total_n_[p] += samples;
      }
    }
  }

  void flush(FeatureSink& out) override {
    if (!enable_apsnr_) return;
    for (int p = 0; p < 3; ++p) out.aggregate(kApsnrNames[p], apsnr_of(total_sse_[p], total_n_[p], setup_.peak));
  }

 private:
  bool enable_chroma_, enable_mse_, enable_apsnr_, reduced_hbd_peak_;
  double min_sse_;
  Setup setup_;
  std::mutex mutex_;
  std::uint64_t total_sse_[3] = {0, 0, 0};
  std::uint64_t total_n_[3] = {0, 0, 0};
};

constexpr std::string_view kProvided[] = {"psnr_y", "psnr_cb", "psnr_cr"};

}  // namespace
}  // namespace psnr

extern const ExtractorInfo kPsnrInfo;
const ExtractorInfo kPsnrInfo = {
    .name = "psnr",
    .other_names = {},
    .backend = Backend::kCpu,
    .options = psnr::kOptions,
    .provided = psnr::kProvided,
    .temporal = false,
    .libvmaf_temporal = true,  // VMAF_FEATURE_EXTRACTOR_TEMPORAL in libvmaf (integer_psnr.c): sets the output order
    .cpu_twin_of = {},
    .check_context = nullptr,
    .create = [](const OptionValues& o) -> std::unique_ptr<Extractor> {
      return std::make_unique<psnr::PsnrCpu>(o);
    },
};

}  // namespace vqtwin
