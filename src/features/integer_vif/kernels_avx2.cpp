// integer VIF row kernels, AVX2 (placeholder).
#include "features/integer_vif/kernels.hpp"

namespace vqtwin::integer_vif {

const KernelSet* avx2_kernels() { return nullptr; }

const KernelSet& best_kernels() {
  static const KernelSet* const best = avx2_kernels();
  return best ? *best : scalar_kernels();
}

}  // namespace vqtwin::integer_vif
