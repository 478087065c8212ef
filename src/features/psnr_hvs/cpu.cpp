// psnr_hvs, CPU reference (see math.hpp and README.md).
//
// The plane sums are kernels.hpp's table: blocks of one block row kLanes at a time (GCC vectors, each lane
// one block doing the scalar sequence of math.hpp exactly: integer DCT, fp32 sums in libvmaf's order);
// their 64 terms are then added into the plane's fp32 total one block after the other, in libvmaf's order.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "common/cpu.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "core/format_checks.hpp"
#include "features/common/libvmaf_planes.hpp"
#include "features/psnr_hvs/kernels.hpp"
#include "features/psnr_hvs/math.hpp"
#include "features/psnr_hvs/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace psnr_hvs {
namespace {

class PsnrHvsCpu final : public Extractor {
 public:
  PsnrHvsCpu() : kernels_(block_kernels_for(cpu::flags())) {}
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
      const PlaneSum s = bitdepth_ == 8 ? kernels_.plane_sum8(ref, dist, p, w_[p], h_[p], tables_[p])
                                        : kernels_.plane_sum16(ref, dist, p, w_[p], h_[p], tables_[p]);
      score[p] = plane_score(s.total, s.count, bitdepth_);
      out.put(kOutputs[std::size_t(p)], index, to_db(score[p]));
    }
    out.put(kOutputs[3], index, to_db(combined_score(score[0], score[1], score[2])));
  }

 private:
  int w_[3] = {}, h_[3] = {};
  int bitdepth_ = 8;
  Tables tables_[3] = {};
  BlockKernels kernels_;  // chosen once, when the context is made (--cpumask applies)
};

}  // namespace
}  // namespace psnr_hvs

extern const ExtractorInfo kPsnrHvsInfo;
const ExtractorInfo kPsnrHvsInfo = cpu_extractor<psnr_hvs::PsnrHvsCpu>(psnr_hvs::kSpec);

}  // namespace vqtwin
