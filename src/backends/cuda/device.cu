// The CUDA runtime as the rest of vqtwin needs it: is a device usable, error lines, the fault
// injection hook and the allocation count.
#include <cuda.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backends/cuda/check.hpp"
#include "backends/cuda/memory.hpp"
#include "backends/device.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace cuda {
namespace {

std::atomic<long> g_live{0};
std::atomic<long> g_countdown{0};

// Launching it proves that this binary has code the device can run (sm_90 or JIT-able PTX).
__global__ void probe_kernel(int* out) { *out = 42; }

// VQTWIN_FAULT's drill: the kernel fault.
__global__ void trap_kernel() { __trap(); }

// VQTWIN_FAULT parsed once: which drill, and at which call or upload (-1: none).
struct Drill {
  long call_at = -1, kernel_at = -1;
};
const Drill& drill() {
  static const Drill d = [] {
    Drill r;
    const char* v = std::getenv("VQTWIN_FAULT");
    long n = 0;
    char extra = 0;
    if (!v || !*v) return r;
    if (std::sscanf(v, "call@%ld%c", &n, &extra) == 1 && n > 0) r.call_at = n;
    else if (std::sscanf(v, "kernel@%ld%c", &n, &extra) == 1 && n >= 0) r.kernel_at = n;
    else std::fprintf(stderr, "vqtwin: VQTWIN_FAULT=%s ignored (call@N with N >= 1, or kernel@K)\n", v);
    return r;
  }();
  return d;
}
std::atomic<long> g_uploads{0};

}  // namespace

void fail(cudaError_t error, const char* what) {
  throw Error(std::string("CUDA: ") + what + " failed: " + cudaGetErrorString(error));
}

void inject_failure_at(long n) { g_countdown = n; }

bool injected_failure_due() {
  static const bool armed = [] {
    if (drill().call_at > 0) g_countdown = drill().call_at;
    return true;
  }();
  (void)armed;
  long c = g_countdown.load(std::memory_order_relaxed);
  while (c > 0) {
    if (g_countdown.compare_exchange_weak(c, c - 1)) return c == 1;
  }
  return false;
}

long live_allocations() { return g_live.load(); }

void drill_after_upload(cudaStream_t stream) {
  if (drill().kernel_at < 0 || g_uploads.fetch_add(1) != drill().kernel_at) return;
  trap_kernel<<<1, 1, 0, stream>>>();
}
void count_allocation(int delta) { g_live += delta; }

bool poison_device_memory() {
  static const bool wanted = [] {
    const char* v = std::getenv("VQTWIN_CUDA_POISON");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return wanted;
}

}  // namespace cuda

void cuda_share_with_decoder(int device) {
  // Exactly libavcodec's flags (it compares them for equality), set through the driver, whose entry
  // points the runtime hands out (vqtwin does not link libcuda). Failures are left to the decoder,
  // which then says what it could not do.
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || device < 0 || device >= count) {
    (void)cudaGetLastError();
    return;
  }
  void* get = nullptr;
  void* set = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuDeviceGet", &get, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess ||
      cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxSetFlags", &set, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return;
  }
  CUdevice d = 0;
  if (reinterpret_cast<CUresult (*)(CUdevice*, int)>(get)(&d, device) != CUDA_SUCCESS) return;
  (void)reinterpret_cast<CUresult (*)(CUdevice, unsigned)>(set)(d, CU_CTX_SCHED_BLOCKING_SYNC);
}

DecoderStream cuda_decoder_stream(int device) {
  // The primary context is what the runtime makes current on cudaSetDevice; creating the stream
  // initialises it. Its CUcontext comes from the driver through the runtime's entry points (vqtwin
  // does not link libcuda). Any failure: empty, and the decoder goes the way it went before.
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || device < 0 || device >= count ||
      cudaSetDevice(device) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  cudaStream_t stream = nullptr;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  void* current = nullptr;
  cudaDriverEntryPointQueryResult found{};
  CUcontext context = nullptr;
  if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &current, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      found != cudaDriverEntryPointSuccess ||
      reinterpret_cast<CUresult (*)(CUcontext*)>(current)(&context) != CUDA_SUCCESS || !context) {
    (void)cudaGetLastError();
    cudaStreamDestroy(stream);
    return {};
  }
  DecoderStream d;
  d.context = context;
  d.stream = stream;
  d.keep = std::shared_ptr<void>(stream, [device](void* s) {
    // Work still queued on it completes first (cudaStreamDestroy does not wait, nor cancel it).
    if (cudaSetDevice(device) == cudaSuccess) cudaStreamDestroy(static_cast<cudaStream_t>(s));
    (void)cudaGetLastError();
  });
  return d;
}

int cuda_device_count(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    if (why) *why = std::string("no CUDA device (") + cudaGetErrorString(e) + ")";
    return 0;
  }
  if (count == 0 && why) *why = "no CUDA device";
  return count;
}

bool cuda_device_usable(int device, std::string* why) {
  auto say = [&](const std::string& text) {
    if (why) *why = text;
    return false;
  };
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) return say(std::string("no CUDA device (") + cudaGetErrorString(e) + ")");
  if (count == 0) return say("no CUDA device");
  if (device < 0 || device >= count)
    return say("there are " + std::to_string(count) + " CUDA devices (0.." + std::to_string(count - 1) + ")");
  if ((e = cudaSetDevice(device)) != cudaSuccess) return say(cudaGetErrorString(e));
  int* flag = nullptr;
  if ((e = cudaMalloc(&flag, sizeof(int))) != cudaSuccess) return say(cudaGetErrorString(e));
  cuda::probe_kernel<<<1, 1>>>(flag);
  e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  int value = 0;
  if (e == cudaSuccess) e = cudaMemcpy(&value, flag, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(flag);
  if (e != cudaSuccess || value != 42)
    return say(std::string("cannot run vqtwin's kernels (") + cudaGetErrorString(e) + ")");
  return true;
}

}  // namespace vqtwin
