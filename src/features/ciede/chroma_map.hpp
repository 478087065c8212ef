#pragma once
// Which chroma sample libvmaf's ciede pairs with luma sample (x, y).
//
// libvmaf upsamples 4:2:x chroma to the luma grid by reading its own picture buffers (planes of
// (w >> 1) x (h >> ss_ver) samples, rows of a stride rounded up to 32 samples, the padding zero) with two
// quirks: output row y reads plane row y >> 1 for 4:2:2 as for 4:2:0, and column x reads position
// x >> 1 for 4:2:0 but x for 4:2:2, counted along the buffer (so past a row's end it reads the zero
// padding and then the next row). For even-sized 4:2:0 that is plain nearest-sample upsampling. This map
// reproduces the reads; where they would leave libvmaf's plane (4:2:0 at an odd height, some odd widths,
// 4:2:2 one row high), the result is undefined in libvmaf and the format is refused.
#include <cstdint>
#include <string>
#include <vector>

#include "features/common/libvmaf_planes.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::ciede {

struct ChromaRow {
  int row;  // libvmaf plane row the buffer position of column 0 lies in (4:4:4: y)
};

class ChromaMap {
 public:
  ChromaMap() = default;
  explicit ChromaMap(const PictureFormat& f) : chroma_(f.chroma) {
    if (f.chroma == ChromaFormat::k444) return;
    const int cw = libvmaf_plane_width(f, 1), ch = libvmaf_plane_height(f, 1);
    const int stride = libvmaf_plane_stride(f, 1);
    // stride >= 1 even for a zero-width plane, so positions can be split into (row, column).
    const int s = stride > 0 ? stride : 32;
    row_step_.resize(std::size_t(f.width));
    column_.resize(std::size_t(f.width));
    int max_step = 0;
    for (int x = 0; x < f.width; ++x) {
      const int pos = f.chroma == ChromaFormat::k420 ? x >> 1 : x;
      row_step_[std::size_t(x)] = pos / s;
      column_[std::size_t(x)] = pos % s < cw ? pos % s : -1;  // -1: the zero padding
      if (pos / s > max_step) max_step = pos / s;
    }
    plain_ = f.chroma == ChromaFormat::k420;
    for (int x = 0; x < f.width; ++x) plain_ = plain_ && row_step_[std::size_t(x)] == 0 && column_[std::size_t(x)] == x >> 1;
    if (cw == 0 || ((f.height - 1) >> 1) + max_step >= ch)
      throw Error("ciede: at " + f.describe() +
                  " libvmaf's chroma upsampling reads past the end of its chroma planes (an undefined result); "
                  "this size is refused");
  }

  // Whether column x reads position x >> plain_shift() of the row's own plane row (4:4:4 and most 4:2:0
  // sizes), so a row's chroma can be read straight from the plane row.
  bool plain() const { return chroma_ == ChromaFormat::k444 || plain_; }
  int plain_shift() const { return chroma_ == ChromaFormat::k444 ? 0 : 1; }

  // Where column x's chroma lies (what sample() reads, as numbers for the device twin's table): plane row
  // row(y).row + row_step(x), column column(x); column -1 is the zero padding.
  int row_step(int x) const { return chroma_ == ChromaFormat::k444 ? 0 : row_step_[std::size_t(x)]; }
  int column(int x) const { return chroma_ == ChromaFormat::k444 ? x : column_[std::size_t(x)]; }

  ChromaRow row(int y) const { return {chroma_ == ChromaFormat::k444 ? y : y >> 1}; }

  // Chroma sample of plane p (1 or 2) for luma column x of the row `r`.
  template <class T>
  unsigned sample(const Picture& pic, int p, ChromaRow r, int x) const {
    if (chroma_ == ChromaFormat::k444) return pic.row<T>(p, r.row)[x];
    const int c = column_[std::size_t(x)];
    return c < 0 ? 0u : pic.row<T>(p, r.row + row_step_[std::size_t(x)])[c];
  }

 private:
  ChromaFormat chroma_ = ChromaFormat::k444;
  bool plain_ = false;
  std::vector<int> row_step_;
  std::vector<int> column_;
};

}  // namespace vqtwin::ciede
