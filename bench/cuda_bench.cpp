// The CUDA benchmark: for each twin (or group of twins sharing one upload, "a+b+c"), at each size and
// bit depth, in one run on one machine:
//   device ms   each twin's kernels per frame (CUDA events on an idle stream)
//   upload ms   the frame pair's one host-to-device copy
//   mem fps     whole frames from host memory (pinned slots, several frames in flight)
//   cpu fps     the CPU reference on the same frames, with --cpu-threads workers
//   cli fps     the vqtwin CLI on a y4m pair in the page cache, --backend cuda and --backend cpu
// plus the device memory the pipeline and twins hold. Figures only; nothing is asserted.
//   cuda_bench [--sizes 1920x1080,3840x2160] [--depths 8,10] [--twins psnr_cuda,vif_cuda+adm_cuda]
//              [--frames N] [--slots N] [--cpu-threads N] [--cli PATH] [--cli-frames N]
//   cuda_bench --pinning SLOTS MIB     what start-up spends pinning the slots' host memory
#include <sys/mman.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
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

struct Args {
  std::vector<std::pair<int, int>> sizes{{1920, 1080}, {3840, 2160}};
  std::vector<int> depths{8, 10};
  std::vector<std::vector<std::string>> groups;  // empty = every twin alone
  unsigned frames = 600, slots = 4, cpu_threads = std::max(1u, std::thread::hardware_concurrency());
  std::string cli;
  unsigned cli_frames = 300;
};

using bench_support::NullSink;
using bench_support::split;
void fill(Picture& p, unsigned frame, bool distorted) { bench_support::paint(p, frame, distorted); }

struct Twins {
  std::vector<std::unique_ptr<Extractor>> owned;
  std::vector<DeviceExtractor*> dev;
};

Twins make_twins(const std::vector<std::string>& names, DevicePipeline& pipeline) {
  Twins t;
  for (const auto& n : names) {
    const ExtractorInfo* info = find_extractor(n);
    if (!info || info->backend != Backend::kCuda) throw Error("no CUDA twin named " + n);
    t.owned.push_back(info->create(OptionValues(info->spec->options, {}, info->name)));
    t.dev.push_back(dynamic_cast<DeviceExtractor*>(t.owned.back().get()));
    t.dev.back()->bind(pipeline);
    t.owned.back()->init(pipeline.format());
  }
  return t;
}

bool temporal(const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (find_extractor(n)->spec->temporal) return true;
  return false;
}

// Whole frames from host memory: every slot's pictures filled once, then `frames` frames through
// `slots` workers exactly as the engine drives them (submit/collect in frame order for temporal twins).
double memory_fps(const std::vector<std::string>& names, const PictureFormat& f, const Args& a) {
  auto pipeline = make_cuda_pipeline(f, 0, a.slots);
  for (unsigned s = 0; s < a.slots; ++s) {
    fill(pipeline->slot(s).ref(), s, false);
    fill(pipeline->slot(s).dist(), s, true);
  }
  Twins t = make_twins(names, *pipeline);
  const bool ordered = temporal(names);
  std::atomic<unsigned> next{0}, submitted{0}, collected{0};
  auto worker = [&](unsigned w) {
    cuda::use_device(0);
    FrameSlot& slot = pipeline->slot(w);
    NullSink sink;
    for (unsigned i; (i = next.fetch_add(1)) < a.frames;) {
      if (ordered) while (submitted.load() != i) std::this_thread::yield();
      slot.upload();
      for (auto* d : t.dev) d->submit(slot, i);
      if (ordered) submitted.store(i + 1);
      slot.wait();
      if (ordered) while (collected.load() != i) std::this_thread::yield();
      for (auto* d : t.dev) d->collect(slot, i, sink);
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

// Kernel time of one twin alone, and the upload, on an otherwise idle slot (CUDA events).
void device_times(const std::vector<std::string>& names, const PictureFormat& f, std::vector<double>& twin_ms,
                  double& upload_ms, double& device_mib) {
  std::size_t free0 = 0, total = 0, free1 = 0;
  cudaMemGetInfo(&free0, &total);
  auto pipeline = make_cuda_pipeline(f, 0, 1);
  auto& slot = cuda::cuda_slot(pipeline->slot(0));
  fill(slot.ref(), 0, false);
  fill(slot.dist(), 0, true);
  Twins t = make_twins(names, *pipeline);
  cudaMemGetInfo(&free1, &total);
  device_mib = double(free0 - free1) / (1 << 20);
  cuda::Event e0(true), e1(true);
  NullSink sink;
  const int reps = 30;
  float ms = 0;
  cudaEventRecord(e0.get(), slot.stream());
  for (int r = 0; r < reps; ++r) slot.upload();
  cudaEventRecord(e1.get(), slot.stream());
  slot.wait();
  cudaEventElapsedTime(&ms, e0.get(), e1.get());
  upload_ms = ms / reps;
  twin_ms.clear();
  for (auto* d : t.dev) {
    for (int r = 0; r < 3; ++r) {  // warm-up (temporal twins reach their steady state)
      d->submit(slot, r);
      slot.wait();
      d->collect(slot, r, sink);
    }
    double total_ms = 0;
    for (int r = 3; r < 3 + reps; ++r) {
      cudaEventRecord(e0.get(), slot.stream());
      d->submit(slot, r);
      cudaEventRecord(e1.get(), slot.stream());
      slot.wait();
      d->collect(slot, r, sink);
      cudaEventElapsedTime(&ms, e0.get(), e1.get());
      total_ms += ms;
    }
    twin_ms.push_back(total_ms / reps);
  }
}

// The CPU references of the same features on preloaded frames, with `threads` workers.
double cpu_fps(const std::vector<std::string>& names, const PictureFormat& f, unsigned threads) {
  std::vector<std::unique_ptr<Extractor>> ex;
  bool ordered = false;
  for (const auto& n : names) {
    const ExtractorInfo* cpu = find_implementation(*find_extractor(n)->spec, Backend::kCpu);
    ex.push_back(cpu->create(OptionValues(cpu->spec->options, {}, cpu->name)));
    ex.back()->init(f);
    ordered = ordered || cpu->spec->temporal;
  }
  std::vector<Picture> refs, dists;
  for (unsigned i = 0; i < 4; ++i) {
    refs.emplace_back(f);
    dists.emplace_back(f);
    fill(refs.back(), i, false);
    fill(dists.back(), i, true);
  }
  std::atomic<unsigned> next{0}, turn{0};
  std::atomic<bool> stop{false};
  const auto t0 = Clock::now();
  auto worker = [&] {
    NullSink sink;
    for (;;) {
      const unsigned i = next++;
      if (stop) return;
      if (ordered)
        while (turn.load() != i) {
          if (stop) return;
          std::this_thread::yield();
        }
      for (auto& e : ex) e->extract(refs[i % 4], dists[i % 4], i, sink);
      if (ordered) turn.store(i + 1);
      if (i >= 8 && std::chrono::duration<double>(Clock::now() - t0).count() > 1.5) stop = true;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < threads; ++w) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  return turn.load() ? turn.load() / std::chrono::duration<double>(Clock::now() - t0).count()
                     : next.load() / std::chrono::duration<double>(Clock::now() - t0).count();
}

void write_y4m(const std::string& path, const PictureFormat& f, unsigned frames, bool distorted) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) throw Error("cannot write " + path);
  std::fprintf(out, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420%s\n", f.width, f.height,
               f.bitdepth > 8 ? ("p" + std::to_string(f.bitdepth)).c_str() : "jpeg");
  std::vector<Picture> pics;
  for (unsigned i = 0; i < 8; ++i) {
    pics.emplace_back(f);
    fill(pics.back(), i, distorted);
  }
  for (unsigned i = 0; i < frames; ++i) {
    const Picture& p = pics[i % 8];
    std::fputs("FRAME\n", out);
    for (int pl = 0; pl < 3; ++pl)
      for (int y = 0; y < p.height(pl); ++y)
        std::fwrite(p.row<unsigned char>(pl, 0) + y * p.stride_bytes(pl), 1,
                    std::size_t(p.width(pl)) * std::size_t(f.bytes_per_sample()), out);
  }
  std::fclose(out);
}

// Frames per second of the whole CLI process (start to exit) and its peak memory.
std::pair<double, double> cli_fps(const Args& a, const std::string& ref, const std::string& dist,
                                  const std::string& features, const std::string& extra) {
  const std::string err = "/tmp/vqtwin_bench_cli.err";
  const std::string cmd = "VQTWIN_REPORT_PEAK_MEMORY=1 " + a.cli + " -q -r " + ref + " -d " + dist + " " + features +
                          " " + extra + " --json -o /dev/null 2>" + err;
  const auto t0 = Clock::now();
  const int rc = std::system(cmd.c_str());
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  double mib = 0;
  std::ifstream in(err);
  for (std::string line; std::getline(in, line);)
    // "vqtwin: peak memory:   123456 kB": the number follows the label's colon (not the program name's).
    if (const auto at = line.find("peak memory:"); at != std::string::npos)
      mib = std::atof(line.c_str() + at + std::strlen("peak memory:")) / 1024;
  if (rc != 0) return {-1, mib};
  return {a.cli_frames / secs, mib};
}

std::string cli_features(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += " --feature " + std::string(find_extractor(n)->spec->name);
  return s + " -n";
}

// What start-up spends on the frame slots' pinned memory: `slots` blocks of `mib` MiB allocated by
// cudaHostAlloc one after the other and from one thread each, and the same with ordinary memory on
// transparent huge pages registered by cudaHostRegister. Milliseconds, allocation and release.
void pinning(unsigned slots, double mib) {
  const std::size_t bytes = std::size_t(mib * (1 << 20));
  auto timed = [&](const char* what, bool threads, bool huge) {
    std::vector<void*> blocks(slots, nullptr);
    auto one = [&](unsigned i) {
      if (!huge) {
        cuda::check(cudaHostAlloc(&blocks[i], bytes, cudaHostAllocPortable), "cudaHostAlloc");
        return;
      }
      const std::size_t two = std::size_t(2) << 20, size = (bytes + two - 1) / two * two;
      void* p = std::aligned_alloc(two, size);
      madvise(p, size, MADV_HUGEPAGE);
      std::memset(p, 0, size);
      cuda::check(cudaHostRegister(p, size, cudaHostRegisterPortable), "cudaHostRegister");
      blocks[i] = p;
    };
    const auto t0 = Clock::now();
    if (threads) {
      std::vector<std::thread> pool;
      for (unsigned i = 0; i < slots; ++i) pool.emplace_back(one, i);
      for (auto& t : pool) t.join();
    } else {
      for (unsigned i = 0; i < slots; ++i) one(i);
    }
    const double alloc = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    const auto t1 = Clock::now();
    for (void* p : blocks) {
      if (huge) {
        cudaHostUnregister(p);
        std::free(p);
      } else {
        cudaFreeHost(p);
      }
    }
    const double release = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
    std::printf("pinning %u x %.1f MiB, %-44s %8.1f ms, released in %6.1f ms (%.1f GB/s)\n", slots, mib, what, alloc,
                release, slots * double(bytes) / alloc / 1e6);
  };
  cuda::use_device(0);
  cudaFree(nullptr);  // the context first: not part of the figures
  timed("cudaHostAlloc, one thread", false, false);
  timed("cudaHostAlloc, a thread per slot", true, false);
  timed("huge pages + cudaHostRegister, one thread", false, true);
  timed("huge pages + cudaHostRegister, a thread per slot", true, true);
}

int bench(int argc, char** argv) {
  Args a;
  if (argc == 4 && std::string(argv[1]) == "--pinning") {
    std::string why;
    if (!cuda_device_usable(0, &why)) {
      std::printf("cuda_bench: skipped: no CUDA device (%s)\n", why.c_str());
      return 0;
    }
    pinning(unsigned(std::stoul(argv[2])), std::stod(argv[3]));
    return 0;
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--sizes") {
      a.sizes.clear();
      for (const auto& s : split(v, ',')) a.sizes.push_back({std::stoi(s), std::stoi(s.substr(s.find('x') + 1))});
    } else if (k == "--depths") {
      a.depths.clear();
      for (const auto& s : split(v, ',')) a.depths.push_back(std::stoi(s));
    } else if (k == "--twins") {
      for (const auto& g : split(v, ',')) a.groups.push_back(split(g, '+'));
    } else if (k == "--frames") a.frames = unsigned(std::stoul(v));
    else if (k == "--slots") a.slots = unsigned(std::stoul(v));
    else if (k == "--cpu-threads") a.cpu_threads = unsigned(std::stoul(v));
    else if (k == "--cli") a.cli = v;
    else if (k == "--cli-frames") a.cli_frames = unsigned(std::stoul(v));
    else throw Error("unknown argument " + k);
  }
  std::string why;
  if (!cuda_device_usable(0, &why)) {
    std::printf("cuda_bench: skipped: no CUDA device (%s)\n", why.c_str());
    return 0;
  }
  if (a.groups.empty())
    for (const ExtractorInfo* t : cuda_twins()) a.groups.push_back({std::string(t->name)});
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("device: %s, %d SMs; CPU threads for the reference: %u; %u frames in memory, %u slots\n", prop.name,
              prop.multiProcessorCount, a.cpu_threads, a.frames, a.slots);
  std::printf("%-34s %-16s %10s %10s %10s %10s %10s %10s %10s %9s %9s\n", "twins", "format", "device ms", "upload ms",
              "mem fps", "cpu fps", "ratio", "cli cuda", "cli cpu", "dev MiB", "cli MiB");
  for (const auto& [w, h] : a.sizes)
    for (int bd : a.depths) {
      const PictureFormat f{w, h, bd, ChromaFormat::k420};
      std::string ref, dist;
      if (!a.cli.empty()) {
        ref = "/tmp/vqtwin_bench_ref.y4m";
        dist = "/tmp/vqtwin_bench_dist.y4m";
        write_y4m(ref, f, a.cli_frames, false);
        write_y4m(dist, f, a.cli_frames, true);
      }
      for (const auto& g : a.groups) {
        std::string label;
        for (const auto& n : g) label += (label.empty() ? "" : "+") + n;
        std::vector<double> twin_ms;
        double upload_ms = 0, dev_mib = 0;
        device_times(g, f, twin_ms, upload_ms, dev_mib);
        double dev_total = 0;
        for (double v : twin_ms) dev_total += v;
        const double mem = memory_fps(g, f, a);
        const double cpu = cpu_fps(g, f, a.cpu_threads);
        double cli_gpu = 0, cli_cpu = 0, cli_mib = 0;
        if (!a.cli.empty()) {
          auto [fps_gpu, mib] = cli_fps(a, ref, dist, cli_features(g), "--backend cuda");
          cli_gpu = fps_gpu;
          cli_mib = mib;
          cli_cpu = cli_fps(a, ref, dist, cli_features(g), "--threads " + std::to_string(a.cpu_threads)).first;
        }
        std::printf("%-34s %-16s %10.3f %10.3f %10.0f %10.1f %9.1fx %10.0f %10.1f %9.0f %9.0f\n", label.c_str(),
                    f.describe().c_str(), dev_total, upload_ms, mem, cpu, mem / cpu, cli_gpu, cli_cpu, dev_mib, cli_mib);
        std::fflush(stdout);
      }
      if (!ref.empty()) {
        std::remove(ref.c_str());
        std::remove(dist.c_str());
      }
    }
  return 0;
}

}  // namespace
}  // namespace vqtwin

int main(int argc, char** argv) {
  return vqtwin::bench_support::main_of("cuda_bench", [&] { return vqtwin::bench(argc, argv); });
}
