#pragma once
// The engine-facing base of every CUDA twin: bind/init/submit/collect onto init_device(), enqueue()
// (on the slot's stream, no waiting) and read_back() (after the slot's wait()), and extract() on a
// private one-slot pipeline, so the twin harness and benchmarks can drive a twin exactly like a CPU
// extractor. Twins do not implement these three themselves: they derive from cuda::StagedTwin
// (staged_twin.hpp), which implements them from the twin's declarations (backends/twin_seam.hpp).
#include <memory>

#include "backends/cuda/slot.hpp"
#include "backends/device.hpp"

namespace vqtwin::cuda {

class CudaTwin : public DeviceExtractor {
 public:
  void bind(DevicePipeline& pipeline) final { pipeline_ = &pipeline; }
  void init(const PictureFormat& format) final;
  void submit(FrameSlot& slot, unsigned index) final { enqueue(cuda_slot(slot), index); }
  void collect(FrameSlot& slot, unsigned index, FeatureSink& out) final { read_back(cuda_slot(slot), index, out); }
  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) final;

 protected:
  // Throws vqtwin::Error for pictures this context cannot compute (as the CPU extractor's init).
  virtual void init_device(const PictureFormat& format, unsigned slots) = 0;
  virtual void enqueue(CudaSlot& slot, unsigned index) = 0;
  virtual void read_back(CudaSlot& slot, unsigned index, FeatureSink& out) = 0;

 private:
  DevicePipeline* pipeline_ = nullptr;
  std::unique_ptr<DevicePipeline> own_;  // extract()'s private pipeline when not bound
};

// The planted bug named by $VQTWIN_PLANT (the twin harness proves it fails on each), or "".
const char* planted_bug();
bool plant(const char* name);

// Threads per block and blocks for `n` items, `per_thread` items each, capped for grid-stride loops.
inline unsigned blocks_for(long long n, unsigned threads, unsigned per_thread = 1, unsigned cap = 65535) {
  const long long b = (n + (long long)threads * per_thread - 1) / ((long long)threads * per_thread);
  return unsigned(b < 1 ? 1 : (b > cap ? cap : b));
}

}  // namespace vqtwin::cuda
