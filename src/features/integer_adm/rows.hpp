#pragma once
// integer ADM's row kernels: the hot loops of one frame, one band row at a time. One table: the
// scalar reference (rows_scalar.cpp), which the AVX2 (rows_avx2.cpp) and AVX-512 (rows_avx512.cpp)
// kernels override where the CPU flags allow (rows.cpp). Every kernel is exact integer arithmetic,
// so all give identical results (tests/cpu_check holds every variant on the machine to the
// reference). Orientation arrays are {h, v, d}.
#include <cstdint>

namespace vqtwin::integer_adm {

struct RowKernels {
  // DWT, scale 0, vertical pass: n columns from the 4 (already mirrored) source rows; the sums are
  // centred by -46342 * 2^(B-1) and rounded down by B bits to int16.
  void (*dwt0_vertical_u8)(const uint8_t* const rows[4], int n, int bitdepth, int16_t* lo, int16_t* hi);
  void (*dwt0_vertical_u16)(const uint16_t* const rows[4], int n, int bitdepth, int16_t* lo, int16_t* hi);
  // DWT, scale 0, horizontal pass: lo/hi are padded rows (lo[-1], lo[n], lo[n+1] hold the mirrored
  // samples), n_out outputs: a (scale 1's input), v, h, d.
  void (*dwt0_horizontal)(const int16_t* lo, const int16_t* hi, int n_out, int16_t* a, int16_t* v, int16_t* h,
                          int16_t* d);
  // DWT, scales 1-3, one pass: int64 sums, rounded by (round, shift), stored as int32 (the passes of
  // dwt123 in the scalar and AVX2 sets, and their tails).
  void (*dwt_vertical)(const int32_t* const rows[4], int n, int shift, int64_t round, int32_t* lo, int32_t* hi);
  void (*dwt_horizontal)(const int32_t* lo, const int32_t* hi, int n_out, int shift, int64_t round, int32_t* a,
                         int32_t* v, int32_t* h, int32_t* d);
  // DWT, scales 1-3, one output row: both passes over the 4 (already mirrored) rows of n values with
  // scale's rounding (dwt.hpp), through lo/hi (scratch of n + 3 values each, contents left undefined);
  // (n + 1) / 2 outputs a, v, h, d.
  void (*dwt123)(const int32_t* const rows[4], int n, int scale, int32_t* lo, int32_t* hi, int32_t* a, int32_t* v,
                 int32_t* h, int32_t* d);
  // The same from int16 rows: scale 1, whose input is scale 0's a band (int16, half the memory).
  void (*dwt1)(const int16_t* const rows[4], int n, int scale, int32_t* lo, int32_t* hi, int32_t* a, int32_t* v,
               int32_t* h, int32_t* d);

  // Decouple over columns [x0, x1): restored (rst) and additive (q) parts of the dis bands.
  void (*decouple0)(const int16_t* const ref[3], const int16_t* const dis[3], int x0, int x1, double egl,
                    int16_t* const rst[3], int16_t* const q[3]);
  void (*decouple123)(const int32_t* const ref[3], const int32_t* const dis[3], int x0, int x1, double egl,
                      int32_t* const rst[3], int32_t* const q[3]);

  // CSF of p over [x0, x1): mask[x] = sum over orientations of |csf|/30, centre[x] = sum of |csf|/15.
  void (*csf0)(const int16_t* const p[3], int x0, int x1, const uint16_t r0[3], int32_t* mask, int32_t* centre);
  void (*csf123)(const int32_t* const p[3], int x0, int x1, const uint32_t r[3], int32_t* mask, int32_t* centre);

  // box[j] = mask[j-1] + mask[j] + mask[j+1] (int32, wrapping) for j in [x0, x1): the horizontal 3-sums
  // of a mask row (the caller mirrors its ends).
  void (*box3)(const int32_t* mask, int32_t* box, int x0, int x1);

  // Contrast masking over pool columns [x0, x1) of one row: the threshold is
  // box_up + box_mid + box_down - mask_mid + centre_mid (box_* = horizontal 3-sums of the mask rows),
  // and the cube terms of src are added into sums[theta] (int64, exact).
  void (*cm0)(const int16_t* const src[3], const int32_t* box_up, const int32_t* box_mid, const int32_t* box_down,
              const int32_t* mask_mid, const int32_t* centre_mid, int x0, int x1, const uint16_t r0[3],
              const uint32_t cube_shift[3], const int64_t cube_round[3], int64_t sums[3]);
  void (*cm123)(const int32_t* const src[3], const int32_t* box_up, const int32_t* box_mid, const int32_t* box_down,
                const int32_t* mask_mid, const int32_t* centre_mid, int x0, int x1, const uint32_t r[3],
                uint32_t cube_shift, int64_t cube_round, int64_t sums[3]);

  // Denominator over pool columns [x0, x1) of one ref row: sums[theta] += cube terms.
  void (*den0)(const int16_t* const ref[3], int x0, int x1, uint64_t sums[3]);
  void (*den123)(const int32_t* const ref[3], int x0, int x1, uint32_t sq_shift, uint32_t cube_shift,
                 uint64_t cube_round, uint64_t sums[3]);
};

// The table for a set of cpu:: flags (common/cpu.hpp): the reference, then each instruction set the
// flags allow. kernels_for(0) is the reference; kernels_for(cpu::flags()) the one to run.
RowKernels kernels_for(unsigned cpu_flags);
// The reference table (rows_scalar.cpp); the vector kernels hand it their row tails.
const RowKernels& reference_kernels();

}  // namespace vqtwin::integer_adm
