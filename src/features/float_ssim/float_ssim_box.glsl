// float_ssim's plane values (decimate_exact.hpp, the CUDA twin's), the reference's and the distorted
// one's at one output position: the CPU's fp32 product f32(sample * weight) of every tap of the s x s
// box (KBND_SYMMETRIC mirror), summed exactly as an int64 in units of 2^-45 and rounded to float once.
// Integer arithmetic only (the product is the 40-bit integer v * weight mantissa rounded to 24 bits),
// so both float paths share it. Two shortcuts, each giving the same integer:
//  - a box inside the picture (every output but a border of s/2 + 1) needs no mirror;
//  - a power-of-two scale has weight 2^-2k: v * 2^23 has at most 16 significant bits, so the rounding
//    to 24 bits is exact and the sum of the products is (sum of v) * 2^(23 + we), the raw words summed
//    in 32 bits (at most 128^2 words below 2^16: below 2^30).
// The including shader defines sample_r(a) and sample_d(a): the raw word at byte a of its plane.
#include "samples.glsl"
#include "float_ssim_soft.glsl"

struct Box {
  uint width, height, stride_bytes, base_r, base_d, bytes_per_sample, scale;
  uint weight;       // f32(1 / s^2), bits
  int sample_shift;  // sample = v * 2^-sample_shift (the exact reciprocal of libvmaf's divisor)
  bool plant_mirror;  // float_ssim_vulkan_mirror: libvmaf's other edge rule (-1 -> 1)
};

uint sample_r(uint a);
uint sample_d(uint a);

int box_mirror(int c, int n, bool planted) {
  if (planted) {
    const int r = c < 0 ? -c : (c >= n ? 2 * n - 2 - c : c);
    return clamp(r, 0, n - 1);
  }
  // Only non-negative operands reach %: GLSL leaves a negative one undefined, and NVIDIA's driver gave
  // other planes than lavapipe at every scale >= 2 (the box's left and top taps start at -s/2).
  const int period = 2 * n;
  const int r = c >= 0 ? c % period : period - 1 - (-1 - c) % period;
  return r < n ? r : period - 1 - r;
}

// Output (x, y) of the reference's plane (float bits), and the distorted one's when `both`.
uvec2 box_pair(Box b, uint x, uint y, bool both) {
  const int s = int(b.scale), lo = s / 2;
  const uint64_t wm = mant_of(b.weight);
  const int we = exp_of(b.weight) - b.sample_shift + 45;  // >= 0: weight >= 2^-14, shift <= 8
  const uint bps = b.bytes_per_sample;
  const int x0 = int(x) * s - lo, y0 = int(y) * s - lo;
  const bool inside = x0 >= 0 && y0 >= 0 && x0 + s <= int(b.width) && y0 + s <= int(b.height);
  int64_t units_r = 0l, units_d = 0l;
  if (inside && wm == 0x800000ul) {
    uint sum_r = 0u, sum_d = 0u;
    for (int v = 0; v < s; ++v) {
      const uint row = uint(y0 + v) * b.stride_bytes + uint(x0) * bps;
      for (int u = 0; u < s; ++u) {
        const uint at = row + uint(u) * bps;
        sum_r += sample_r(at + b.base_r);
        if (both) sum_d += sample_d(at + b.base_d);
      }
    }
    units_r = int64_t(uint64_t(sum_r) << uint(23 + we));
    units_d = int64_t(uint64_t(sum_d) << uint(23 + we));
  } else {
    for (int v = 0; v < s; ++v) {
      const int yy = inside ? y0 + v : box_mirror(y0 + v, int(b.height), b.plant_mirror);
      const uint row = uint(yy) * b.stride_bytes;
      for (int u = 0; u < s; ++u) {
        const int xx = inside ? x0 + u : box_mirror(x0 + u, int(b.width), b.plant_mirror);
        const uint at = row + uint(xx) * bps;
        // RN_24(v * wm) * 2^(we): the fp32 product in units of 2^-45 (an integer: docs/exactness.md)
        units_r += int64_t(rn_int(wm * uint64_t(sample_r(at + b.base_r)), 24) << uint(we));
        if (both) units_d += int64_t(rn_int(wm * uint64_t(sample_d(at + b.base_d)), 24) << uint(we));
      }
    }
  }
  return uvec2(float_of(uint64_t(units_r), -45, false), both ? float_of(uint64_t(units_d), -45, false) : 0u);
}
