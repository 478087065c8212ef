// The seeds' CUDA twins (float_ssim_cuda, integer_ssim_cuda, float_motion_cuda), each with given
// options, at each size and bit depth, in one run on one machine:
//   device ms   the twin's kernels for one frame (CUDA events around submit on an idle slot)
//   upload ms   the frame pair's host-to-device copy, of the planes the twin reads (as the engine
//               uploads them; --all-planes: every plane, as an engine without plane selection would)
//   mem fps     whole frames from host memory: pinned slots, one worker thread each, several frames
//               in flight, every frame uploaded and read back (what the engine does, without y4m I/O)
//   e2e ms      1000 / mem fps: a frame's share of that time, end to end
//   cpu fps     the CPU reference with the same options on the same frames, --cpu-threads workers
// Figures only; nothing is asserted.
//   cuda_seeds_bench [--sizes 1920x1080,3840x2160] [--depths 8] [--frames N] [--slots N]
//                    [--cpu-threads N] [--cases twin[:k=v:...],...] [--all-planes 1]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "backends/cuda/memory.hpp"
#include "bench_pictures.hpp"
#include "backends/cuda/slot.hpp"
#include "backends/device.hpp"
#include "core/registry.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

using Clock = std::chrono::steady_clock;

struct Case {
  std::string text;  // as given, e.g. "float_ssim_cuda:scale=1"
  const ExtractorInfo* twin = nullptr;
  OptionPairs options;
};

struct Args {
  std::vector<std::pair<int, int>> sizes{{1920, 1080}, {3840, 2160}};
  std::vector<int> depths{8};
  std::vector<Case> cases;
  unsigned frames = 600, slots = 4, cpu_threads = std::max(1u, std::thread::hardware_concurrency());
  bool all_planes = false;
};

using bench_support::split;

Case parse_case(const std::string& text) {
  Case c;
  c.text = text;
  const auto parts = split(text, ':');
  c.twin = find_extractor(parts.at(0));
  if (!c.twin || c.twin->backend != Backend::kCuda) throw Error("no CUDA twin named " + parts.at(0));
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto eq = parts[i].find('=');
    if (eq == std::string::npos) throw Error("option without '=' in " + text);
    c.options.push_back({parts[i].substr(0, eq), parts[i].substr(eq + 1)});
  }
  return c;
}

using bench_support::NullSink;
using bench_support::paint;

// Each (format, frame, distorted) is painted once and copied afterwards.
void fill(Picture& p, unsigned frame, bool distorted) {
  static std::map<std::string, std::unique_ptr<Picture>> painted;
  const PictureFormat& f = p.format();
  auto& src = painted[f.describe() + "#" + std::to_string(frame) + (distorted ? "d" : "r")];
  if (!src) {
    src = std::make_unique<Picture>(f);
    paint(*src, frame, distorted);
  }
  for (int pl = 0; pl < f.num_planes(); ++pl)
    for (int y = 0; y < p.height(pl); ++y)
      std::memcpy(p.row<unsigned char>(pl, 0) + y * p.stride_bytes(pl),
                  src->row<unsigned char>(pl, 0) + y * src->stride_bytes(pl),
                  std::size_t(p.width(pl)) * std::size_t(f.bytes_per_sample()));
}

std::unique_ptr<Extractor> make_twin(const Case& c, DevicePipeline& pipeline, bool all_planes) {
  auto ex = c.twin->create(OptionValues(c.twin->spec->options, c.options, c.twin->name));
  auto& dev = dynamic_cast<DeviceExtractor&>(*ex);
  pipeline.set_uploaded_planes(all_planes ? kAllPlanes : dev.planes_read());  // as the engine does
  dev.bind(pipeline);
  ex->init(pipeline.format());
  return ex;
}

// Kernel time of the twin alone and the upload, on an otherwise idle slot (CUDA events).
void device_times(const Case& c, const PictureFormat& f, bool all_planes, double& twin_ms, double& upload_ms) {
  auto pipeline = make_cuda_pipeline(f, 0, 1);
  auto& slot = cuda::cuda_slot(pipeline->slot(0));
  fill(slot.ref(), 0, false);
  fill(slot.dist(), 0, true);
  auto ex = make_twin(c, *pipeline, all_planes);
  auto& dev = dynamic_cast<DeviceExtractor&>(*ex);
  cuda::Event e0(true), e1(true);
  NullSink sink;
  const int reps = 30;
  float ms = 0;
  slot.upload();
  slot.wait();
  cuda::check(cudaEventRecord(e0.get(), slot.stream()), "cudaEventRecord");
  for (int r = 0; r < reps; ++r) slot.upload();
  cuda::check(cudaEventRecord(e1.get(), slot.stream()), "cudaEventRecord");
  slot.wait();
  cuda::check(cudaEventElapsedTime(&ms, e0.get(), e1.get()), "cudaEventElapsedTime");
  upload_ms = ms / reps;
  double total = 0;
  for (int r = 0; r < 3 + reps; ++r) {  // 3 warm-up frames (temporal twins reach their steady state)
    cuda::check(cudaEventRecord(e0.get(), slot.stream()), "cudaEventRecord");
    dev.submit(slot, unsigned(r));
    cuda::check(cudaEventRecord(e1.get(), slot.stream()), "cudaEventRecord");
    slot.wait();
    dev.collect(slot, unsigned(r), sink);
    cuda::check(cudaEventElapsedTime(&ms, e0.get(), e1.get()), "cudaEventElapsedTime");
    if (r >= 3) total += ms;
  }
  twin_ms = total / reps;
}

// Whole frames from host memory through `slots` workers, as the engine drives them.
double memory_fps(const Case& c, const PictureFormat& f, const Args& a) {
  auto pipeline = make_cuda_pipeline(f, 0, a.slots);
  for (unsigned s = 0; s < a.slots; ++s) {
    fill(pipeline->slot(s).ref(), s, false);
    fill(pipeline->slot(s).dist(), s, true);
  }
  auto ex = make_twin(c, *pipeline, a.all_planes);
  auto& dev = dynamic_cast<DeviceExtractor&>(*ex);
  const bool ordered = c.twin->spec->temporal;
  std::atomic<unsigned> next{0}, submitted{0}, collected{0};
  auto worker = [&](unsigned w) {
    cuda::use_device(0);
    FrameSlot& slot = pipeline->slot(w);
    NullSink sink;
    for (unsigned i; (i = next.fetch_add(1)) < a.frames;) {
      if (ordered)
        while (submitted.load() != i) std::this_thread::yield();
      slot.upload();
      dev.submit(slot, i);
      if (ordered) submitted.store(i + 1);
      slot.wait();
      if (ordered)
        while (collected.load() != i) std::this_thread::yield();
      dev.collect(slot, i, sink);
      if (ordered) collected.store(i + 1);
    }
  };
  const auto t0 = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < a.slots; ++w) pool.emplace_back(worker, w);
  worker(0);
  for (auto& th : pool) th.join();
  return a.frames / std::chrono::duration<double>(Clock::now() - t0).count();
}

// The CPU reference with the same options on preloaded frames, `threads` workers, ~1 s.
double cpu_fps(const Case& c, const PictureFormat& f, unsigned threads) {
  const ExtractorInfo* cpu = find_implementation(*c.twin->spec, Backend::kCpu);
  auto ex = cpu->create(OptionValues(cpu->spec->options, c.options, cpu->name));
  ex->init(f);
  const bool ordered = cpu->spec->temporal;
  std::vector<Picture> refs, dists;
  for (unsigned i = 0; i < 4; ++i) {
    refs.emplace_back(f);
    dists.emplace_back(f);
    fill(refs.back(), i, false);
    fill(dists.back(), i, true);
  }
  std::atomic<unsigned> next{0}, turn{0}, done{0};
  std::atomic<bool> stop{false};
  const auto t0 = Clock::now();
  auto worker = [&] {
    NullSink sink;
    for (;;) {
      if (stop) return;
      const unsigned i = next++;
      if (ordered)
        while (turn.load() != i) std::this_thread::yield();
      ex->extract(refs[i % 4], dists[i % 4], i, sink);
      if (ordered) turn.store(i + 1);
      ++done;
      if (done >= 4 && std::chrono::duration<double>(Clock::now() - t0).count() > 1.0) stop = true;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < (ordered ? 1u : threads); ++w) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  return done.load() / std::chrono::duration<double>(Clock::now() - t0).count();
}

int bench(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--sizes") {
      a.sizes.clear();
      for (const auto& s : split(v, ',')) a.sizes.push_back({std::stoi(s), std::stoi(s.substr(s.find('x') + 1))});
    } else if (k == "--depths") {
      a.depths.clear();
      for (const auto& s : split(v, ',')) a.depths.push_back(std::stoi(s));
    } else if (k == "--cases") {
      for (const auto& s : split(v, ',')) a.cases.push_back(parse_case(s));
    } else if (k == "--frames") a.frames = unsigned(std::stoul(v));
    else if (k == "--slots") a.slots = unsigned(std::stoul(v));
    else if (k == "--cpu-threads") a.cpu_threads = unsigned(std::stoul(v));
    else if (k == "--all-planes") a.all_planes = v != "0";
    else throw Error("unknown argument " + k);
  }
  std::string why;
  if (!cuda_device_usable(0, &why)) {
    std::printf("cuda_seeds_bench: skipped: no CUDA device (%s)\n", why.c_str());
    return 0;
  }
  if (a.cases.empty())
    for (const char* c : {"float_ssim_cuda", "float_ssim_cuda:scale=1", "integer_ssim_cuda", "float_motion_cuda"})
      a.cases.push_back(parse_case(c));
  cudaDeviceProp prop{};
  cuda::check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("device: %s, %d SMs; CPU reference on %u threads (temporal features: 1); %u frames, %u slots; "
              "upload: %s\n",
              prop.name, prop.multiProcessorCount, a.cpu_threads, a.frames, a.slots,
              a.all_planes ? "every plane" : "the planes each twin reads");
  std::printf("%-30s %-18s %10s %10s %10s %10s %10s %8s\n", "twin", "format", "device ms", "upload ms", "mem fps",
              "e2e ms", "cpu fps", "ratio");
  for (const auto& [w, h] : a.sizes)
    for (int bd : a.depths) {
      const PictureFormat f{w, h, bd, ChromaFormat::k420};
      for (const Case& c : a.cases) {
        double twin_ms = 0, upload_ms = 0;
        device_times(c, f, a.all_planes, twin_ms, upload_ms);
        const double mem = memory_fps(c, f, a);
        const double cpu = cpu_fps(c, f, a.cpu_threads);
        std::printf("%-30s %-18s %10.3f %10.3f %10.0f %10.3f %10.1f %7.1fx\n", c.text.c_str(), f.describe().c_str(),
                    twin_ms, upload_ms, mem, 1000.0 / mem, cpu, mem / cpu);
        std::fflush(stdout);
      }
    }
  return 0;
}

}  // namespace
}  // namespace vqtwin

int main(int argc, char** argv) {
  return vqtwin::bench_support::main_of("cuda_seeds_bench", [&] { return vqtwin::bench(argc, argv); });
}
