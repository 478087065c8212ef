// integer VIF (`vif`), CPU reference (behaviour: ../shared/spec/integer_vif.md). The front
// (front.hpp) owns options, names and the arithmetic on the sums; this file is the CPU's sums.
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/integer_vif/front.hpp"
#include "features/integer_vif/kernels.hpp"
#include "features/integer_vif/log_table.hpp"
#include "features/integer_vif/pipeline.hpp"
#include "features/integer_vif/schema.hpp"

namespace vqtwin {
namespace integer_vif {
namespace {

class VifCpu final : public Extractor {
 public:
  explicit VifCpu(const OptionValues& o) : front_(o), kernels_(best_kernels()) {}

  void init(const PictureFormat& f) override {
    front_.init(f);
    log2_table();  // build the table before frames run concurrently
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    front_.emit(frame_sums(kernels_, front_.setup(), {ref.data(0), ref.stride(0)}, {dist.data(0), dist.stride(0)}),
                index, out);
  }

 private:
  Front front_;
  const KernelSet& kernels_;
};

}  // namespace
}  // namespace integer_vif

extern const ExtractorInfo kIntegerVifInfo;
const ExtractorInfo kIntegerVifInfo = cpu_extractor<integer_vif::VifCpu>(integer_vif::kSpec);

}  // namespace vqtwin
