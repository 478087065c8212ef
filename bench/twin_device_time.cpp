// Device time per frame of each twin of each device backend (CUDA: events around its kernels on the
// slot's stream; Vulkan: timestamp queries around its dispatches in the slot's command buffer), on an
// otherwise idle one-slot pipeline, the frame already uploaded: median, mean and min over --reps
// frames after three warm-up frames, at each size and bit depth (4:2:0). On Vulkan the float twins
// (float_*) are timed on each path of --paths: `device` (the device's own choice, fp64 where it offers
// it) and `nofp64` (VQTWIN_VULKAN_NO_FP64=1, the fp64-free path forced). A twin that declines the
// format prints "declined"; a device without timestamps "n/a". Then each backend's extra figures (CUDA:
// the ordered double sum against its one-thread loop). Figures only; nothing is asserted.
//   twin_device_time [--backend cuda,vulkan] [--sizes 1920x1080,3840x2160] [--depths 8,10] [--twins a,b]
//                    [--paths device,nofp64] [--reps N] [--ordered-sums 0|1]
// --backend: default every backend this binary has; one without a device prints a "skipped" line.
// --twins: names as listed (psnr_cuda) or the feature's (psnr: its twin on each backend).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "bench_pictures.hpp"
#include "core/registry.hpp"
#include "twin_timer.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

using bench_support::NullSink;
using bench_support::split;
using bench_support::TimedBackend;

struct Args {
  std::vector<std::string> backends;
  std::vector<std::pair<int, int>> sizes{{1920, 1080}, {3840, 2160}};
  std::vector<int> depths{8};
  std::vector<std::string> twins;
  std::vector<std::string> paths{"device", "nofp64"};
  int reps = 20;
  bool ordered = true;
};

struct Times {
  double median = 0, mean = 0, min = 0;
};

// The twin's device time per frame over a.reps frames after 3 warm-up frames (which also bring a
// temporal twin to its steady state); nullopt with `why` when the device keeps no time.
std::optional<Times> time_twin(const TimedBackend& b, const ExtractorInfo& info, const PictureFormat& f, int reps,
                               std::string* why) {
  auto pipeline = make_device_pipeline(b.backend, f, 0, 1);  // outlives the twin, as in the engine
  auto ex = info.create(OptionValues(info.spec->options, {}, info.name));
  auto* dev = dynamic_cast<DeviceExtractor*>(ex.get());
  if (!dev) throw Error(std::string(info.name) + " is no device twin");
  pipeline->set_uploaded_planes(dev->planes_read());  // as the engine does
  FrameSlot& slot = pipeline->slot(0);
  bench_support::paint(slot.ref(), 0, false);
  bench_support::paint(slot.dist(), 0, true);
  dev->bind(*pipeline);
  ex->init(f);
  auto timer = b.timer(slot, why);
  if (!timer) return std::nullopt;
  NullSink sink;
  std::vector<double> ms;
  for (int r = 0; r < reps + 3; ++r) {
    slot.upload();
    timer->start();
    dev->submit(slot, unsigned(r));
    timer->stop();
    slot.wait();
    dev->collect(slot, unsigned(r), sink);
    const double t = timer->elapsed_ms();
    if (r >= 3) ms.push_back(t);
  }
  ex->flush(sink);
  std::sort(ms.begin(), ms.end());
  Times t;
  for (double v : ms) t.mean += v;
  t.mean /= double(ms.size());
  t.median = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  t.min = ms.front();
  return t;
}

bool wanted(const Args& a, const TimedBackend& b, std::string_view name) {
  if (a.twins.empty()) return true;
  for (const auto& t : a.twins)
    if (name == t || name == t + "_" + b.name) return true;
  return false;
}

// $VQTWIN_VULKAN_NO_FP64 for one path ("device": unset, the device's choice; "nofp64": 1), restored after.
class PathEnv {
 public:
  PathEnv() {
    if (const char* v = std::getenv(kName)) saved_ = v;
  }
  ~PathEnv() {
    if (saved_) ::setenv(kName, saved_->c_str(), 1);
    else ::unsetenv(kName);
  }
  void set(const std::string& path) {
    if (path == "nofp64") ::setenv(kName, "1", 1);
    else ::unsetenv(kName);
  }

 private:
  static constexpr const char* kName = "VQTWIN_VULKAN_NO_FP64";
  std::optional<std::string> saved_;
};

void row(const TimedBackend& b, std::string_view twin, const std::string& path, const PictureFormat& f,
         const std::string& figures) {
  std::printf("%-7s %-22s %-18s %-22s %s\n", b.name, std::string(twin).c_str(), path.c_str(), f.describe().c_str(),
              figures.c_str());
  std::fflush(stdout);
}

void time_backend(const Args& a, const TimedBackend& b) {
  std::string why;
  const std::string device = b.describe(&why);
  if (device.empty()) {
    // `why` names what is missing ("no CUDA device (...)", "no Vulkan loader (...)").
    std::printf("%s: skipped: %s\n", b.name, why.empty() ? "no device" : why.c_str());
    std::fflush(stdout);
    return;
  }
  std::printf("%s: %s; device ms per frame, %d frames after 3 warm-up\n", b.name, device.c_str(), a.reps);
  std::fflush(stdout);
  const auto twins = b.backend == Backend::kCuda ? cuda_twins() : vulkan_twins();
  PathEnv env;
  for (const auto& [w, h] : a.sizes)
    for (int bd : a.depths) {
      const PictureFormat f{w, h, bd, ChromaFormat::k420};
      for (const ExtractorInfo* info : twins) {
        if (!wanted(a, b, info->name)) continue;
        // Two paths only where the backend has them, for the float twins.
        const bool paths = b.float_path && info->spec->name.rfind("float_", 0) == 0;
        for (const auto& path : paths ? a.paths : std::vector<std::string>{"device"}) {
          env.set(path);
          const std::string label = !paths ? "-" : path + " (" + b.float_path() + ")";
          char fig[96];
          try {
            const OptionValues defaults(info->spec->options, {}, info->name);
            if (info->check_context && info->check_context(defaults, f) == -ENOTSUP) {
              row(b, info->name, label, f, "declined");
              continue;
            }
            std::string no_clock;
            const auto t = time_twin(b, *info, f, a.reps, &no_clock);
            if (t) std::snprintf(fig, sizeof fig, "%10.3f %10.3f %10.3f", t->median, t->mean, t->min);
            else std::snprintf(fig, sizeof fig, "%10s %10s %10s  (%s)", "n/a", "n/a", "n/a", no_clock.c_str());
            row(b, info->name, label, f, fig);
          } catch (const std::exception& e) {
            row(b, info->name, label, f, std::string("error: ") + e.what());
          }
        }
      }
    }
  if (a.ordered && b.extras) b.extras();
}

std::vector<const TimedBackend*> built_backends() {
  std::vector<const TimedBackend*> out;
#if VQTWIN_BENCH_CUDA
  out.push_back(&bench_support::cuda_timing());
#endif
#if VQTWIN_BENCH_VULKAN
  out.push_back(&bench_support::vulkan_timing());
#endif
  return out;
}

int bench(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; i += 2) {
    const std::string k = argv[i];
    if (i + 1 >= argc) throw Error(k + " needs a value");
    const std::string v = argv[i + 1];
    if (k == "--backend" || k == "--backends") {
      a.backends = split(v, ',');
    } else if (k == "--sizes") {
      a.sizes.clear();
      for (const auto& s : split(v, ',')) {
        const auto x = s.find('x');
        if (x == std::string::npos) throw Error("--sizes takes WxH,WxH: " + s);
        a.sizes.push_back({std::stoi(s), std::stoi(s.substr(x + 1))});
      }
    } else if (k == "--depths") {
      a.depths.clear();
      for (const auto& s : split(v, ',')) a.depths.push_back(std::stoi(s));
    } else if (k == "--twins") {
      a.twins = split(v, ',');
    } else if (k == "--paths") {
      a.paths = split(v, ',');
      for (const auto& p : a.paths)
        if (p != "device" && p != "nofp64") throw Error("--paths takes device,nofp64, not " + p);
    } else if (k == "--reps") {
      a.reps = std::max(1, std::stoi(v));
    } else if (k == "--ordered-sums") {
      a.ordered = v != "0";
    } else {
      throw Error("unknown argument " + k);
    }
  }
  const auto built = built_backends();
  std::vector<const TimedBackend*> chosen;
  if (a.backends.empty()) chosen = built;
  for (const auto& name : a.backends) {
    auto it = std::find_if(built.begin(), built.end(), [&](const TimedBackend* b) { return name == b->name; });
    if (it == built.end()) throw Error("this build has no " + name + " backend");
    chosen.push_back(*it);
  }
  if (chosen.empty()) {
    std::printf("twin_device_time: skipped: this build has no device backend\n");
    return 0;
  }
  std::printf("%-7s %-22s %-18s %-22s %10s %10s %10s\n", "backend", "twin", "path", "format", "median ms", "mean ms",
              "min ms");
  for (const TimedBackend* b : chosen) time_backend(a, *b);
  return 0;
}

}  // namespace
}  // namespace vqtwin

int main(int argc, char** argv) {
  return vqtwin::bench_support::main_of("twin_device_time", [&] { return vqtwin::bench(argc, argv); });
}
