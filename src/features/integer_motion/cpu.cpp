// integer motion (libvmaf's `motion`), CPU reference (spec: integer_motion.md).
//
// libvmaf hands this extractor the previous reference pictures; here it is temporal (frames one at a
// time, in order) and keeps its own copies of the last luma planes. The front (front.hpp) owns the
// schedule and the scores; this file is the CPU's SAD of (i - lag, i).
#include <cstring>
#include <memory>

#include "common/big_buffer.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/integer_motion/front.hpp"
#include "features/integer_motion/sad.hpp"
#include "features/integer_motion/schema.hpp"

namespace vqtwin {
namespace integer_motion {
namespace {

class IntegerMotionCpu final : public Extractor {
 public:
  explicit IntegerMotionCpu(const OptionValues& o) : front_(o) {}

  void init(const PictureFormat& f) override {
    front_.init(f);
    if (!front_.reads_pixels()) return;  // motion_force_zero: no pixel is ever read
    w_ = f.width;
    h_ = f.height;
    bpc_ = f.bitdepth;
    bytes_ = f.bytes_per_sample();
    sad_ = std::make_unique<DiffBlurSad>(w_, h_, f.bitdepth);
    // Frame i - 2 is needed only with the five-frame window.
    for (unsigned k = 0; k <= front_.lag(); ++k) history_[k] = BigBuffer<unsigned char>(std::size_t(w_) * h_ * bytes_);
  }

  void extract(const Picture& ref, const Picture&, unsigned index, FeatureSink& out) override {
    std::uint64_t sad = 0;
    if (front_.reads_pixels()) {
      // Kept in another slot than the previous frame's: the SAD copies the rows as it reads them, and
      // (deeper planes) notes samples of 2^bpc or more, which select the 64-bit sums.
      const unsigned ring = front_.lag() + 1;
      const unsigned slot = index % ring;
      const unsigned prev_slot = (index - front_.lag()) % ring;
      const bool pair = front_.needs_sad(index);
      if (bytes_ == 1) {
        if (pair)
          sad = (*sad_)(history_[prev_slot].data(), w_, ref.row<std::uint8_t>(0, 0), ref.stride(0),
                        history_[slot].data());
        else
          keep(ref, history_[slot]);
      } else if (pair) {
        sad = (*sad_)(reinterpret_cast<const std::uint16_t*>(history_[prev_slot].data()), w_,
                      ref.row<std::uint16_t>(0, 0), ref.stride(0), out_of_range_[prev_slot],
                      reinterpret_cast<std::uint16_t*>(history_[slot].data()), &out_of_range_[slot]);
      } else {
        out_of_range_[slot] = keep(ref, history_[slot]) >> bpc_ != 0;
      }
    }
    front_.emit(index, sad, out);
  }

  void flush(FeatureSink& out) override { front_.flush(out); }

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

  Front front_;
  int w_ = 0, h_ = 0, bytes_ = 1, bpc_ = 8;
  bool out_of_range_[3] = {false, false, false};  // per history slot: a sample of 2^bpc or more
  std::unique_ptr<DiffBlurSad> sad_;
  BigBuffer<unsigned char> history_[3];  // luma of frame i in slot i % (lag + 1)
};

}  // namespace
}  // namespace integer_motion

extern const ExtractorInfo kIntegerMotionInfo;
const ExtractorInfo kIntegerMotionInfo = cpu_extractor<integer_motion::IntegerMotionCpu>(integer_motion::kSpec);

}  // namespace vqtwin
