#pragma once
// CUDA calls that fail throw vqtwin::Error with one line naming the call and the runtime's reason.
// Every checked call is also a fault-injection point: a test makes the n-th one fail and checks
// that nothing leaks (memory.hpp counts live allocations).
#include <cuda_runtime.h>

namespace vqtwin::cuda {

[[noreturn]] void fail(cudaError_t error, const char* what);

// Test hook: the n-th checked call from now fails (1 = the next); 0 = none.
void inject_failure_at(long n);
bool injected_failure_due();

// Fault drills (tools/device/faults.sh), from the environment, read once:
//   VQTWIN_FAULT=call@N    the N-th checked call of the process fails (as inject_failure_at(N));
//   VQTWIN_FAULT=kernel@K  after the K-th frame upload of the process (from 0), a kernel that traps
//                          runs on that frame's stream: a real device fault, sticky as a broken
//                          kernel's would be (every later call on the context fails).
// Called by each upload with its stream.
void drill_after_upload(cudaStream_t stream);

inline void check(cudaError_t error, const char* what) {
  if (injected_failure_due()) error = cudaErrorMemoryAllocation;
  if (error != cudaSuccess) fail(error, what);
}

}  // namespace vqtwin::cuda
