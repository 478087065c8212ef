// integer ADM row kernels, AVX2 (compiled per function with target("avx2"), chosen at run time).
#include "features/integer_adm/rows.hpp"

namespace vqtwin::integer_adm {

const RowKernels* avx2_kernels() { return nullptr; }

}  // namespace vqtwin::integer_adm
