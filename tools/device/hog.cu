// cuda_hog: another process holding a device's memory, for the out-of-memory drills of
// tools/device/faults.sh. Takes all of device DEVICE's free memory but LEAVE_MIB (in 64 MiB
// blocks, then smaller ones), prints "holding N MiB, M MiB left free" once it holds it, and keeps
// it until killed or SECONDS have passed.
//   cuda_hog [LEAVE_MIB [SECONDS [DEVICE]]]     (defaults: 0, 600, 0)
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const long leave_mib = argc > 1 ? std::atol(argv[1]) : 0;
  const long seconds = argc > 2 ? std::atol(argv[2]) : 600;
  const int device = argc > 3 ? std::atoi(argv[3]) : 0;
  if (cudaSetDevice(device) != cudaSuccess) {
    std::fprintf(stderr, "cuda_hog: no CUDA device %d\n", device);
    return 1;
  }
  std::vector<void*> held;
  std::size_t total_held = 0;
  for (std::size_t block = std::size_t(64) << 20; block >= (std::size_t(1) << 20); block /= 2) {
    for (;;) {
      std::size_t free_bytes = 0, total = 0;
      if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) break;
      if (free_bytes < block + std::size_t(leave_mib) * (std::size_t(1) << 20)) break;
      void* p = nullptr;
      if (cudaMalloc(&p, block) != cudaSuccess) {
        cudaGetLastError();
        break;
      }
      held.push_back(p);
      total_held += block;
    }
  }
  std::size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  std::printf("cuda_hog: holding %zu MiB, %zu MiB left free\n", total_held >> 20, free_bytes >> 20);
  std::fflush(stdout);
  for (long s = 0; s < seconds; ++s) sleep(1);
  for (void* p : held) cudaFree(p);
  return 0;
}
