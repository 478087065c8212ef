#pragma once
// What integer ADM's two x86 row-kernel sets share (rows_avx2.cpp, rows_avx512.cpp): column
// stepping, and the AVX2 kernels the AVX-512 set hands narrow rows to. Internal to those files and
// rows.cpp.
#include <cstdint>

#include "features/integer_adm/rows.hpp"

namespace vqtwin::integer_adm::x86 {

// Column steps of width w over [x0, x1) for kernels whose columns are independent: the last step
// is moved back to end at x1, recomputing a few columns with the same values, so only rows
// narrower than one step need the scalar kernel.
inline int next_step(int x, int w, int x1) {
  const int n = x + w;
  return n >= x1 ? x1 : (n + w > x1 ? x1 - w : n);
}

// The scale 1-3 CSF factors fit the int32 lanes of the vector CSF (else the reference runs).
inline bool fits_int32_factors(const uint32_t r[3]) {
  return r[0] < 0x80000000u && r[1] < 0x80000000u && r[2] < 0x80000000u;
}

// The AVX2 kernels (rows_avx2.cpp), with RowKernels' signatures.
void dwt0_vertical_u8(const uint8_t* const rows[4], int n, int bitdepth, int16_t* lo, int16_t* hi);
void dwt0_horizontal(const int16_t* lo, const int16_t* hi, int n_out, int16_t* a, int16_t* v, int16_t* h, int16_t* d);
void dwt_vertical(const int32_t* const rows[4], int n, int shift, int64_t round, int32_t* lo, int32_t* hi);
void dwt_vertical16(const int16_t* const rows[4], int n, int shift, int64_t round, int32_t* lo, int32_t* hi);
void dwt_horizontal(const int32_t* lo, const int32_t* hi, int n_out, int shift, int64_t round, int32_t* a, int32_t* v,
                    int32_t* h, int32_t* d);
void csf0(const int16_t* const p[3], int x0, int x1, const uint16_t r0[3], int32_t* mask, int32_t* centre);
void csf123(const int32_t* const p[3], int x0, int x1, const uint32_t r[3], int32_t* mask, int32_t* centre);
void cm0(const int16_t* const src[3], const int32_t* box_up, const int32_t* box_mid, const int32_t* box_down,
         const int32_t* mask_mid, const int32_t* centre_mid, int x0, int x1, const uint16_t r0[3],
         const uint32_t cube_shift[3], const int64_t cube_round[3], int64_t sums[3]);
void cm123(const int32_t* const src[3], const int32_t* box_up, const int32_t* box_mid, const int32_t* box_down,
           const int32_t* mask_mid, const int32_t* centre_mid, int x0, int x1, const uint32_t r[3],
           uint32_t cube_shift, int64_t cube_round, int64_t sums[3]);

// The sets' entries (dav1d's init style: each overrides what it speeds up; rows.cpp decides).
void init_avx2(RowKernels& k);
void init_avx512(RowKernels& k);

}  // namespace vqtwin::integer_adm::x86
