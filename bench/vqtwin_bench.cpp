// Prints frames per second per extractor (extraction alone, and the whole CLI process with y4m
// reading), at 576x324, 1920x1080 and 3840x2160, 8-bit 4:2:0, on 1 and 2 threads, with the CLI's
// peak memory. Synthetic frames (textured, moving; the distorted copy blurred and quantised).
// It measures; it asserts nothing.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/registry.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/picture.hpp"

namespace fs = std::filesystem;
using namespace vqtwin;

namespace {

struct Size {
  int w, h;
  unsigned frames;  // frames in the CLI's input files
};

std::vector<std::string> every_cpu_extractor() {
  std::vector<std::string> names;
  for (const ExtractorInfo* e : cpu_extractors()) names.emplace_back(e->name);
  return names;
}

struct Args {
  std::vector<Size> sizes{{576, 324, 96}, {1920, 1080, 24}, {3840, 2160, 8}};
  std::vector<std::string> features = every_cpu_extractor();  // the registry's list, or --features
  std::string cli;        // path of the vqtwin binary; empty = skip CLI figures
  std::string model_dir;  // folder with vmaf_v0.6.1.json; empty = skip VMAF
  double min_seconds = 0.6;
};

class NullSink final : public FeatureSink {
 public:
  void put(std::string_view, unsigned, double v) override { sink_ += v; }
  void aggregate(std::string_view, double v) override { sink_ += v; }
  double sink_ = 0;
};

double texture(int x, int y, int f) {
  std::uint32_t h = std::uint32_t(x * 73856093u) ^ std::uint32_t(y * 19349663u) ^ std::uint32_t(f * 83492791u);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  return 60 + 0.05 * x + 0.07 * y + 40 * std::sin((x + 3 * f) * 0.05) * std::cos(y * 0.04) + double(h >> 26);
}

void fill(Picture& ref, Picture& dist, int f) {
  const auto& fmt = ref.format();
  for (int p = 0; p < fmt.num_planes(); ++p)
    for (int y = 0; y < ref.height(p); ++y) {
      auto* r = ref.row<std::uint8_t>(p, y);
      auto* d = dist.row<std::uint8_t>(p, y);
      for (int x = 0; x < ref.width(p); ++x) {
        const double v = p ? 128 + 20 * std::sin(x * 0.1 + f) : texture(x, y, f);
        r[x] = std::uint8_t(std::clamp(v, 0.0, 255.0));
        d[x] = std::uint8_t(std::clamp(std::round(v / 6) * 6 + ((x + y) % 3) - 1, 0.0, 255.0));
      }
    }
}

// Extraction alone: `threads` workers over a ring of preloaded frames (temporal extractors: one).
double extract_fps(const ExtractorInfo& info, const std::vector<Picture>& refs, const std::vector<Picture>& dists,
                   unsigned threads, double min_seconds) {
  OptionValues opts(info.spec->options, {}, info.name);
  auto ex = info.create(opts);
  ex->init(refs[0].format());
  if (info.spec->temporal) threads = 1;
  std::atomic<unsigned> next{0};
  std::atomic<bool> stop{false};
  NullSink sinks[64];
  const auto t0 = std::chrono::steady_clock::now();
  auto worker = [&](unsigned t) {
    while (!stop) {
      const unsigned i = next++;
      ex->extract(refs[i % refs.size()], dists[i % dists.size()], i, sinks[t]);
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > min_seconds && i >= 2)
        stop = true;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& t : pool) t.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  NullSink flush_sink;
  ex->flush(flush_sink);
  return next.load() / secs;
}

void write_y4m(const std::string& path, const std::vector<Picture>& pics, unsigned frames) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error("cannot write " + path);
  const auto& fmt = pics[0].format();
  std::fprintf(f, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n", fmt.width, fmt.height);
  for (unsigned i = 0; i < frames; ++i) {
    const Picture& p = pics[i % pics.size()];
    std::fputs("FRAME\n", f);
    for (int pl = 0; pl < 3; ++pl)
      for (int y = 0; y < p.height(pl); ++y) std::fwrite(p.row<std::uint8_t>(pl, y), 1, std::size_t(p.width(pl)), f);
  }
  std::fclose(f);
}

struct CliFigure {
  double fps = 0;
  long peak_kib = 0;
  bool ok = false;
};

// Runs the CLI; its own peak memory comes back on a pipe (VmHWM, which a forked child's ru_maxrss
// would mix with this process's memory).
CliFigure run_cli(const std::string& cli, const std::vector<std::string>& args, unsigned frames,
                  const std::string& model_dir) {
  CliFigure fig;
  int pipefd[2];
  if (pipe(pipefd) != 0) throw Error("pipe failed");
  std::fflush(stdout);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    if (!model_dir.empty()) setenv("VQTWIN_MODEL_PATH", model_dir.c_str(), 1);
    setenv("VQTWIN_REPORT_PEAK_MEMORY", "1", 1);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(cli.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (!std::freopen("/dev/null", "w", stdout)) _exit(127);
    dup2(pipefd[1], STDERR_FILENO);
    close(pipefd[0]);
    close(pipefd[1]);
    execv(cli.c_str(), argv.data());
    _exit(127);
  }
  close(pipefd[1]);
  std::string err;
  char buf[512];
  for (ssize_t n; (n = read(pipefd[0], buf, sizeof buf)) > 0;) err.append(buf, std::size_t(n));
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fig.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  fig.fps = frames / secs;
  const std::size_t at = err.find("peak memory:");
  if (at != std::string::npos) fig.peak_kib = std::atol(err.c_str() + at + std::strlen("peak memory:"));
  return fig;
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(s + " needs a value");
      return argv[++i];
    };
    if (s == "--cli") a.cli = next();
    else if (s == "--models") a.model_dir = next();
    else if (s == "--seconds") a.min_seconds = std::atof(next().c_str());
    else if (s == "--features") {
      a.features.clear();
      std::string list = next();
      for (std::size_t p = 0; p <= list.size();) {
        std::size_t e = list.find(',', p);
        if (e == std::string::npos) e = list.size();
        a.features.push_back(list.substr(p, e - p));
        p = e + 1;
      }
    } else if (s == "--sizes") {
      a.sizes.clear();
      std::string list = next();
      for (std::size_t p = 0; p <= list.size();) {
        std::size_t e = list.find(',', p);
        if (e == std::string::npos) e = list.size();
        int w = 0, h = 0;
        std::sscanf(list.substr(p, e - p).c_str(), "%dx%d", &w, &h);
        a.sizes.push_back({w, h, unsigned(std::max(8, int(60e6 / (double(w) * h))))});
        p = e + 1;
      }
    } else {
      throw Error("usage: vqtwin_bench [--cli PATH] [--models DIR] [--features a,b] [--sizes WxH,...] [--seconds S]");
    }
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse(argc, argv);
    std::printf("vqtwin_bench: fps, 8-bit 4:2:0 synthetic frames; extract = extraction alone, cli = whole process\n");
    std::printf("%-14s %-10s %10s %10s %10s %10s %10s\n", "feature", "size", "extract/1t", "extract/2t", "cli/1t",
                "cli/2t", "peak MiB");
    const fs::path tmp = fs::temp_directory_path() / ("vqtwin_bench_" + std::to_string(getpid()));
    fs::create_directories(tmp);
    for (const Size& sz : args.sizes) {
      const PictureFormat fmt{sz.w, sz.h, 8, ChromaFormat::k420};
      std::vector<Picture> refs, dists;
      for (int f = 0; f < 4; ++f) {
        refs.emplace_back(fmt);
        dists.emplace_back(fmt);
        fill(refs.back(), dists.back(), f);
      }
      const std::string ref_path = (tmp / "ref.y4m").string(), dist_path = (tmp / "dist.y4m").string();
      if (!args.cli.empty()) {
        write_y4m(ref_path, refs, sz.frames);
        write_y4m(dist_path, dists, sz.frames);
      }
      const std::string size_name = std::to_string(sz.w) + "x" + std::to_string(sz.h);
      for (const auto& name : args.features) {
        const ExtractorInfo* info = find_extractor(name);
        if (!info) continue;
        double e1 = 0, e2 = 0;
        try {
          e1 = extract_fps(*info, refs, dists, 1, args.min_seconds);
          e2 = extract_fps(*info, refs, dists, 2, args.min_seconds);
        } catch (const Error& e) {
          std::printf("%-14s %-10s skipped: %s\n", name.c_str(), size_name.c_str(), e.what());
          continue;
        }
        CliFigure c1, c2;
        if (!args.cli.empty()) {
          std::vector<std::string> base{"-q", "-r", ref_path, "-d", dist_path, "--no_prediction", "--feature", name,
                                        "--json", "-o", "/dev/null", "--threads"};
          auto a1 = base, a2 = base;
          a1.push_back("1");
          a2.push_back("2");
          c1 = run_cli(args.cli, a1, sz.frames, "");
          c2 = run_cli(args.cli, a2, sz.frames, "");
        }
        std::printf("%-14s %-10s %10.1f %10.1f %10.1f %10.1f %10.1f\n", name.c_str(), size_name.c_str(), e1, e2,
                    c1.fps, c2.fps, std::max(c1.peak_kib, c2.peak_kib) / 1024.0);
        std::fflush(stdout);
      }
      if (!args.cli.empty() && !args.model_dir.empty()) {
        std::vector<std::string> base{"-q", "-r", ref_path, "-d", dist_path, "--model", "version=vmaf_v0.6.1",
                                      "--json", "-o", "/dev/null", "--threads"};
        auto a1 = base, a2 = base;
        a1.push_back("1");
        a2.push_back("2");
        const CliFigure c1 = run_cli(args.cli, a1, sz.frames, args.model_dir);
        const CliFigure c2 = run_cli(args.cli, a2, sz.frames, args.model_dir);
        if (c1.ok && c2.ok)
          std::printf("%-14s %-10s %10s %10s %10.1f %10.1f %10.1f\n", "vmaf_v0.6.1", size_name.c_str(), "-", "-", c1.fps,
                      c2.fps, std::max(c1.peak_kib, c2.peak_kib) / 1024.0);
        else
          std::printf("%-14s %-10s cli failed\n", "vmaf_v0.6.1", size_name.c_str());
      }
    }
    fs::remove_all(tmp);
  } catch (const Error& e) {
    std::fprintf(stderr, "vqtwin_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
