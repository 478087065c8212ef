// float_ssim_cuda: the float_ssim front (parameters, geometry, refusals, dB) on an SSIM map computed
// on the device with the CPU reference's arithmetic, step for step (spec float_ssim.md §12):
//   1. raw luma -> float plane: converted (scale 1) or box-decimated (scale > 1) from the raw samples,
//      one thread per output, the exact integer window sum of decimate_exact.hpp;
//   2. horizontal Gaussian pass of r, d, r*r, d*d, r*d (float products, double sums, float results);
//   3. vertical pass + per-pixel l, c, s (math.hpp, the CPU's own functions) -> per-pixel doubles;
//   4. their raster-order double sums, reproduced exactly (core/ordered_sum.hpp);
//   5. on the host: the means rounded to float (math.hpp: mean_of) and the front.
// No step rounds differently from the CPU, so every value is the CPU's, bit for bit.
#include <cmath>
#include <vector>

#include "backends/cuda/ordered_sum.hpp"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/float_ssim/decimate_exact.hpp"
#include "features/float_ssim/device_hooks.hpp"
#include "features/float_ssim/front.hpp"
#include "features/float_ssim/math.hpp"
#include "features/float_ssim/schema.hpp"

namespace vqtwin {
namespace float_ssim {
namespace {

constexpr unsigned kThreads = 256;

// How the plane kernel computes: the CPU's way, or one of the planted bugs the twin harness must
// catch (backends/cuda/twin.hpp).
enum class PlaneMode { kExact, kPlantMirror, kPlantFloatSum };

// The mirror off by one (libvmaf's other edge rule, -1 -> 1), clamped so the plant cannot fault.
struct OffByOneMirror {
  __device__ int operator()(int c, int n) const {
    int r = c < 0 ? -c : (c >= n ? 2 * n - 2 - c : c);
    return r < 0 ? 0 : (r >= n ? n - 1 : r);
  }
};

// The decimation with a float accumulator instead of the exact sum.
template <class T>
__device__ float float_sum_decimated(const T* plane, long stride, int w, int h, int x, int y, int s, float recip,
                                     float weight) {
  const int lo = s / 2;
  float acc = 0.0f;
  for (int v = 0; v < s; ++v) {
    const T* row = plane + long(mirror(y * s - lo + v, h)) * stride;
    for (int u = 0; u < s; ++u) acc += float(row[mirror(x * s - lo + u, w)]) * recip * weight;
  }
  return acc;
}

// One thread per output of the plane the SSIM runs on (out_w x out_h, packed).
template <class T, PlaneMode kMode>
__global__ void plane_kernel(cuda::DevicePlane src, int scale, float recip, float weight, int out_w, int out_h,
                             float* out) {
  const long n = long(out_w) * out_h;
  const T* base = src.row<T>(0);
  for (long i = long(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
    const int x = int(i % out_w), y = int(i / out_w);
    float v;
    if (scale == 1) v = float(src.row<T>(y)[x]) * recip;
    else if (kMode == PlaneMode::kPlantMirror)
      v = decimated_sample<T>(base, src.stride, src.width, src.height, x, y, scale, recip, weight, OffByOneMirror{});
    else if (kMode == PlaneMode::kPlantFloatSum)
      v = float_sum_decimated<T>(base, src.stride, src.width, src.height, x, y, scale, recip, weight);
    else v = decimated_sample<T>(base, src.stride, src.width, src.height, x, y, scale, recip, weight);
    out[i] = v;
  }
}

// Horizontal pass over every row: five planes of map_w x h (mu_r, mu_d, rr, dd, rd before the
// vertical pass), output x reading input columns x .. x+10.
__global__ void horizontal_kernel(const float* r, const float* d, int w, int h, float* out) {
  const int mw = w - (kWindow - 1);
  const long n = long(mw) * h;
  for (long i = long(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
    const int x = int(i % mw), y = int(i / mw);
    const float* pr = r + long(y) * w + x;
    const float* pd = d + long(y) * w + x;
    out[i] = gauss_pass(pr, 1);
    out[n + i] = gauss_pass(pd, 1);
    out[2 * n + i] = gauss_pass_products(pr, pr, 1);
    out[3 * n + i] = gauss_pass_products(pd, pd, 1);
    out[4 * n + i] = gauss_pass_products(pr, pd, 1);
  }
}

// Vertical pass and the per-pixel terms: l*c*s, and with enable_lcs l, c, s (arrays of map_w x map_h).
__global__ void pixel_kernel(const float* hm, int mw, int h, bool lcs, double* terms) {
  const int mh = h - (kWindow - 1);
  const long nh = long(mw) * h, n = long(mw) * mh;
  for (long i = long(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
    const float* at = hm + i;  // row y of the horizontal planes is row y of the map's first tap
    const PixelLcs p = pixel_lcs(gauss_pass(at, mw), gauss_pass(at + nh, mw), gauss_pass(at + 2 * nh, mw),
                                 gauss_pass(at + 3 * nh, mw), gauss_pass(at + 4 * nh, mw));
    terms[i] = p.l * p.c * p.s;
    if (lcs) {
      terms[n + i] = p.l;
      terms[2 * n + i] = p.c;
      terms[3 * n + i] = p.s;
    }
  }
}

template <class T>
void launch_plane(const cuda::DevicePlane& src, int scale, float recip, int out_w, int out_h, float* out,
                  cudaStream_t stream) {
  const float weight = box_weight(scale);
  const unsigned blocks = cuda::blocks_for((long long)out_w * out_h, kThreads);
  if (cuda::plant("float_ssim_cuda_mirror"))
    plane_kernel<T, PlaneMode::kPlantMirror><<<blocks, kThreads, 0, stream>>>(src, scale, recip, weight, out_w, out_h, out);
  else if (cuda::plant("float_ssim_cuda_fp32_decimation"))
    plane_kernel<T, PlaneMode::kPlantFloatSum><<<blocks, kThreads, 0, stream>>>(src, scale, recip, weight, out_w, out_h,
                                                                                 out);
  else
    plane_kernel<T, PlaneMode::kExact><<<blocks, kThreads, 0, stream>>>(src, scale, recip, weight, out_w, out_h, out);
  cuda::check(cudaGetLastError(), "float_ssim plane kernel launch");
}

// The conversion factor (the planted bug: one ulp too large).
float reciprocal(int bitdepth) {
  const float r = sample_scale(bitdepth);
  return cuda::plant("float_ssim_cuda_reciprocal_ulp") ? std::nextafter(r, 2.0f) : r;
}

void enqueue_plane(const cuda::DevicePlane& src, int bitdepth, int scale, int out_w, int out_h, float* out,
                   cudaStream_t stream) {
  if (bitdepth > 8) launch_plane<unsigned short>(src, scale, reciprocal(bitdepth), out_w, out_h, out, stream);
  else launch_plane<unsigned char>(src, scale, reciprocal(bitdepth), out_w, out_h, out, stream);
}

class FloatSsimCuda final : public cuda::StagedTwin<double> {
 public:
  explicit FloatSsimCuda(const OptionValues& o) : front_(o) {}
  unsigned planes_read() const override { return 1; }  // luma

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<double>& plan) override {
    front_.init(f);
    bitdepth_ = f.bitdepth;
    const Geometry& g = front_.geometry();
    arrays_ = front_.enable_lcs() ? 4 : 1;
    const std::size_t plane = std::size_t(g.plane_w) * std::size_t(g.plane_h);
    const std::size_t horizontal = std::size_t(g.map_w()) * std::size_t(g.plane_h);
    const std::size_t map = std::size_t(g.map_w()) * std::size_t(g.map_h());
    plan.results(std::size_t(arrays_));  // the raster-order sum of each term map
    planes_ = plan.scratch<float>(2 * plane);        // ref, dist
    moments_ = plan.scratch<float>(5 * horizontal);  // five horizontally filtered planes
    terms_ = plan.scratch<double>(std::size_t(arrays_) * map);  // per-pixel l*c*s (then l, c, s)
    sums_ = plan.per_slot<cuda::OrderedSums>(map, arrays_);
  }

  void record(const cuda::Frame<double>& frame) override {
    const Geometry& g = front_.geometry();
    const cudaStream_t st = frame.stream();
    const std::size_t plane = std::size_t(g.plane_w) * std::size_t(g.plane_h);
    float* r = frame[planes_];
    float* d = r + plane;
    enqueue_plane(frame.ref().plane[0], bitdepth_, g.scale, g.plane_w, g.plane_h, r, st);
    enqueue_plane(frame.dist().plane[0], bitdepth_, g.scale, g.plane_w, g.plane_h, d, st);
    horizontal_kernel<<<cuda::blocks_for((long long)g.map_w() * g.plane_h, kThreads), kThreads, 0, st>>>(
        r, d, g.plane_w, g.plane_h, frame[moments_]);
    cuda::check(cudaGetLastError(), "float_ssim horizontal kernel launch");
    pixel_kernel<<<cuda::blocks_for((long long)g.map_w() * g.map_h(), kThreads), kThreads, 0, st>>>(
        frame[moments_], g.map_w(), g.plane_h, arrays_ == 4, frame[terms_]);
    cuda::check(cudaGetLastError(), "float_ssim pixel kernel launch");
    frame[sums_].enqueue(frame[terms_], frame.results(), st);
  }

  void reduce(std::span<const double> totals, unsigned index, FeatureSink& out) override {
    const Geometry& g = front_.geometry();
    double sums[4] = {totals[0], 0, 0, 0};
    for (int j = 1; j < arrays_; ++j) sums[j] = totals[std::size_t(j)];
    if (cuda::plant("float_ssim_cuda_double_mean")) {
      const double n = double(g.map_w() * g.map_h());
      front_.emit_values(sums[0] / n, sums[1] / n, sums[2] / n, sums[3] / n, index, out);
      return;
    }
    const Means m{mean_of(sums[0], g.map_w(), g.map_h()), mean_of(sums[1], g.map_w(), g.map_h()),
                  mean_of(sums[2], g.map_w(), g.map_h()), mean_of(sums[3], g.map_w(), g.map_h())};
    front_.emit(m, index, out);
  }

  Front front_;
  int bitdepth_ = 8;
  int arrays_ = 1;
  seam::Buffer<float> planes_, moments_;
  seam::Buffer<double> terms_;
  seam::Object<cuda::OrderedSums> sums_;
};

}  // namespace

std::vector<float> device_luma_plane(const Picture& pic, int scale) {
  const PictureFormat& f = pic.format();
  const int out_w = scale > 1 ? decimated_size(f.width, scale) : f.width;
  const int out_h = scale > 1 ? decimated_size(f.height, scale) : f.height;
  const std::size_t bytes = std::size_t(f.bytes_per_sample());
  const std::size_t row = std::size_t(f.width) * bytes;
  cuda::Stream stream;
  cuda::DeviceArray<unsigned char> raw(row * std::size_t(f.height));
  cuda::DeviceArray<float> out(std::size_t(out_w) * std::size_t(out_h));
  cuda::check(cudaMemcpy2DAsync(raw.get(), row, pic.data(0), std::size_t(pic.stride_bytes(0)), row,
                                std::size_t(f.height), cudaMemcpyHostToDevice, stream.get()),
              "cudaMemcpy2DAsync");
  const cuda::DevicePlane plane{raw.get(), f.width, f.height, f.width};
  enqueue_plane(plane, f.bitdepth, scale, out_w, out_h, out.get(), stream.get());
  std::vector<float> host(out.size());
  cuda::check(cudaMemcpyAsync(host.data(), out.get(), out.size() * sizeof(float), cudaMemcpyDeviceToHost, stream.get()),
              "cudaMemcpyAsync");
  cuda::check(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
  return host;
}

}  // namespace float_ssim

extern const ExtractorInfo kFloatSsimCudaInfo;
const ExtractorInfo kFloatSsimCudaInfo = twin_extractor<float_ssim::FloatSsimCuda>(
    float_ssim::kSpec, Backend::kCuda, "float_ssim_cuda", &float_ssim::device_check);

}  // namespace vqtwin
