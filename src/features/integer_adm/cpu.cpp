// integer ADM (`adm`), CPU reference (behaviour: shared/spec/integer_adm.md). The front (front.hpp)
// owns options, names, geometry and the float tails; this file is the CPU's exact sums.
#include <memory>
#include <mutex>
#include <vector>

#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/integer_adm/front.hpp"
#include "features/integer_adm/pipeline.hpp"
#include "features/integer_adm/schema.hpp"

namespace vqtwin {
namespace integer_adm {
namespace {

class AdmCpu final : public Extractor {
 public:
  explicit AdmCpu(const OptionValues& o) : front_(o) {}

  void init(const PictureFormat& f) override { front_.init(f); }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    auto ws = take_workspace();
    const FrameSums sums = front_.computer().compute_sums(ref, dist, *ws, best_kernels());
    give_back(std::move(ws));
    front_.emit(sums, index, out);
  }

 private:
  using WorkspacePtr = std::unique_ptr<Workspace, void (*)(Workspace*)>;

  // Frames run concurrently: each call borrows a workspace (reused, never shared).
  WorkspacePtr take_workspace() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        WorkspacePtr ws = std::move(free_.back());
        free_.pop_back();
        return ws;
      }
    }
    return front_.computer().make_workspace();
  }
  void give_back(WorkspacePtr ws) {
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(ws));
  }

  Front front_;
  std::mutex mutex_;
  std::vector<WorkspacePtr> free_;
};

}  // namespace
}  // namespace integer_adm

extern const ExtractorInfo kIntegerAdmInfo;
const ExtractorInfo kIntegerAdmInfo = cpu_extractor<integer_adm::AdmCpu>(integer_adm::kSpec);

}  // namespace vqtwin
