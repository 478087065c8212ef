#pragma once
// psnr_hvs's host side, shared by the CPU reference and the CUDA twin: the refusals, the plane sizes
// (libvmaf's), the tables, and the frame's values from the three planes' fp32 totals (the division by
// the count and the peak, log10: host code on both, so glibc's log10 gives every twin's value).
#include <string>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/common/libvmaf_planes.hpp"
#include "features/psnr_hvs/math.hpp"
#include "features/psnr_hvs/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::psnr_hvs {

class Front {
 public:
  void init(const PictureFormat& f) {
    if (f.bitdepth > 12)
      throw Error("psnr_hvs: invalid bit depth " + std::to_string(f.bitdepth) + ", it must be at most 12 (as libvmaf)");
    require_standard_bitdepth("psnr_hvs", f.bitdepth);
    if (f.chroma == ChromaFormat::k400) throw Error("psnr_hvs: 4:0:0 pictures have no chroma (libvmaf refuses them)");
    for (int p = 0; p < 3; ++p) {
      w_[p] = libvmaf_plane_width(f, p);
      h_[p] = libvmaf_plane_height(f, p);
      // libvmaf divides 0 by 0 (NaN) for a plane without a whole 8x8 block.
      if (w_[p] < 8 || h_[p] < 8)
        throw Error("psnr_hvs: every plane must be at least 8x8 (its DCT block); plane " + std::to_string(p) + " is " +
                    std::to_string(w_[p]) + "x" + std::to_string(h_[p]));
      tables_[p] = make_tables(csf_of(p));
    }
    bitdepth_ = f.bitdepth;
  }

  int bitdepth() const { return bitdepth_; }
  // Plane p's size as libvmaf's pictures hold it, and its blocks along each side.
  int width(int p) const { return w_[p]; }
  int height(int p) const { return h_[p]; }
  int blocks_x(int p) const { return block_count(w_[p]); }
  int blocks_y(int p) const { return block_count(h_[p]); }
  const Tables& tables(int p) const { return tables_[p]; }
  const Tables* all_tables() const { return tables_; }

  // The CPU's plane total when a term is NaN: 10/12-bit words of 2^bpc or more can overflow the int32
  // AC energy (libvmaf's type), whose square root is then taken of a negative number. That NaN is the
  // one this host's masked_root makes (x86: the default NaN, sign set), and every later operation
  // carries it unchanged (IEEE leaves a NaN result's sign and payload to the machine; x86 keeps the
  // NaN operand's). A device makes its own canonical NaN: a twin maps a NaN total to this one, so the
  // values that follow (and their signs) are the CPU's.
  static float cpu_nan_total() {
    volatile float negative = -1.0f;  // computed at run time, by the host's own sqrt
    return masked_root(float(negative));
  }

  // The frame's four values from each plane's fp32 total of its terms (added in libvmaf's order).
  void emit(const float total[3], unsigned index, FeatureSink& out) const {
    double score[3];
    for (int p = 0; p < 3; ++p) {
      score[p] = plane_score(total[p], 64 * blocks_x(p) * blocks_y(p), bitdepth_);
      out.put(kOutputs[std::size_t(p)], index, to_db(score[p]));
    }
    out.put(kOutputs[3], index, to_db(combined_score(score[0], score[1], score[2])));
  }

 private:
  int w_[3] = {}, h_[3] = {};
  int bitdepth_ = 8;
  Tables tables_[3] = {};
};

}  // namespace vqtwin::psnr_hvs
