// cambi_cuda: cambi's per-pixel work and the pooling's selection on the device, the pooled sums'
// last steps on the host (front.hpp).
//   device, per picture (the distorted one at the encode size; with full_ref the reference at the
//     source size, its own buffers): the 10-bit conversion through the nearest-neighbour positions
//     and the anti-dithering filter (one pass), the spatial mask (flat flags in shared memory, one
//     pass), then per scale the decimation with the mode filter (one pass) and the banding values:
//     one thread per output through cells.hpp (the CPU's loop body for that output). The banding
//     values count each pixel's window from a tile of histogram rows in shared memory (32x64 pixels
//     and their margins), into per-thread counters of the 2 nd + 1 rows around the pixel's own: the
//     counts the CPU's sliding histograms hold, so the same step responses. A thread takes a column
//     of 8 pixels and carries the counts down it while the histogram row stays (two window rows a
//     pixel instead of all of them). Then, for the five scales at once, each scale's k-th largest
//     value (a radix selection of the value bits, cells.hpp), how many values lie above it and their
//     exact sum in 2^-24 units (TopkSummary, math.hpp): what is read back, a few hundred bytes a
//     frame. 10/12-bit pictures also get their largest sample (libvmaf refuses samples above the
//     bit depth).
//   host, in read_back(): the refusal, then each scale's pooled value from its summary where that is
//     provably libvmaf's ordered double sum (pool_topk_from_summary: every partial sum exact); else
//     (a top-k total of 2^29 or more, a value out of range; the heatmap files, which need every
//     value) the scales' values copied back and pooled by the CPU's code (libvmaf's selection order
//     decides the double sum's order); then the weighted sum through the front.
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

unsigned blocks(long long n) { return cuda::blocks_for(n, kThreads, 1, 65535); }

// What one frame reads back: per picture its largest sample (10/12 bits) and each scale's summary.
struct Results {
  unsigned largest[2];
  TopkSummary scales[2][kNumScales];
};

// The largest sample of plane p into *out (zeroed).
__global__ void max_kernel(cuda::DevicePlane p, unsigned* out) {
  unsigned m = 0;
  VQTWIN_GRID_STRIDE(i, (long long)p.width * p.height) {
    const unsigned v = p.row<unsigned short>(int(i / p.width))[int(i % p.width)];
    m = v > m ? v : m;
  }
  for (int o = 16; o > 0; o >>= 1) m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
  if ((threadIdx.x & 31) == 0 && m) atomicMax(out, m);
}

// The picture at 10 bits through the sample positions, anti-dithered when `anti_dither`.
template <class T>
__global__ void to_10bit_kernel(cuda::DevicePlane p, int bitdepth, const int* xs, const int* ys, int w, int h,
                                bool anti_dither, unsigned short* out) {
  const auto px = [&](int r, int c) -> unsigned short { return cells::to_10bit(p.row<T>(ys[r])[xs[c]], bitdepth); };
  VQTWIN_GRID_STRIDE(i, (long long)w * h) {
    const int y = int(i / w), x = int(i % w);
    out[i] = anti_dither ? cells::anti_dither_of(px, w, h, y, x) : px(y, x);
  }
}

// The spatial mask: blocks of 32x8 pixels, the flat flags of the block and its 3-pixel margins
// (cells::flat_at) into shared memory first, then each pixel's count of them (cells::mask_of).
constexpr int kMaskCols = 32, kMaskRows = 8, kMaskPad = kMaskFilterSize / 2;
constexpr int kMaskSide = kMaskCols + 2 * kMaskPad, kMaskTall = kMaskRows + 2 * kMaskPad;
__global__ void mask_kernel(const unsigned short* img, int w, int h, int threshold, unsigned char* mask) {
  __shared__ unsigned char flat[kMaskTall][kMaskSide];
  const int top = int(blockIdx.y) * kMaskRows - kMaskPad, left = int(blockIdx.x) * kMaskCols - kMaskPad;
  for (int k = int(threadIdx.y) * kMaskCols + int(threadIdx.x); k < kMaskSide * kMaskTall; k += kMaskCols * kMaskRows) {
    const int r = top + k / kMaskSide, c = left + k % kMaskSide;
    // Outside the picture: never read (mask_of skips those positions).
    flat[k / kMaskSide][k % kMaskSide] = r >= 0 && r < h && c >= 0 && c < w ? cells::flat_at(img, w, h, r, c) : 0;
  }
  __syncthreads();
  const int i = int(blockIdx.y) * kMaskRows + int(threadIdx.y), j = int(blockIdx.x) * kMaskCols + int(threadIdx.x);
  if (i >= h || j >= w) return;
  const unsigned char* tile = &flat[0][0];
  const auto f = [tile, top, left](int y, int x) -> int { return tile[(y - top) * kMaskSide + (x - left)]; };
  mask[(long long)i * w + j] = cells::mask_of(f, w, h, threshold, i, j);
}

// One scale's picture: the mode filter of the picture `in` (row stride `stride`) read at every
// `step`-th row and column (step 2: decimated), into the w x h picture `out`, same stride; with
// step 2 the mask is decimated alongside.
__global__ void mode_kernel(const unsigned short* in, long long stride, int step, int w, int h, unsigned short* out,
                            const unsigned char* mask_in, unsigned char* mask_out) {
  const long long row = stride * step;
  const auto px = [in, row, step](int r, int c) -> unsigned short { return in[r * row + (long long)c * step]; };
  VQTWIN_GRID_STRIDE(i, (long long)w * h) {
    const int y = int(i / w), x = int(i % w);
    out[y * stride + x] = cells::mode_of(px, w, h, y, x);
    if (step == 2) mask_out[y * stride + x] = cells::decimate_at(mask_in, stride, y, x);
  }
}

// The banding values: blocks of 32 columns by 64 rows (kBandCols x kBandRows), one thread per column
// of 8 rows (kRun), the rows counted from a tile of histogram rows in shared memory.
constexpr int kBandCols = 32, kRun = 8, kBandRows = 64;
constexpr int kBandThreads = kBandCols * (kBandRows / kRun);

// The tile of histogram rows (cells::counted_value; -1 outside the picture) around one block.
struct TileRows {
  const short* tile;
  int side, top, left;  // the tile's row length, first row and first column in the picture
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

// One block of banding values (cells::banding_column per thread). Shared memory: the tile, then per
// thread 2 nd + 1 counters.
__global__ void banding_kernel(BandingArgs a) {
  extern __shared__ unsigned char shared[];
  const int side = kBandCols + 2 * a.pad, tall = kBandRows + 2 * a.pad;
  short* tile = reinterpret_cast<short*>(shared);
  unsigned short* counts = reinterpret_cast<unsigned short*>(tile + side * tall + (side * tall & 1));
  const int top = int(blockIdx.y) * kBandRows - a.pad, left = int(blockIdx.x) * kBandCols - a.pad;
  const int tid = int(threadIdx.y) * kBandCols + int(threadIdx.x);
  for (int k = tid; k < side * tall; k += kBandThreads) {
    const int r = top + k / side, c = left + k % side;
    short v = -1;
    if (r >= 0 && r < a.h && c >= 0 && c < a.w) {
      const long long at = r * a.stride + c;
      v = short(cells::counted_value(a.img[at], a.plant ? 1 : a.mask[at], a.base, a.size));
    }
    tile[k] = v;
  }
  __syncthreads();
  const int j = int(blockIdx.x) * kBandCols + int(threadIdx.x);
  if (j >= a.w) return;
  const TileRows rows{tile, side, top, left};
  float* out = a.out;
  const int w = a.w;
  cells::banding_column(rows, int(blockIdx.y) * kBandRows + int(threadIdx.y) * kRun, kRun, a.h, j, a.pad,
                        a.first_step, a.nd, a.weights, a.reciprocal, counts + tid, kBandThreads,
                        [out, w, j](int i, float v) { out[(long long)i * w + j] = v; });
}

std::size_t banding_shared_bytes(int pad, int nd) {
  const int cells_in_tile = (kBandCols + 2 * pad) * (kBandRows + 2 * pad);
  return std::size_t(cells_in_tile + (cells_in_tile & 1)) * sizeof(short) +
         std::size_t(2 * nd + 1) * kBandThreads * sizeof(unsigned short);
}

// The five scales of one picture's values, packed one after the other: scale s is
// [start[s], start[s + 1]), k[s] its pooling count (topk_count).
struct Scales {
  long long start[kNumScales + 1];
  int k[kNumScales];
};

// One selection level's histogram of scale blockIdx.y's values (the values in the bins chosen so far:
// state[2 s] holds the prefix), counted in shared memory; the bin of 0s (most values) by warp votes.
__global__ void select_histogram_kernel(const float* values, Scales sc, int level, const unsigned* state,
                                        unsigned* hist) {
  __shared__ unsigned bins[2048];
  const int s = int(blockIdx.y);
  const unsigned nb = cells::select_bins(level);
  for (unsigned b = threadIdx.x; b < nb; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  const unsigned prefix = level > 0 ? state[2 * s] : 0u;
  const long long end = sc.start[s + 1], stride = (long long)gridDim.x * blockDim.x;
  for (long long base = sc.start[s] + (long long)blockIdx.x * blockDim.x; base < end; base += stride) {
    const long long i = base + threadIdx.x;
    unsigned key = 0;
    const bool in = i < end && cells::select_key(__float_as_uint(values[i]), level, prefix, key);
    const unsigned zeros = __ballot_sync(0xffffffffu, in && key == 0);
    if (in && key != 0) atomicAdd(&bins[key], 1u);
    if ((threadIdx.x & 31) == 0 && zeros) atomicAdd(&bins[0], unsigned(__popc(zeros)));
  }
  __syncthreads();
  unsigned* h = hist + s * cells::kSelectHistogram + cells::select_offset(level);
  for (unsigned b = threadIdx.x; b < nb; b += blockDim.x)
    if (bins[b]) atomicAdd(&h[b], bins[b]);
}

// One selection level of every scale (one block of 1024 threads each): the bin of the wanted rank
// (cells::find_bin's, by a suffix sum over the threads' bins), into the state (prefix, rank within
// the bin); at the last level the k-th largest value's bits into the summary.
constexpr unsigned kSelectThreads = 1024;
__global__ void select_bin_kernel(Scales sc, int level, const unsigned* hist, unsigned* state, TopkSummary* out) {
  __shared__ unsigned part[kSelectThreads];
  const int s = int(blockIdx.x);
  const unsigned t = threadIdx.x, per = cells::select_bins(level) / kSelectThreads;  // 2 or 1
  const unsigned* h = hist + s * cells::kSelectHistogram + cells::select_offset(level);
  const unsigned prefix = level > 0 ? state[2 * s] : 0u;
  const unsigned r = level > 0 ? state[2 * s + 1] : unsigned(sc.k[s]);
  unsigned mine = 0;
  for (unsigned q = 0; q < per; ++q) mine += h[t * per + q];
  part[t] = mine;
  __syncthreads();
  for (unsigned o = 1; o < kSelectThreads; o <<= 1) {  // part[t]: the sum over threads t and above
    const unsigned add = t + o < kSelectThreads ? part[t + o] : 0u;
    __syncthreads();
    part[t] += add;
    __syncthreads();
  }
  unsigned above = part[t] - mine;
  for (unsigned q = per; q-- > 0;) {
    const unsigned b = t * per + q, c = h[b];
    if (above < r && r <= above + c) {
      const unsigned p = cells::select_prefix(prefix, level, b);
      if (level + 1 < cells::kSelectLevels) {
        state[2 * s] = p;
        state[2 * s + 1] = r - above;
      } else {
        out[s].kth_bits = p;
      }
    }
    above += c;
  }
}

// Each scale's values above its k-th largest: their count and exact sum (fixed_24), and whether any
// value is out of fixed_24's range. Warp sums, one atomic per warp.
__global__ void select_sum_kernel(const float* values, Scales sc, TopkSummary* out, bool plant) {
  const int s = int(blockIdx.y);
  const unsigned kth = out[s].kth_bits;
  unsigned above = 0, bad = 0;
  unsigned long long sum = 0;
  const long long end = sc.start[s + 1], stride = (long long)gridDim.x * blockDim.x;
  for (long long i = sc.start[s] + (long long)blockIdx.x * blockDim.x + threadIdx.x; i < end; i += stride) {
    const unsigned bits = __float_as_uint(values[i]);
    std::uint64_t f = 0;
    // planted: the last mantissa bit of each summed value dropped
    if (!cambi::fixed_24(plant ? bits & ~1u : bits, f)) bad = 1;
    else if (bits > kth) {
      ++above;
      sum += f;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    above += __shfl_xor_sync(0xffffffffu, above, o);
    sum += __shfl_xor_sync(0xffffffffu, sum, o);
    bad |= __shfl_xor_sync(0xffffffffu, bad, o);
  }
  if ((threadIdx.x & 31) == 0 && (above | bad)) {
    atomicAdd(&out[s].above, above);
    atomicAdd(reinterpret_cast<unsigned long long*>(&out[s].above_sum), sum);
    atomicOr(&out[s].bad, bad);
  }
}

class CambiCuda final : public cuda::StagedTwin<Results> {
 public:
  explicit CambiCuda(const OptionValues& o) : front_(o) {}
  unsigned planes_read() const override { return 1; }  // luma

 private:
  // One picture's buffers (the distorted picture's, and the reference's with full_ref).
  struct Picture {
    const Target* t = nullptr;
    Scales scales{};
    seam::Buffer<int> xs, ys;
    seam::Buffer<unsigned short> img[2];
    seam::Buffer<unsigned char> mask[2];
    seam::Buffer<float> values;     // the five scales' banding values, packed
    seam::Buffer<unsigned> select;  // per scale the three histograms, then per scale (prefix, rank)
  };

  void declare(const PictureFormat& f, seam::TwinPlan<Results>& plan) override {
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
    // The summaries' sums stay below 2^64 while a scale has fewer than 2^26 values (each below 2^38 units).
    summaries_ = true;
    for (int k = 0; k < pictures_; ++k) {
      Picture& p = pic_[k];
      p.t = k == 0 ? &front_.encode() : &front_.source();
      p.scales.start[0] = 0;
      for (int scale = 0; scale < kNumScales; ++scale) {
        int w = 0, h = 0;
        front_.scale_size(*p.t, scale, w, h);
        const long long m = (long long)w * h;
        summaries_ = summaries_ && m < (1LL << 26);
        p.scales.start[scale + 1] = p.scales.start[scale] + m;
        p.scales.k[scale] = topk_count(int(m), s.topk);
      }
      p.xs = plan.table(std::span<const int>(p.t->xs));
      p.ys = plan.table(std::span<const int>(p.t->ys));
      const std::size_t n = std::size_t(p.t->w) * std::size_t(p.t->h);
      for (int b = 0; b < 2; ++b) {
        p.img[b] = plan.scratch<unsigned short>(n);
        p.mask[b] = plan.scratch<unsigned char>(n);
      }
      p.values = plan.scratch<float>(front_.values_count(*p.t));
      p.select = plan.scratch<unsigned>(kSelectWords);
    }
    plan.results(1, /*zeroed=*/true);
    int largest_pad = 0;
    for (int k = 0; k < pictures_; ++k) largest_pad = std::max(largest_pad, pic_[k].t->window >> 1);
    const std::size_t shared = banding_shared_bytes(largest_pad, s.num_diffs);
    if (shared > 48 * 1024)
      cuda::check(cudaFuncSetAttribute(banding_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)),
                  "cudaFuncSetAttribute (cambi banding)");
  }

  void record(const cuda::Frame<Results>& frame) override {
    for (int k = 0; k < pictures_; ++k)
      enqueue_picture(frame, pic_[k], k == 0 ? frame.dist().plane[0] : frame.ref().plane[0], k);
  }

  void enqueue_picture(const cuda::Frame<Results>& frame, const Picture& p, const cuda::DevicePlane& plane,
                       int k) const {
    const Setup& s = front_.setup();
    const Target& t = *p.t;
    const cudaStream_t st = frame.stream();
    const long long n = (long long)t.w * t.h;
    if (s.bitdepth == 10 || s.bitdepth == 12) {
      max_kernel<<<blocks((long long)plane.width * plane.height), kThreads, 0, st>>>(plane,
                                                                                     &frame.results()->largest[k]);
      cuda::check(cudaGetLastError(), "cambi range kernel launch");
    }
    unsigned short* img[2] = {frame[p.img[0]], frame[p.img[1]]};
    unsigned char* mask[2] = {frame[p.mask[0]], frame[p.mask[1]]};
    const bool anti_dither = s.enc_bitdepth < 10;
    if (s.bitdepth == 8)
      to_10bit_kernel<unsigned char>
          <<<blocks(n), kThreads, 0, st>>>(plane, 8, frame[p.xs], frame[p.ys], t.w, t.h, anti_dither, img[0]);
    else
      to_10bit_kernel<unsigned short>
          <<<blocks(n), kThreads, 0, st>>>(plane, s.bitdepth, frame[p.xs], frame[p.ys], t.w, t.h, anti_dither, img[0]);
    cuda::check(cudaGetLastError(), "cambi conversion kernel launch");
    const dim3 mask_grid(unsigned((t.w + kMaskCols - 1) / kMaskCols), unsigned((t.h + kMaskRows - 1) / kMaskRows));
    mask_kernel<<<mask_grid, dim3(kMaskCols, kMaskRows), 0, st>>>(img[0], t.w, t.h, mask_threshold(t.w, t.h), mask[0]);
    cuda::check(cudaGetLastError(), "cambi spatial mask kernel launch");
    int cur = 0, mcur = 0;
    const bool plant = cuda::plant("cambi_cuda_mask_ignored");
    float* values = frame[p.values];
    if (s.band_size <= 0)  // no histogram row: every value is 0
      cuda::check(cudaMemsetAsync(values, 0, std::size_t(p.scales.start[kNumScales]) * sizeof(float), st),
                  "cudaMemsetAsync (cambi values)");
    for (int scale = 0; scale < kNumScales; ++scale) {
      int w = 0, h = 0;
      front_.scale_size(t, scale, w, h);
      const long long m = (long long)w * h;
      const int step = scale > 0 || s.high_res_speedup ? 2 : 1;
      mode_kernel<<<blocks(m), kThreads, 0, st>>>(img[cur], (long long)t.w, step, w, h, img[cur ^ 1], mask[mcur],
                                                  mask[mcur ^ 1]);
      cuda::check(cudaGetLastError(), "cambi decimation and mode filter kernel launch");
      cur ^= 1;
      if (step == 2) mcur ^= 1;
      const int pad = t.window >> 1;
      const BandingArgs a{img[cur],           mask[mcur],       (long long)t.w,     w,   h,    pad, s.band_base,
                          s.band_size,        s.num_diffs,      frame[first_step_], frame[weights_], frame[reciprocal_],
                          values + p.scales.start[scale],       plant};
      if (s.band_size > 0) {
        const dim3 grid(unsigned((w + kBandCols - 1) / kBandCols), unsigned((h + kBandRows - 1) / kBandRows));
        banding_kernel<<<grid, dim3(kBandCols, kBandRows / kRun), banding_shared_bytes(pad, s.num_diffs), st>>>(a);
        cuda::check(cudaGetLastError(), "cambi banding kernel launch");
      }
    }
    if (summaries_) enqueue_selection(frame, p, frame.results()->scales[k]);
  }

  // Each scale's summary (TopkSummary) from its values.
  void enqueue_selection(const cuda::Frame<Results>& frame, const Picture& p, TopkSummary* out) const {
    const cudaStream_t st = frame.stream();
    unsigned* select = frame[p.select];
    unsigned* state = select + kNumScales * cells::kSelectHistogram;
    cuda::check(cudaMemsetAsync(select, 0, kSelectWords * sizeof(unsigned), st), "cudaMemsetAsync (cambi selection)");
    const long long largest = p.scales.start[1];  // scale 0 is the largest
    const dim3 grid(cuda::blocks_for(largest, kThreads, 32, 1024), kNumScales);
    for (int level = 0; level < cells::kSelectLevels; ++level) {
      select_histogram_kernel<<<grid, kThreads, 0, st>>>(frame[p.values], p.scales, level, state, select);
      select_bin_kernel<<<kNumScales, kSelectThreads, 0, st>>>(p.scales, level, select, state, out);
    }
    select_sum_kernel<<<grid, kThreads, 0, st>>>(frame[p.values], p.scales, out, cuda::plant("cambi_cuda_sum_low_bit"));
    cuda::check(cudaGetLastError(), "cambi selection kernel launch");
  }

  void read_back(cuda::CudaSlot& slot, unsigned index, FeatureSink& out) override {
    const Setup& s = front_.setup();
    const Results r = staged(slot).view()[0];
    double score[2] = {0, 0};
    for (int k = 0; k < pictures_; ++k) {
      if (s.bitdepth == 10 || s.bitdepth == 12) {
        const unsigned max = (1u << s.bitdepth) - 1;
        if (r.largest[k] > max)
          throw Error("cambi: the picture holds the value " + std::to_string(r.largest[k]) + ", above the " +
                      std::to_string(s.bitdepth) + "-bit maximum " + std::to_string(max));
      }
      const bool heatmaps = k == 0 && heatmaps_;
      if (!heatmaps && summaries_ && front_.score_from_summaries(*pic_[k].t, r.scales[k], score[k])) continue;
      // The values themselves (the slot's buffers stay as they are until read_back returns).
      std::vector<float> values(front_.values_count(*pic_[k].t));
      restage(slot, index, [&](const cuda::Frame<Results>& f) {
        cuda::check(cudaMemcpyAsync(values.data(), f[pic_[k].values], values.size() * sizeof(float),
                                    cudaMemcpyDeviceToHost, f.stream()),
                    "cudaMemcpyAsync (cambi values)");
      });
      if (heatmaps) {  // the distorted picture's values, scale after scale
        const float* v = values.data();
        for (int scale = 0; scale < kNumScales; ++scale) {
          int w = 0, h = 0;
          front_.scale_size(*pic_[k].t, scale, w, h);
          heatmaps_->write(scale, v, w, h, index);
          v += std::size_t(w) * std::size_t(h);
        }
      }
      std::vector<float> scratch;  // read_back runs for several slots at once
      score[k] = front_.score(*pic_[k].t, values.data(), scratch);
    }
    front_.emit(score[0], score[1], index, out);
  }
  // Everything is done in read_back (which may need the values again).
  void reduce(std::span<const Results>, unsigned, FeatureSink&) override {}

  static constexpr std::size_t kSelectWords = kNumScales * cells::kSelectHistogram + 2 * kNumScales;

  Front front_;
  std::unique_ptr<Heatmaps> heatmaps_;
  int pictures_ = 1;
  bool summaries_ = true;  // the selection runs on the device
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
