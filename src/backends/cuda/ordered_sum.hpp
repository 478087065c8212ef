#pragma once
// Sequential double sums (s = 0; s += x[i], i ascending) of several arrays on the device, bit for bit
// the CPU's loop, with the run rule of common/ordered_sum.hpp: one block per array scans tiles of
// 8192 elements in parallel and adds the elements the rule does not cover one by one.
#include <cuda_runtime.h>

namespace vqtwin::cuda {

inline constexpr int kMaxOrderedSums = 16;

struct OrderedSums {
  const double* values[kMaxOrderedSums];  // device arrays
  long long count[kMaxOrderedSums];
  int arrays = 0;
};

// How the sums run: kRuns (the parallel scans) or kSerial (one thread per array, the plain loop: the
// benchmark's baseline).
enum class OrderedSumMode { kRuns, kSerial };

// Enqueues out[k] = the sequential sum of sums.values[k][0..count[k]) on `stream` (out: device).
void enqueue_ordered_sums(const OrderedSums& sums, double* out, cudaStream_t stream,
                          OrderedSumMode mode = OrderedSumMode::kRuns);

}  // namespace vqtwin::cuda
