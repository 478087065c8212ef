// ciede's frame loops (frame.hpp).
#include "features/ciede/frame.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "features/ciede/front.hpp"
#include "features/ciede/math.hpp"

namespace vqtwin::ciede {
namespace {

// Up to kBatch queued pixel pairs: the reference's samples in [0, kBatch), the distorted's after them (moved
// to [n, 2n) when the batch is prepared), and where the colours live in the memo.
struct Batch {
  std::uint16_t y[2 * kBatch], u[2 * kBatch], v[2 * kBatch];
  std::uint32_t at[kBatch];  // raster index of each pixel (per_pixel only)
  LabCache::Slots slots;
  int n = 0;
};

template <class T>
double fast_sum(const BatchKernels& kernels, LabCache& cache, const ChromaMap& map, const Picture& ref,
                const Picture& dist, float* per_pixel) {
  const PictureFormat& f = ref.format();
  const unsigned bpc = unsigned(f.bitdepth);
  // Two batches: one is filled (then prepared: the memo's slots prefetched) while the other, prepared before,
  // waits; a batch's look-ups and differences are computed once the next one is prepared, so the memory loads
  // of one overlap the arithmetic of the other. Batches finish in order: the sum stays in raster order.
  Batch batches[2];
  Batch* filling = &batches[0];
  Batch* waiting = nullptr;
  Lab lab[2 * kBatch];
  float de[kBatch];
  double sum = 0.;
  auto finish = [&](Batch& b) {
    cache.lookup(kernels, b.y, b.u, b.v, 2 * b.n, bpc, b.slots, lab);
    kernels.ciede2000(lab, lab + b.n, b.n, de);
    for (int k = 0; k < b.n; ++k) sum += de[k];  // raster order
    if (per_pixel != nullptr)
      for (int k = 0; k < b.n; ++k) per_pixel[b.at[k]] = de[k];
    b.n = 0;
  };
  auto flush = [&] {  // prepares the batch being filled, finishes the waiting one
    Batch& b = *filling;
    if (b.n == 0) return;
    for (int k = 0; k < b.n; ++k) b.y[b.n + k] = b.y[kBatch + k], b.u[b.n + k] = b.u[kBatch + k], b.v[b.n + k] = b.v[kBatch + k];
    cache.prepare(b.y, b.u, b.v, 2 * b.n, bpc, b.slots);
    if (waiting != nullptr) finish(*waiting);
    waiting = filling;
    filling = filling == &batches[0] ? &batches[1] : &batches[0];
  };
  // Queues pixel (x, y) (the samples as libvmaf pairs them).
  auto queue = [&](int x, int y, unsigned ry, unsigned ru, unsigned rv, unsigned dy, unsigned du, unsigned dv) {
    // Equal colours differ by exactly +0 (every CIEDE2000 term is a zero over a positive weight), and adding
    // +0 leaves the sum as it is.
    if (ry == dy && ru == du && rv == dv) {
      if (per_pixel != nullptr) per_pixel[std::size_t(y) * std::size_t(f.width) + std::size_t(x)] = 0.0f;
      return;
    }
    Batch& b = *filling;
    const int n = b.n;
    b.y[n] = std::uint16_t(ry), b.u[n] = std::uint16_t(ru), b.v[n] = std::uint16_t(rv);
    b.y[kBatch + n] = std::uint16_t(dy), b.u[kBatch + n] = std::uint16_t(du), b.v[kBatch + n] = std::uint16_t(dv);
    b.at[n] = std::uint32_t(std::size_t(y) * std::size_t(f.width) + std::size_t(x));
    if (++b.n == kBatch) flush();
  };
  for (int y = 0; y < f.height; ++y) {
    const ChromaRow cr = map.row(y);
    const T* ry = ref.row<T>(0, y);
    const T* dy = dist.row<T>(0, y);
    if (map.plain()) {  // the common layouts: chroma straight from the plane row
      const int s = map.plain_shift();
      const T *ru = ref.row<T>(1, cr.row), *rv = ref.row<T>(2, cr.row);
      const T *du = dist.row<T>(1, cr.row), *dv = dist.row<T>(2, cr.row);
      for (int x = 0; x < f.width; ++x) queue(x, y, ry[x], ru[x >> s], rv[x >> s], dy[x], du[x >> s], dv[x >> s]);
      continue;
    }
    for (int x = 0; x < f.width; ++x)
      queue(x, y, ry[x], map.sample<T>(ref, 1, cr, x), map.sample<T>(ref, 2, cr, x), dy[x], map.sample<T>(dist, 1, cr, x),
            map.sample<T>(dist, 2, cr, x));
  }
  flush();
  if (waiting != nullptr) finish(*waiting);
  return sum;
}

template <class T>
double scalar_sum(const ChromaMap& map, const Picture& ref, const Picture& dist, float* per_pixel) {
  const PictureFormat& f = ref.format();
  double sum = 0.;
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) {
      const float d = pixel_difference<T>(map, ref, dist, x, y);
      sum += d;
      if (per_pixel != nullptr) per_pixel[std::size_t(y) * std::size_t(f.width) + std::size_t(x)] = d;
    }
  return sum;
}

}  // namespace

double difference_sum(const BatchKernels& kernels, LabCache& cache, const ChromaMap& map, const Picture& ref,
                      const Picture& dist, float* per_pixel) {
  return ref.format().bitdepth == 8 ? fast_sum<std::uint8_t>(kernels, cache, map, ref, dist, per_pixel)
                                    : fast_sum<std::uint16_t>(kernels, cache, map, ref, dist, per_pixel);
}

double reference_difference_sum(const ChromaMap& map, const Picture& ref, const Picture& dist, float* per_pixel) {
  return ref.format().bitdepth == 8 ? scalar_sum<std::uint8_t>(map, ref, dist, per_pixel)
                                    : scalar_sum<std::uint16_t>(map, ref, dist, per_pixel);
}

bool scalar_path_selected() {
  static const bool scalar = [] {
    const char* p = std::getenv("VQTWIN_CIEDE_PATH");
    return p != nullptr && std::string_view(p) == "scalar";
  }();
  return scalar;
}

}  // namespace vqtwin::ciede
