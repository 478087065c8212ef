// integer ADM row kernels, scalar reference: one cell at a time, the rules of math.hpp.
#include <cstdint>

#include "features/integer_adm/dwt.hpp"
#include "features/integer_adm/math.hpp"
#include "features/integer_adm/rows.hpp"

namespace vqtwin::integer_adm {
namespace {

template <class Pixel>
void dwt0_vertical(const Pixel* const rows[4], int n, int bitdepth, int16_t* lo, int16_t* hi) {
  // Centring the lo sum first keeps it inside int32 even at 16 bits (libvmaf's order wraps there
  // and back, to the same value).
  // Samples of 2^bpc or more at 10/12 bits (libvmaf accepts them) can still pass int32: the sums are
  // taken modulo 2^32, as libvmaf's int32 arithmetic wraps on its machines (and the SIMD rows do).
  const std::uint32_t offset = std::uint32_t(kLoSum) << (bitdepth - 1);
  const std::uint32_t round = 1u << (bitdepth - 1);
  for (int x = 0; x < n; ++x) {
    std::uint32_t l = 0u - offset, h = 0;
    for (int t = 0; t < 4; ++t) {
      l += std::uint32_t(kLo[t]) * std::uint32_t(rows[t][x]);
      h += std::uint32_t(kHi[t]) * std::uint32_t(rows[t][x]);
    }
    lo[x] = int16_t(int32_t(l + round) >> bitdepth);
    hi[x] = int16_t(int32_t(h + round) >> bitdepth);
  }
}

void dwt0_horizontal(const int16_t* lo, const int16_t* hi, int n_out, int16_t* a, int16_t* v, int16_t* h,
                     int16_t* d) {
  for (int k = 0; k < n_out; ++k) {
    int32_t sa = 0, sv = 0, sh = 0, sd = 0;
    for (int t = 0; t < 4; ++t) {
      const int32_t l = lo[2 * k - 1 + t], g = hi[2 * k - 1 + t];
      sa += kLo[t] * l;
      sv += kHi[t] * l;
      sh += kLo[t] * g;
      sd += kHi[t] * g;
    }
    a[k] = int16_t((sa + 32768) >> 16);
    v[k] = int16_t((sv + 32768) >> 16);
    h[k] = int16_t((sh + 32768) >> 16);
    d[k] = int16_t((sd + 32768) >> 16);
  }
}

void dwt_horizontal(const int32_t* lo, const int32_t* hi, int n_out, int shift, int64_t round, int32_t* a,
                    int32_t* v, int32_t* h, int32_t* d) {
  for (int k = 0; k < n_out; ++k) {
    int64_t sa = 0, sv = 0, sh = 0, sd = 0;
    for (int t = 0; t < 4; ++t) {
      const int64_t l = lo[2 * k - 1 + t], g = hi[2 * k - 1 + t];
      sa += kLo[t] * l;
      sv += kHi[t] * l;
      sh += kLo[t] * g;
      sd += kHi[t] * g;
    }
    a[k] = int32_t((sa + round) >> shift);
    v[k] = int32_t((sv + round) >> shift);
    h[k] = int32_t((sh + round) >> shift);
    d[k] = int32_t((sd + round) >> shift);
  }
}

void decouple0(const int16_t* const ref[3], const int16_t* const dis[3], int x0, int x1, double egl,
               int16_t* const rst[3], int16_t* const q[3]) {
  const int32_t* div = kReciprocal.div;
  for (int x = x0; x < x1; ++x) {
    const bool angle = angle_within_1deg(ref[0][x], ref[1][x], dis[0][x], dis[1][x]);
    for (int t = 0; t < 3; ++t) {
      const Restored16 r = decouple_scale0(ref[t][x], dis[t][x], angle, egl, div);
      rst[t][x] = r.rst;
      q[t][x] = r.q;
    }
  }
}

void decouple123(const int32_t* const ref[3], const int32_t* const dis[3], int x0, int x1, double egl,
                 int32_t* const rst[3], int32_t* const q[3]) {
  const int32_t* div = kReciprocal.div;
  for (int x = x0; x < x1; ++x) {
    const bool angle = angle_within_1deg(ref[0][x], ref[1][x], dis[0][x], dis[1][x]);
    for (int t = 0; t < 3; ++t) {
      const Restored32 r = decouple_scale123(ref[t][x], dis[t][x], angle, egl, div);
      rst[t][x] = r.rst;
      q[t][x] = r.q;
    }
  }
}

void csf0(const int16_t* const p[3], int x0, int x1, const uint16_t r0[3], int32_t* mask, int32_t* centre) {
  for (int x = x0; x < x1; ++x) {
    int32_t m = 0, c = 0;
    for (int t = 0; t < 3; ++t) {
      const int16_t v = csf_scale0(p[t][x], r0[t], t);
      m += mask_scale0(v);
      c += centre_scale0(v);
    }
    mask[x] = m;
    centre[x] = c;
  }
}

void csf123(const int32_t* const p[3], int x0, int x1, const uint32_t r[3], int32_t* mask, int32_t* centre) {
  for (int x = x0; x < x1; ++x) {
    uint32_t m = 0, c = 0;  // int32 sums that wrap like libvmaf's
    for (int t = 0; t < 3; ++t) {
      const int32_t v = csf_scale123(p[t][x], r[t]);
      m += uint32_t(mask_scale123(v));
      c += uint32_t(centre_scale123(v));
    }
    mask[x] = int32_t(m);
    centre[x] = int32_t(c);
  }
}

// mask and box never overlap: __restrict lets the compiler vectorise the sums.
void box3(const int32_t* __restrict mask, int32_t* __restrict box, int x0, int x1) {
  for (int j = x0; j < x1; ++j) box[j] = int32_t(uint32_t(mask[j - 1]) + uint32_t(mask[j]) + uint32_t(mask[j + 1]));
}

inline int32_t threshold(const int32_t* up, const int32_t* mid, const int32_t* down, const int32_t* mask,
                         const int32_t* centre, int x) {
  return int32_t(uint32_t(up[x]) + uint32_t(mid[x]) + uint32_t(down[x]) - uint32_t(mask[x]) + uint32_t(centre[x]));
}

void cm0(const int16_t* const src[3], const int32_t* box_up, const int32_t* box_mid, const int32_t* box_down,
         const int32_t* mask_mid, const int32_t* centre_mid, int x0, int x1, const uint16_t r0[3],
         const uint32_t cube_shift[3], const int64_t cube_round[3], int64_t sums[3]) {
  for (int x = x0; x < x1; ++x) {
    const int32_t thr = threshold(box_up, box_mid, box_down, mask_mid, centre_mid, x);
    for (int t = 0; t < 3; ++t) sums[t] += cube_term_scale0(src[t][x], r0[t], thr, t, cube_shift[t], cube_round[t]);
  }
}

void cm123(const int32_t* const src[3], const int32_t* box_up, const int32_t* box_mid, const int32_t* box_down,
           const int32_t* mask_mid, const int32_t* centre_mid, int x0, int x1, const uint32_t r[3],
           uint32_t cube_shift, int64_t cube_round, int64_t sums[3]) {
  for (int x = x0; x < x1; ++x) {
    const int32_t thr = threshold(box_up, box_mid, box_down, mask_mid, centre_mid, x);
    for (int t = 0; t < 3; ++t) sums[t] += cube_term_scale123(src[t][x], r[t], thr, cube_shift, cube_round);
  }
}

void den0(const int16_t* const ref[3], int x0, int x1, uint64_t sums[3]) {
  for (int t = 0; t < 3; ++t)
    for (int x = x0; x < x1; ++x) sums[t] += den_cube_scale0(ref[t][x]);
}

void den123(const int32_t* const ref[3], int x0, int x1, uint32_t sq_shift, uint32_t cube_shift, uint64_t cube_round,
            uint64_t sums[3]) {
  for (int t = 0; t < 3; ++t)
    for (int x = x0; x < x1; ++x) sums[t] += den_cube_scale123(ref[t][x], sq_shift, cube_shift, cube_round);
}

constexpr RowKernels kScalar = {
    .dwt0_vertical_u8 = dwt0_vertical<uint8_t>,
    .dwt0_vertical_u16 = dwt0_vertical<uint16_t>,
    .dwt0_horizontal = dwt0_horizontal,
    .dwt_vertical = dwt_vertical_rows<int32_t>,
    .dwt_horizontal = dwt_horizontal,
    .dwt123 = dwt123_by_passes<dwt_vertical_rows<int32_t>, dwt_horizontal, int32_t>,
    .dwt1 = dwt123_by_passes<dwt_vertical_rows<int16_t>, dwt_horizontal, int16_t>,
    .decouple0 = decouple0,
    .decouple123 = decouple123,
    .csf0 = csf0,
    .csf123 = csf123,
    .box3 = box3,
    .cm0 = cm0,
    .cm123 = cm123,
    .den0 = den0,
    .den123 = den123,
};

}  // namespace

const RowKernels& reference_kernels() { return kScalar; }

}  // namespace vqtwin::integer_adm
