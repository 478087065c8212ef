#pragma once
// Sequential double sums on the device, bit for bit the CPU's raster-order loop: the chunked method
// of core/ordered_sum.hpp (why it is exact, and why it is fast), shared by the float_ssim and
// integer_ssim twins. Scratch is allocated once per frame slot.
#include <cstddef>

#include "backends/cuda/memory.hpp"

namespace vqtwin::cuda {

class OrderedSums {
 public:
  OrderedSums() = default;
  // For `arrays` arrays of `n` terms each.
  OrderedSums(std::size_t n, int arrays);
  // Enqueues result[j] = ((+0 + t_j[0]) + t_j[1]) + ... + t_j[n-1], t_j = terms + j * n, for every
  // array j, on `stream`. `result` is device memory (arrays doubles).
  void enqueue(const double* terms, double* result, cudaStream_t stream) const;

 private:
  std::size_t n_ = 0, length_ = 0, count_ = 0;
  int arrays_ = 0;
  DeviceArray<double> sums_, starts_, ends_, reach_;
};

}  // namespace vqtwin::cuda
