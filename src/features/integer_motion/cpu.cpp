// integer motion (libvmaf's `motion`), CPU reference (spec: integer_motion.md).
//
// libvmaf hands this extractor the previous reference pictures; here it is temporal (frames one at a
// time, in order) and keeps its own copies of the last two luma planes. Per frame it stores the SAD
// score of (i-1, i) (or (i-2, i) with the five-frame window); motion2/motion3 exist only at flush.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/big_buffer.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/integer_motion/math.hpp"
#include "features/integer_motion/sad.hpp"
#include "features/integer_motion/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace integer_motion {
namespace {

class IntegerMotionCpu final : public Extractor {
 public:
  explicit IntegerMotionCpu(const OptionValues& o)
      : force_zero_(o.get_bool("motion_force_zero")),
        debug_(o.get_bool("debug")),
        fps_weight_(o.get_double("motion_fps_weight")),
        name_sad_(o.output_name(kSad)),
        name_motion_(o.output_name(kMotion)),
        name_motion2_(o.output_name(kMotion2)),
        name_motion3_(o.output_name(kMotion3)) {
    schedule_.blend_factor = o.get_double("motion_blend_factor");
    schedule_.blend_offset = o.get_double("motion_blend_offset");
    schedule_.max_val = o.get_double("motion_max_val");
    schedule_.five_frame_window = o.get_bool("motion_five_frame_window");
    schedule_.moving_average = o.get_bool("motion_moving_average");
  }

  void init(const PictureFormat& f) override {
    if (f.bitdepth < 8 || f.bitdepth > 16)
      throw Error("motion: bit depth " + std::to_string(f.bitdepth) + " is not supported (8 to 16)");
    // The 5-tap mirror needs three samples each way (spec: DECISIONS.md §11).
    if (f.width < 3 || f.height < 3)
      throw Error("motion: a " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                  " luma plane is too small (at least 3x3)");
    w_ = f.width;
    h_ = f.height;
    bpc_ = f.bitdepth;
    bytes_ = f.bytes_per_sample();
    if (force_zero_) return;  // no pixel is ever read
    sad_ = std::make_unique<DiffBlurSad>(w_, h_, f.bitdepth);
    // Frame i - 2 is needed only with the five-frame window.
    const int kept = schedule_.five_frame_window ? 3 : 2;
    for (int k = 0; k < kept; ++k) history_[k] = BigBuffer<unsigned char>(std::size_t(w_) * h_ * bytes_);
  }

  void extract(const Picture& ref, const Picture&, unsigned index, FeatureSink& out) override {
    const unsigned lag = schedule_.five_frame_window ? 2 : 1;
    double score = 0.0;
    if (!force_zero_) {
      // Kept first (another slot than the previous frame's), noting samples of 2^bpc or more.
      const unsigned slot = index % (lag + 1);
      out_of_range_[slot] = keep(ref, history_[slot]) >> bpc_ != 0;
      if (index >= lag) {
        const unsigned prev_slot = (index - lag) % (lag + 1);
        const BigBuffer<unsigned char>& prev = history_[prev_slot];
        const std::uint64_t sad =
            bytes_ == 1 ? (*sad_)(prev.data(), w_, ref.row<std::uint8_t>(0, 0), ref.stride(0))
                        : (*sad_)(reinterpret_cast<const std::uint16_t*>(prev.data()), w_,
                                  ref.row<std::uint16_t>(0, 0), ref.stride(0),
                                  out_of_range_[slot] || out_of_range_[prev_slot]);
        score = frame_score(sad, unsigned(w_), unsigned(h_), fps_weight_, schedule_.max_val);
      }
    }
    if (sads_.size() <= index) sads_.resize(index + 1, 0.0);
    sads_[index] = score;
    out.put(name_sad_, index, score);
    if (debug_) out.put(name_motion_, index, score);
  }

  void flush(FeatureSink& out) override {
    std::vector<double> motion2, motion3;
    motion23(sads_, schedule_, motion2, motion3);
    for (std::size_t i = 0; i < sads_.size(); ++i) {
      out.put(name_motion2_, unsigned(i), motion2[i]);
      out.put(name_motion3_, unsigned(i), motion3[i]);
    }
  }

 private:
  // A packed copy of the luma plane (row stride w); returns the OR of its samples (0 for 8 bits).
  std::uint32_t keep(const Picture& pic, BigBuffer<unsigned char>& dst) const {
    const std::size_t row_bytes = std::size_t(w_) * bytes_;
    if (bytes_ == 1) {
      for (int y = 0; y < h_; ++y)
        std::memcpy(dst.data() + y * row_bytes, static_cast<const unsigned char*>(pic.data(0)) + y * pic.stride_bytes(0),
                    row_bytes);
      return 0;
    }
    std::uint32_t any = 0;
    auto* out = reinterpret_cast<std::uint16_t*>(dst.data());
    for (int y = 0; y < h_; ++y) {
      const std::uint16_t* src = pic.row<std::uint16_t>(0, y);
      std::uint16_t* row = out + std::size_t(y) * w_;
      for (int x = 0; x < w_; ++x) {
        row[x] = src[x];
        any |= src[x];
      }
    }
    return any;
  }

  bool force_zero_, debug_;
  double fps_weight_;
  Schedule schedule_;
  std::string name_sad_, name_motion_, name_motion2_, name_motion3_;
  int w_ = 0, h_ = 0, bytes_ = 1, bpc_ = 8;
  bool out_of_range_[3] = {false, false, false};  // per history slot: a sample of 2^bpc or more
  std::unique_ptr<DiffBlurSad> sad_;
  BigBuffer<unsigned char> history_[3];  // luma of frame i in slot i % (lag + 1)
  std::vector<double> sads_;               // the per-frame scores, for flush
};

}  // namespace
}  // namespace integer_motion

extern const ExtractorInfo kIntegerMotionInfo;
const ExtractorInfo kIntegerMotionInfo = cpu_extractor<integer_motion::IntegerMotionCpu>(integer_motion::kSpec);

}  // namespace vqtwin
