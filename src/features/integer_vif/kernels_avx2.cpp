// integer VIF row kernels, AVX2 (placeholder).
#include "features/integer_vif/kernels.hpp"

namespace vqtwin::integer_vif {

const RowKernels* avx2_kernels() { return nullptr; }

const RowKernels& best_kernels() {
  static const RowKernels* const best = avx2_kernels();
  return best ? *best : scalar_kernels();
}

}  // namespace vqtwin::integer_vif
