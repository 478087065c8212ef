// Fuzz builds with a compiler that cannot build integer_adm/rows_avx2.cpp (clang ignores its
// `#pragma GCC target`) use this instead: no SIMD row kernels, so integer ADM runs its scalar
// reference. Chosen by src/CMakeLists.txt only in that case.
#include "features/integer_adm/rows.hpp"

namespace vqtwin::integer_adm {

const RowKernels* avx2_kernels() { return nullptr; }
const RowKernels* avx512_kernels() { return nullptr; }

}  // namespace vqtwin::integer_adm
