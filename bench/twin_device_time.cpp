// Device time per frame of each CUDA twin (CUDA events around its kernels on an otherwise idle slot,
// the frame already uploaded), at each size and bit depth: median and mean over --reps frames after
// three warm-up frames. Then the ordered double sum (backends/cuda/ordered_sum) against its one-thread
// loop on an SSIM-like array, with the bits of both checked against the host's loop. Figures only.
//   twin_device_time [--sizes 1920x1080,3840x2160] [--depths 8,10] [--twins a,b] [--reps N] [--ordered-sums 0|1]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cuda/memory.hpp"
#include "bench_pictures.hpp"
#include "backends/cuda/ordered_sum.hpp"
#include "backends/cuda/slot.hpp"
#include "backends/device.hpp"
#include "core/registry.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

using bench_support::NullSink;
using bench_support::split;
void fill(Picture& p, unsigned frame, bool distorted) { bench_support::paint(p, frame, distorted); }

void time_twin(const std::string& name, const PictureFormat& f, int reps) {
  const ExtractorInfo* info = find_extractor(name);
  if (!info || info->backend != Backend::kCuda) throw Error("no CUDA twin named " + name);
  auto pipeline = make_cuda_pipeline(f, 0, 1);
  auto& slot = cuda::cuda_slot(pipeline->slot(0));
  fill(slot.ref(), 0, false);
  fill(slot.dist(), 0, true);
  auto ex = info->create(OptionValues(info->spec->options, {}, info->name));
  auto* dev = dynamic_cast<DeviceExtractor*>(ex.get());
  dev->bind(*pipeline);
  ex->init(f);
  slot.upload();
  slot.wait();
  NullSink sink;
  cuda::Event e0(true), e1(true);
  std::vector<float> ms;
  for (int r = 0; r < reps + 3; ++r) {
    cuda::check(cudaEventRecord(e0.get(), slot.stream()), "cudaEventRecord");
    dev->submit(slot, unsigned(r));
    cuda::check(cudaEventRecord(e1.get(), slot.stream()), "cudaEventRecord");
    slot.wait();
    dev->collect(slot, unsigned(r), sink);
    float t = 0;
    cuda::check(cudaEventElapsedTime(&t, e0.get(), e1.get()), "cudaEventElapsedTime");
    if (r >= 3) ms.push_back(t);  // the first frames warm up (and temporal twins reach their steady state)
  }
  ex->flush(sink);
  std::sort(ms.begin(), ms.end());
  double mean = 0;
  for (float v : ms) mean += v;
  mean /= double(ms.size());
  std::printf("%-22s %-22s %10.3f %10.3f %10.3f\n", name.c_str(), f.describe().c_str(), double(ms[ms.size() / 2]),
              mean, double(ms.front()));
  std::fflush(stdout);
}

std::uint64_t bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// The ordered sum of an SSIM-like map (values near 1, some spread) of n elements, against the host loop.
void time_ordered_sum(long long n) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.6, 1.0);
  std::vector<double> host(static_cast<std::size_t>(n));
  for (double& v : host) v = u(rng);
  double want = 0;
  for (double v : host) want += v;
  cuda::DeviceArray<double> x(host.size()), out(1);
  cuda::PinnedArray<double> got(1);
  cuda::check(cudaMemcpy(x.get(), host.data(), x.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
  cuda::Stream stream;
  cuda::Event e0(true), e1(true);
  const cuda::OrderedSums sums(host.size(), 1);
  float best = 1e30f;
  for (int r = 0; r < 5; ++r) {
    cuda::check(cudaEventRecord(e0.get(), stream.get()), "cudaEventRecord");
    sums.enqueue(x.get(), out.get(), stream.get());
    cuda::check(cudaEventRecord(e1.get(), stream.get()), "cudaEventRecord");
    cuda::check(cudaMemcpyAsync(got.get(), out.get(), sizeof(double), cudaMemcpyDeviceToHost, stream.get()), "copy");
    cuda::check(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
    float t = 0;
    cuda::check(cudaEventElapsedTime(&t, e0.get(), e1.get()), "cudaEventElapsedTime");
    best = std::min(best, t);
  }
  std::printf("ordered double sum of %lld values: %10.3f ms  %s\n", n, double(best),
              bits(got[0]) == bits(want) ? "bit-identical to the host loop" : "DIFFERS from the host loop");
}

int bench(int argc, char** argv) {
  std::vector<std::pair<int, int>> sizes{{1920, 1080}, {3840, 2160}};
  std::vector<int> depths{8};
  std::vector<std::string> twins;
  int reps = 20;
  bool ordered = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--sizes") {
      sizes.clear();
      for (const auto& s : split(v, ',')) sizes.push_back({std::stoi(s), std::stoi(s.substr(s.find('x') + 1))});
    } else if (k == "--depths") {
      depths.clear();
      for (const auto& s : split(v, ',')) depths.push_back(std::stoi(s));
    } else if (k == "--twins") {
      twins = split(v, ',');
    } else if (k == "--reps") {
      reps = std::max(1, std::stoi(v));
    } else if (k == "--ordered-sums") {
      ordered = v != "0";
    } else {
      throw Error("unknown argument " + k);
    }
  }
  std::string why;
  if (!cuda_device_usable(0, &why)) {
    std::printf("twin_device_time: skipped: no CUDA device (%s)\n", why.c_str());
    return 0;
  }
  if (twins.empty())
    for (const ExtractorInfo* t : cuda_twins()) twins.push_back(std::string(t->name));
  cudaDeviceProp prop{};
  cuda::check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("device: %s, %d SMs; device ms per frame (CUDA events, %d frames after 3 warm-up)\n", prop.name,
              prop.multiProcessorCount, reps);
  std::printf("%-22s %-22s %10s %10s %10s\n", "twin", "format", "median ms", "mean ms", "min ms");
  for (const auto& [w, h] : sizes)
    for (int bd : depths)
      for (const auto& t : twins) time_twin(t, PictureFormat{w, h, bd, ChromaFormat::k420}, reps);
  if (ordered) {
    time_ordered_sum(1910LL * 1070LL);
    time_ordered_sum(3830LL * 2150LL);
  }
  return 0;
}

}  // namespace
}  // namespace vqtwin

int main(int argc, char** argv) {
  return vqtwin::bench_support::main_of("twin_device_time", [&] { return vqtwin::bench(argc, argv); });
}
