#pragma once
// Owning handles for device memory, pinned host memory, streams and events: every error path frees
// what it took, and live_allocations() lets a test prove it.
#include <cuda_runtime.h>

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "backends/cuda/check.hpp"

namespace vqtwin::cuda {

// Device + pinned allocations, streams and events currently alive in this process.
long live_allocations();
void count_allocation(int delta);
// VQTWIN_CUDA_POISON=1: every device allocation is filled with 0xA5 bytes before use, so that a kernel
// reading memory nothing wrote (an upload or a pass that misses part of a buffer) gives numbers that
// differ from the CPU's, and the harness fails where compute-sanitizer's initcheck would report.
bool poison_device_memory();

// A call that takes a resource, unless an injected failure is due: then it is not made at all (a
// failure the runtime reports takes nothing). check(cudaMalloc(...)) would make the call first and
// leak what it took when the injected failure then threw -- leaks compute-sanitizer's memcheck
// reports and live_allocations() cannot see.
template <class Call>
cudaError_t acquire(Call&& call) {
  return injected_failure_due() ? cudaErrorMemoryAllocation : call();
}
// acquire(), then one Error naming `what` if it failed (one injection point, not check()'s second).
template <class Call>
void take(Call&& call, const char* what) {
  const cudaError_t e = acquire(static_cast<Call&&>(call));
  if (e != cudaSuccess) fail(e, what);
}

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) : n_(n) {
    void* p = nullptr;
    take([&] { return cudaMalloc(&p, n * sizeof(T) + (n == 0)); }, "cudaMalloc");
    p_ = static_cast<T*>(p);
    count_allocation(1);
    // Synchronously: the legacy stream's memset is not ordered with the backend's non-blocking streams.
    if (poison_device_memory()) {
      check(cudaMemset(p, 0xA5, n * sizeof(T) + (n == 0)), "cudaMemset (poison)");
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (poison)");
    }
  }
  ~DeviceArray() { reset(); }
  DeviceArray(DeviceArray&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

 private:
  void reset() {
    if (p_) {
      cudaFree(p_);
      count_allocation(-1);
    }
    p_ = nullptr;
  }
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

// Page-locked host memory: the device copies from it at full bus speed, asynchronously.
template <class T>
class PinnedArray {
 public:
  PinnedArray() = default;
  explicit PinnedArray(std::size_t n) : n_(n) {
    void* p = nullptr;
    take([&] { return cudaHostAlloc(&p, n * sizeof(T) + (n == 0), cudaHostAllocPortable); }, "cudaHostAlloc");
    p_ = static_cast<T*>(p);
    count_allocation(1);
  }
  ~PinnedArray() { reset(); }
  PinnedArray(PinnedArray&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  PinnedArray& operator=(PinnedArray&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  T* get() const { return p_; }
  T& operator[](std::size_t i) const { return p_[i]; }
  std::size_t size() const { return n_; }

 private:
  void reset() {
    if (p_) {
      cudaFreeHost(p_);
      count_allocation(-1);
    }
    p_ = nullptr;
  }
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

// Page-locked host memory for large blocks (the frame slots): ordinary memory on 2 MiB transparent
// huge pages, touched here and registered with the driver. Measured on the H200 host (cuda_bench
// --pinning 16 24): 16 slots of 24 MiB take 158 ms with cudaHostAlloc (which serialises, threads or
// not), 17 ms this way with one thread per slot (the page faults and pinning run in parallel).
class RegisteredHostBlock {
 public:
  RegisteredHostBlock() = default;
  explicit RegisteredHostBlock(std::size_t bytes) {
    constexpr std::size_t kHuge = std::size_t(2) << 20;
    n_ = (bytes + kHuge - 1) / kHuge * kHuge;
    if (n_ == 0) n_ = kHuge;
    p_ = static_cast<unsigned char*>(std::aligned_alloc(kHuge, n_));
    if (!p_) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    ::madvise(p_, n_, MADV_HUGEPAGE);
#endif
    std::memset(p_, 0, n_);  // the first touch, in the calling thread
    const cudaError_t e = acquire([&] { return cudaHostRegister(p_, n_, cudaHostRegisterPortable); });
    if (e != cudaSuccess) {
      std::free(p_);
      p_ = nullptr;
      fail(e, "cudaHostRegister");
    }
    count_allocation(1);
  }
  ~RegisteredHostBlock() {
    if (p_) {
      cudaHostUnregister(p_);
      std::free(p_);
      count_allocation(-1);
    }
  }
  RegisteredHostBlock(const RegisteredHostBlock&) = delete;
  RegisteredHostBlock& operator=(const RegisteredHostBlock&) = delete;
  unsigned char* get() const { return p_; }

 private:
  unsigned char* p_ = nullptr;
  std::size_t n_ = 0;
};

class Stream {
 public:
  Stream() {
    take([&] { return cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking); }, "cudaStreamCreate");
    count_allocation(1);
  }
  ~Stream() {
    cudaStreamDestroy(s_);
    count_allocation(-1);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  explicit Event(bool timing = false) {
    take([&] { return cudaEventCreateWithFlags(&e_, timing ? cudaEventDefault : cudaEventDisableTiming); }, "cudaEventCreate");
    count_allocation(1);
  }
  ~Event() {
    cudaEventDestroy(e_);
    count_allocation(-1);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace vqtwin::cuda
