#pragma once
// Sequential double (or float) sums on the device, bit for bit the CPU's raster-order loop: the chunked
// method of core/ordered_sum.hpp (why it is exact, and why it is fast), shared by the SSIM and moment
// twins (double) and psnr_hvs (float). Scratch is allocated once per frame slot.
#include <cstddef>

#include "backends/cuda/memory.hpp"

namespace vqtwin::cuda {

template <class T>
class OrderedSumsOf {
 public:
  OrderedSumsOf() = default;
  // For `arrays` arrays of `n` terms each.
  OrderedSumsOf(std::size_t n, int arrays);
  // Enqueues result[j] = ((+0 + t_j[0]) + t_j[1]) + ... + t_j[n-1], t_j = terms + j * n, for every
  // array j, on `stream`. `result` is device memory (arrays values).
  void enqueue(const T* terms, T* result, cudaStream_t stream) const;

 private:
  std::size_t n_ = 0, length_ = 0, count_ = 0;
  int arrays_ = 0;
  DeviceArray<T> sums_, starts_, ends_, reach_;
};
using OrderedSums = OrderedSumsOf<double>;
extern template class OrderedSumsOf<double>;
extern template class OrderedSumsOf<float>;

}  // namespace vqtwin::cuda
