// psnr_hvs, CPU reference (see math.hpp and README.md).
//
// Blocks of one block row are computed kLanes at a time (GCC vectors, each lane one block doing the scalar
// sequence of math.hpp exactly: integer DCT, fp32 sums in libvmaf's order); their 64 terms are then added
// into the plane's fp32 total one block after the other, in libvmaf's order.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "core/format_checks.hpp"
#include "features/common/libvmaf_planes.hpp"
#include "features/psnr_hvs/math.hpp"
#include "features/psnr_hvs/schema.hpp"
#include "common/vector.hpp"
#include "vqtwin/error.hpp"

// The vector block code is inlined within this file (see math.hpp): GCC's wide-vector ABI note does not apply.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace vqtwin {
namespace psnr_hvs {
namespace {

struct PlaneSum {
  float total = 0;
  int count = 0;
};

// kLanes blocks of block row y (blocks bx0, bx0 + 1, ...; lanes past `n` are zero blocks), their terms
// added to `total` in block order.
template <class T>
VQTWIN_ALWAYS_INLINE float block_group(const Picture& ref, const Picture& dist, int plane, int y, int bx0, int n,
                                       const Tables& t, float total) {
  alignas(64) std::int32_t s[64][kLanes] = {};
  alignas(64) std::int32_t d[64][kLanes] = {};
  for (int i = 0; i < 8; ++i) {
    const T* rr = ref.row<T>(plane, y + i);
    const T* dr = dist.row<T>(plane, y + i);
    for (int l = 0; l < n; ++l) {
      const int x = 7 * (bx0 + l);
      for (int j = 0; j < 8; ++j) {
        s[i * 8 + j][l] = rr[x + j];
        d[i * 8 + j][l] = dr[x + j];
      }
    }
  }
  VInt vs[64], vd[64];
  std::memcpy(vs, s, sizeof s);
  std::memcpy(vd, d, sizeof d);
  VFloat terms[64];
  block_terms<VInt, VFloat>(vs, vd, t, terms);
  alignas(64) float out[64][kLanes];
  std::memcpy(out, terms, sizeof out);
  for (int l = 0; l < n; ++l)
    for (int k = 0; k < 64; ++k) total += out[k][l];
  return total;
}

template <class T>
VQTWIN_ALWAYS_INLINE PlaneSum plane_sum(const Picture& ref, const Picture& dist, int plane, int w, int h,
                                        const Tables& t) {
  const int nbx = block_count(w), nby = block_count(h);
  float total = 0;
  for (int by = 0; by < nby; ++by)
    for (int bx0 = 0; bx0 < nbx; bx0 += kLanes)
      total = block_group<T>(ref, dist, plane, 7 * by, bx0, std::min(kLanes, nbx - bx0), t, total);
  return {total, 64 * nbx * nby};
}

PlaneSum plane_sum8(const Picture& r, const Picture& d, int p, int w, int h, const Tables& t) {
  return plane_sum<std::uint8_t>(r, d, p, w, h, t);
}
PlaneSum plane_sum16(const Picture& r, const Picture& d, int p, int w, int h, const Tables& t) {
  return plane_sum<std::uint16_t>(r, d, p, w, h, t);
}

class PsnrHvsCpu final : public Extractor {
 public:
  void init(const PictureFormat& f) override {
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

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    double score[3];
    for (int p = 0; p < 3; ++p) {
      const PlaneSum s = bitdepth_ == 8 ? plane_sum8(ref, dist, p, w_[p], h_[p], tables_[p])
                                        : plane_sum16(ref, dist, p, w_[p], h_[p], tables_[p]);
      score[p] = plane_score(s.total, s.count, bitdepth_);
      out.put(kOutputs[std::size_t(p)], index, to_db(score[p]));
    }
    out.put(kOutputs[3], index, to_db(combined_score(score[0], score[1], score[2])));
  }

 private:
  int w_[3] = {}, h_[3] = {};
  int bitdepth_ = 8;
  Tables tables_[3] = {};
};

}  // namespace
}  // namespace psnr_hvs

extern const ExtractorInfo kPsnrHvsInfo;
const ExtractorInfo kPsnrHvsInfo = cpu_extractor<psnr_hvs::PsnrHvsCpu>(psnr_hvs::kSpec);

}  // namespace vqtwin
