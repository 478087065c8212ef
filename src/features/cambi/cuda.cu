// cambi_cuda: cambi's per-pixel work on the device, its pooling on the host (front.hpp).
//   device, per picture (the distorted one at the encode size; with full_ref the reference at the
//     source size, its own buffers): the 10-bit conversion through the nearest-neighbour positions,
//     the anti-dithering filter, the spatial mask, then per scale the decimation, the mode filter and
//     the banding values: one thread per output through cells.hpp (the CPU's loop body for that
//     output). The banding values count each pixel's window from a tile of histogram rows in shared
//     memory (16x16 pixels and their margins), into per-thread counters of the 2 nd + 1 rows around
//     the pixel's own: the counts the CPU's sliding histograms hold, so the same step responses.
//     10/12-bit pictures also get their largest sample (libvmaf refuses samples above the bit depth).
//   host, in reduce(): the refusal, the heatmap files (heatmaps_path: the CPU's writer on the same
//     values), then each scale's top-k pooling and the weighted sum through the front, the CPU's code
//     on the same values (libvmaf's selection order decides the double sum's order: a sequential
//     walk, kept on the host).
// Every option of the schema is served; nothing is declined.
#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/cuda/grid.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/cambi/cells.hpp"
#include "features/cambi/front.hpp"
#include "features/cambi/heatmaps.hpp"
#include "features/cambi/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace cambi {
namespace {

constexpr unsigned kThreads = 256;
constexpr int kTile = 16;  // banding values: 16x16 pixels per block

unsigned blocks(long long n) { return cuda::blocks_for(n, kThreads, 1, 65535); }

// The largest sample of plane p, as float bits into *out (zeroed; the bits of non-negative floats
// order as ints).
__global__ void max_kernel(cuda::DevicePlane p, float* out) {
  unsigned m = 0;
  VQTWIN_GRID_STRIDE(i, (long long)p.width * p.height) {
    const unsigned v = p.row<unsigned short>(int(i / p.width))[int(i % p.width)];
    m = v > m ? v : m;
  }
  for (int o = 16; o > 0; o >>= 1) m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
  if ((threadIdx.x & 31) == 0 && m) atomicMax(reinterpret_cast<int*>(out), __float_as_int(float(m)));
}

template <class T>
__global__ void to_10bit_kernel(cuda::DevicePlane p, int bitdepth, const int* xs, const int* ys, int w, int h,
                                unsigned short* out) {
  VQTWIN_GRID_STRIDE(i, (long long)w * h) {
    const int y = int(i / w), x = int(i % w);
    out[i] = cells::to_10bit(p.row<T>(ys[y])[xs[x]], bitdepth);
  }
}

__global__ void anti_dither_kernel(const unsigned short* in, int w, int h, unsigned short* out) {
  VQTWIN_GRID_STRIDE(i, (long long)w * h) out[i] = cells::anti_dither_at(in, w, h, int(i / w), int(i % w));
}

__global__ void flat_kernel(const unsigned short* img, int w, int h, unsigned char* flat) {
  VQTWIN_GRID_STRIDE(i, (long long)w * h) flat[i] = cells::flat_at(img, w, h, int(i / w), int(i % w));
}

__global__ void mask_kernel(const unsigned char* flat, int w, int h, int threshold, unsigned char* mask) {
  VQTWIN_GRID_STRIDE(i, (long long)w * h) mask[i] = cells::mask_at(flat, w, h, threshold, int(i / w), int(i % w));
}

// The w x h picture at stride `stride` decimated into w2 x h2, same stride.
template <class T>
__global__ void decimate_kernel(const T* in, long long stride, int w2, int h2, T* out) {
  VQTWIN_GRID_STRIDE(i, (long long)w2 * h2) {
    const int y = int(i / w2), x = int(i % w2);
    out[y * stride + x] = cells::decimate_at(in, stride, y, x);
  }
}

__global__ void mode_kernel(const unsigned short* in, long long stride, int w, int h, unsigned short* out) {
  VQTWIN_GRID_STRIDE(i, (long long)w * h) {
    const int y = int(i / w), x = int(i % w);
    out[y * stride + x] = cells::mode_at(in, stride, w, h, y, x);
  }
}

// The tile of histogram rows (cells::counted_value; -1 outside the picture) around one block.
struct TileRows {
  const short* tile;
  int side, top, left;  // the tile's first row and column in the picture
  __device__ int operator()(int r, int c) const { return tile[(r - top) * side + (c - left)]; }
};

struct BandingArgs {
  const unsigned short* img;
  const unsigned char* mask;
  long long stride;
  int w, h, pad, base, size, nd;
  const int* first_step;  // per histogram row
  const int* weights;     // kContrastWeights
  const float* reciprocal;
  float* out;  // packed w x h
  bool plant;  // planted: every pixel counted as if in the mask
};

// One 16x16 block of banding values. Shared memory: the tile, then per thread 2 nd + 1 counters.
__global__ void banding_kernel(BandingArgs a) {
  extern __shared__ unsigned char shared[];
  const int side = kTile + 2 * a.pad;
  short* tile = reinterpret_cast<short*>(shared);
  unsigned short* counts = reinterpret_cast<unsigned short*>(tile + side * side + (side * side & 1));
  const int top = int(blockIdx.y) * kTile - a.pad, left = int(blockIdx.x) * kTile - a.pad;
  const int tid = int(threadIdx.y) * kTile + int(threadIdx.x);
  for (int k = tid; k < side * side; k += kTile * kTile) {
    const int r = top + k / side, c = left + k % side;
    short v = -1;
    if (r >= 0 && r < a.h && c >= 0 && c < a.w) {
      const long long at = r * a.stride + c;
      v = short(cells::counted_value(a.img[at], a.plant ? 1 : a.mask[at], a.base, a.size));
    }
    tile[k] = v;
  }
  __syncthreads();
  const int i = int(blockIdx.y) * kTile + int(threadIdx.y), j = int(blockIdx.x) * kTile + int(threadIdx.x);
  if (i >= a.h || j >= a.w) return;
  const TileRows rows{tile, side, top, left};
  const int cv = rows(i, j);
  float v = 0.0f;
  if (cv >= 0 && a.first_step[cv] < a.nd)
    v = cells::banding_value_at(rows, i, j, a.pad, cv, a.first_step[cv], a.nd, a.weights, a.reciprocal,
                                counts + tid, kTile * kTile);
  a.out[(long long)i * a.w + j] = v;
}

std::size_t banding_shared_bytes(int pad, int nd) {
  const int side = kTile + 2 * pad;
  return std::size_t(side * side + (side * side & 1)) * sizeof(short) +
         std::size_t(2 * nd + 1) * kTile * kTile * sizeof(unsigned short);
}

class CambiCuda final : public cuda::StagedTwin<float> {
 public:
  explicit CambiCuda(const OptionValues& o) : front_(o) {}
  unsigned planes_read() const override { return 1; }  // luma

 private:
  // One picture's buffers (the distorted picture's, and the reference's with full_ref).
  struct Picture {
    const Target* t = nullptr;
    std::size_t offset = 0;  // its values in the results
    seam::Buffer<int> xs, ys;
    seam::Buffer<unsigned short> img[2];
    seam::Buffer<unsigned char> mask[2];
  };

  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    heatmaps_.reset();
    if (!front_.heatmaps_path().empty())
      heatmaps_ = std::make_unique<Heatmaps>(front_.heatmaps_path(), front_.encode().w, front_.encode().h,
                                             front_.encode().window, front_.setup().num_diffs);
    const Setup& s = front_.setup();
    std::vector<int> first(std::size_t(std::max(s.band_size, 1)), s.num_diffs);
    for (int cv = 0; cv < s.band_size; ++cv)
      first[std::size_t(cv)] = cells::first_step(cv, s.band_base, s.num_diffs, s.tvi.data(), s.vlt);
    first_step_ = plan.table(std::span<const int>(first));
    weights_ = plan.table(std::span<const int>(kContrastWeights));
    reciprocal_ = plan.table(reciprocal_table());
    pictures_ = front_.full_ref() ? 2 : 1;
    std::size_t offset = 2;  // results[0], [1]: the largest samples of dist and ref (10/12 bits)
    for (int k = 0; k < pictures_; ++k) {
      Picture& p = pic_[k];
      p.t = k == 0 ? &front_.encode() : &front_.source();
      p.offset = offset;
      offset += front_.values_count(*p.t);
      p.xs = plan.table(std::span<const int>(p.t->xs));
      p.ys = plan.table(std::span<const int>(p.t->ys));
      const std::size_t n = std::size_t(p.t->w) * std::size_t(p.t->h);
      for (int b = 0; b < 2; ++b) {
        p.img[b] = plan.scratch<unsigned short>(n);
        p.mask[b] = plan.scratch<unsigned char>(n);
      }
    }
    plan.results(offset, /*zeroed=*/true);
    int largest_pad = 0;
    for (int k = 0; k < pictures_; ++k) largest_pad = std::max(largest_pad, pic_[k].t->window >> 1);
    const std::size_t shared = banding_shared_bytes(largest_pad, s.num_diffs);
    if (shared > 48 * 1024)
      cuda::check(cudaFuncSetAttribute(banding_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)),
                  "cudaFuncSetAttribute (cambi banding)");
  }

  void record(const cuda::Frame<float>& frame) override {
    for (int k = 0; k < pictures_; ++k)
      enqueue_picture(frame, pic_[k], k == 0 ? frame.dist().plane[0] : frame.ref().plane[0], frame.results() + k);
  }

  void enqueue_picture(const cuda::Frame<float>& frame, const Picture& p, const cuda::DevicePlane& plane,
                       float* largest) const {
    const Setup& s = front_.setup();
    const Target& t = *p.t;
    const cudaStream_t st = frame.stream();
    const long long n = (long long)t.w * t.h;
    if (s.bitdepth == 10 || s.bitdepth == 12) {
      max_kernel<<<blocks((long long)plane.width * plane.height), kThreads, 0, st>>>(plane, largest);
      cuda::check(cudaGetLastError(), "cambi range kernel launch");
    }
    unsigned short* img[2] = {frame[p.img[0]], frame[p.img[1]]};
    unsigned char* mask[2] = {frame[p.mask[0]], frame[p.mask[1]]};
    int cur = 0;
    if (s.bitdepth == 8)
      to_10bit_kernel<unsigned char><<<blocks(n), kThreads, 0, st>>>(plane, 8, frame[p.xs], frame[p.ys], t.w, t.h, img[0]);
    else
      to_10bit_kernel<unsigned short>
          <<<blocks(n), kThreads, 0, st>>>(plane, s.bitdepth, frame[p.xs], frame[p.ys], t.w, t.h, img[0]);
    cuda::check(cudaGetLastError(), "cambi conversion kernel launch");
    if (s.enc_bitdepth < 10) {
      anti_dither_kernel<<<blocks(n), kThreads, 0, st>>>(img[0], t.w, t.h, img[1]);
      cuda::check(cudaGetLastError(), "cambi anti-dithering kernel launch");
      cur = 1;
    }
    // The flat flags go to mask[1], the mask to mask[0].
    flat_kernel<<<blocks(n), kThreads, 0, st>>>(img[cur], t.w, t.h, mask[1]);
    mask_kernel<<<blocks(n), kThreads, 0, st>>>(mask[1], t.w, t.h, mask_threshold(t.w, t.h), mask[0]);
    cuda::check(cudaGetLastError(), "cambi spatial mask kernel launch");
    int mcur = 0;
    const bool plant = cuda::plant("cambi_cuda_mask_ignored");
    float* out = frame.results() + p.offset;
    for (int scale = 0; scale < kNumScales; ++scale) {
      int w = 0, h = 0;
      front_.scale_size(t, scale, w, h);
      const long long m = (long long)w * h;
      if (scale > 0 || s.high_res_speedup) {
        decimate_kernel<<<blocks(m), kThreads, 0, st>>>(img[cur], (long long)t.w, w, h, img[cur ^ 1]);
        decimate_kernel<<<blocks(m), kThreads, 0, st>>>(mask[mcur], (long long)t.w, w, h, mask[mcur ^ 1]);
        cuda::check(cudaGetLastError(), "cambi decimation kernel launch");
        cur ^= 1;
        mcur ^= 1;
      }
      mode_kernel<<<blocks(m), kThreads, 0, st>>>(img[cur], (long long)t.w, w, h, img[cur ^ 1]);
      cuda::check(cudaGetLastError(), "cambi mode filter kernel launch");
      cur ^= 1;
      const int pad = t.window >> 1;
      const BandingArgs a{img[cur],           mask[mcur],       (long long)t.w,     w,   h,    pad, s.band_base,
                          s.band_size,        s.num_diffs,      frame[first_step_], frame[weights_], frame[reciprocal_],
                          out,                plant};
      if (s.band_size > 0) {
        const dim3 grid(unsigned((w + kTile - 1) / kTile), unsigned((h + kTile - 1) / kTile));
        banding_kernel<<<grid, dim3(kTile, kTile), banding_shared_bytes(pad, s.num_diffs), st>>>(a);
        cuda::check(cudaGetLastError(), "cambi banding kernel launch");
      }  // else: every value is 0 (the results are zeroed)
      out += m;
    }
  }

  void reduce(std::span<const float> staged, unsigned index, FeatureSink& out) override {
    const Setup& s = front_.setup();
    double score[2] = {0, 0};
    for (int k = 0; k < pictures_; ++k) {
      if (s.bitdepth == 10 || s.bitdepth == 12) {
        const unsigned largest = unsigned(staged[std::size_t(k)]), max = (1u << s.bitdepth) - 1;
        if (largest > max)
          throw Error("cambi: the picture holds the value " + std::to_string(largest) + ", above the " +
                      std::to_string(s.bitdepth) + "-bit maximum " + std::to_string(max));
      }
      const float* values = staged.data() + pic_[k].offset;
      if (k == 0 && heatmaps_) {  // the distorted picture's values, scale after scale
        const float* v = values;
        for (int scale = 0; scale < kNumScales; ++scale) {
          int w = 0, h = 0;
          front_.scale_size(*pic_[k].t, scale, w, h);
          heatmaps_->write(scale, v, w, h, index);
          v += std::size_t(w) * std::size_t(h);
        }
      }
      std::vector<float> scratch;  // reduce() runs for several slots at once
      score[k] = front_.score(*pic_[k].t, values, scratch);
    }
    front_.emit(score[0], score[1], index, out);
  }

  Front front_;
  std::unique_ptr<Heatmaps> heatmaps_;
  int pictures_ = 1;
  Picture pic_[2];
  seam::Buffer<int> first_step_, weights_;
  seam::Buffer<float> reciprocal_;
};

}  // namespace
}  // namespace cambi

extern const ExtractorInfo kCambiCudaInfo;
const ExtractorInfo kCambiCudaInfo =
    twin_extractor<cambi::CambiCuda>(cambi::kSpec, Backend::kCuda, "cambi_cuda", nullptr);

}  // namespace vqtwin
