#include "io/bitdepth_source.hpp"

#include <cstdint>
#include <string>

namespace vqtwin {
namespace {

class WidenedSource final : public PictureSource {
 public:
  WidenedSource(std::unique_ptr<PictureSource> inner, int bitdepth)
      : inner_(std::move(inner)), format_(inner_->format()), narrow_(inner_->format()) {
    format_.bitdepth = bitdepth;
    shift_ = bitdepth - inner_->format().bitdepth;
  }

  const PictureFormat& format() const override { return format_; }
  const std::string& path() const override { return inner_->path(); }
  bool skip() override { return inner_->skip(); }

  bool read(Picture& pic) override {
    if (!inner_->read(narrow_)) return false;
    for (int p = 0; p < format_.num_planes(); ++p)
      for (int y = 0; y < pic.height(p); ++y) {
        std::uint16_t* dst = pic.row<std::uint16_t>(p, y);  // the wider depth is above 8 bits
        if (narrow_.format().bitdepth > 8) {
          const std::uint16_t* src = narrow_.row<std::uint16_t>(p, y);
          for (int x = 0; x < pic.width(p); ++x) dst[x] = std::uint16_t(src[x] << shift_);
        } else {
          const std::uint8_t* src = narrow_.row<std::uint8_t>(p, y);
          for (int x = 0; x < pic.width(p); ++x) dst[x] = std::uint16_t(src[x] << shift_);
        }
      }
    return true;
  }

 private:
  std::unique_ptr<PictureSource> inner_;
  PictureFormat format_;
  Picture narrow_;
  int shift_ = 0;
};

}  // namespace

std::unique_ptr<PictureSource> widen_bitdepth(std::unique_ptr<PictureSource> inner, int bitdepth) {
  return std::make_unique<WidenedSource>(std::move(inner), bitdepth);
}

}  // namespace vqtwin
