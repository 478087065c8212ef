// Whole-process throughput of the vqtwin CLI from y4m files in the page cache: each case (psnr, the
// VMAF model) at each size and bit depth, on the CPU and with --backend cuda (or vulkan, auto: --backends), prints
//   fps         frames / wall time of the whole process (start to exit)
//   engine fps  the run's own figure (the JSON's "fps": reading and computing, after start-up)
//   start ms    the rest of the wall time (process start, device set-up, model, output)
//   busy        the device's busy fraction (VQTWIN_REPORT_DEVICE_BUSY: the union of the frames'
//               intervals on the device, from the first upload to the last frame's end) and the
//               same busy time against the whole process
//   peak MiB    the process's peak resident memory (VmHWM, pinned slots included)
//   on device   whether every output came from a twin (the JSON receipt), else how many fell back
// Each figure is the median of --runs processes; frames per run are chosen from a short warm-up run
// so each measured run lasts about --seconds. --scaling 1,4,16 adds the CPU's VMAF at those thread
// counts (the first size and depth).
// Figures only; nothing is asserted.
//   cli_throughput --cli PATH [--sizes 1920x1080,3840x2160] [--depths 8,10] [--cases psnr,vmaf]
//                  [--backends cpu,cuda] [--threads N] [--runs N] [--seconds S] [--mib N] [--scaling 1,4,16]
//                  [--dir DIR]
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Args {
  std::string cli;
  std::vector<std::pair<int, int>> sizes{{1920, 1080}, {3840, 2160}};
  std::vector<int> depths{8, 10};
  std::vector<std::string> cases{"psnr", "vmaf"};
  std::vector<std::string> backends{"cpu", "cuda"};
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  unsigned runs = 3;
  double seconds = 1.0;
  double mib = 2048;  // size of each input file
  std::vector<unsigned> scaling;  // thread counts for the CPU's VMAF at the first size and depth
  std::string dir = "/tmp";
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

// 8 distinct frames (a moving texture; the distorted one quantised with a little noise), written
// over and over by several threads at their offsets.
void write_y4m(const std::string& path, int w, int h, int depth, unsigned frames, bool distorted) {
  const int bps = depth > 8 ? 2 : 1;
  const int cw = (w + 1) / 2, ch = (h + 1) / 2;
  const std::size_t samples = std::size_t(w) * h + 2 * std::size_t(cw) * ch;
  const std::string header = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 Ip A1:1 C420" +
                             (depth > 8 ? "p" + std::to_string(depth) : std::string("jpeg")) + "\n";
  const std::size_t per = 6 + samples * std::size_t(bps);
  std::vector<std::string> pics(8);
  const int max = (1 << depth) - 1;
  for (int f = 0; f < 8; ++f) {
    std::string& s = pics[std::size_t(f)];
    s.resize(per);
    std::memcpy(s.data(), "FRAME\n", 6);
    std::size_t i = 0;
    auto put = [&](int v) {
      v = std::clamp(v, 0, max);
      if (bps == 2) {
        s[6 + 2 * i] = char(v & 255);
        s[6 + 2 * i + 1] = char(v >> 8);
      } else {
        s[6 + i] = char(v);
      }
      ++i;
    };
    for (int p = 0; p < 3; ++p) {
      const int pw = p ? cw : w, ph = p ? ch : h;
      for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x) {
          std::uint32_t hash = std::uint32_t(x * 73856093u) ^ std::uint32_t(y * 19349663u) ^ std::uint32_t(f * 83492791u);
          hash ^= hash >> 13;
          hash *= 0x5bd1e995u;
          const double t = 0.5 + 0.3 * std::sin(0.05 * (x + 3 * f) + 0.03 * y + p) + double(hash >> 27) / 256;
          int v = int(t * max);
          if (distorted) v = v / (8 << (depth - 8)) * (8 << (depth - 8)) + int(hash >> 30);
          put(v);
        }
    }
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + path);
  if (::pwrite(fd, header.data(), header.size(), 0) != ssize_t(header.size())) throw std::runtime_error("write failed");
  const unsigned writers = std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  bool failed = false;
  for (unsigned t = 0; t < writers; ++t)
    pool.emplace_back([&, t] {
      for (unsigned i = t; i < frames; i += writers) {
        const std::string& s = pics[i % 8];
        if (::pwrite(fd, s.data(), s.size(), off_t(header.size() + std::uint64_t(i) * per)) != ssize_t(s.size()))
          failed = true;
      }
    });
  for (auto& th : pool) th.join();
  ::close(fd);
  if (failed) throw std::runtime_error("write failed: " + path);
}

struct Run {
  bool ok = false;
  double wall = 0, engine_fps = 0, peak_mib = 0, busy_ms = -1, busy_span_ms = 0;
  int fallbacks = -1;  // outputs the receipt names as computed on the CPU; -1: no receipt
  std::string error;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One process of the CLI; its stderr (peak memory, device busy) comes back through a file.
Run run_cli(const Args& a, const std::vector<std::string>& args) {
  const std::string out = a.dir + "/cli_throughput_out.json", err = a.dir + "/cli_throughput_err.txt";
  std::vector<std::string> all = args;
  for (const char* s : {"-q", "--json", "-o"}) all.push_back(s);
  all.push_back(out);
  std::fflush(stdout);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("VQTWIN_REPORT_PEAK_MEMORY", "1", 1);
    ::setenv("VQTWIN_REPORT_DEVICE_BUSY", "1", 1);
    std::vector<char*> argv{const_cast<char*>(a.cli.c_str())};
    for (auto& s : all) argv.push_back(const_cast<char*>(s.c_str()));
    argv.push_back(nullptr);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int n = ::open("/dev/null", O_WRONLY);
    if (e < 0 || n < 0) ::_exit(127);
    ::dup2(e, STDERR_FILENO);
    ::dup2(n, STDOUT_FILENO);
    ::execv(a.cli.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  Run r;
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  const std::string e = slurp(err);
  // "vqtwin: peak memory:   123456 kB" (the number after the label's colon, not the program's).
  if (auto at = e.find("peak memory:"); at != std::string::npos)
    r.peak_mib = std::atof(e.c_str() + at + std::strlen("peak memory:")) / 1024;
  if (auto at = e.find("device busy: "); at != std::string::npos) {
    const char* p = e.c_str() + at + std::strlen("device busy: ");
    char* end = nullptr;
    r.busy_ms = std::strtod(p, &end);
    if (const char* of = std::strstr(end, " of ")) r.busy_span_ms = std::atof(of + 4);
  }
  if (!r.ok) {
    std::string line = e.substr(0, e.find('\n'));
    r.error = line.empty() ? "exit status " + std::to_string(WEXITSTATUS(status)) : line;
    return r;
  }
  const std::string json = slurp(out);
  if (auto at = json.find("\"fps\": "); at != std::string::npos) r.engine_fps = std::atof(json.c_str() + at + 7);
  if (auto at = json.find("\"backends\""); at != std::string::npos) {
    const std::string rec = json.substr(at, json.find('}', at) - at);
    r.fallbacks = 0;
    for (std::size_t k = 0; (k = rec.find("(cpu fallback)", k)) != std::string::npos; ++k) ++r.fallbacks;
    for (std::size_t k = 0; (k = rec.find("\": \"", k)) != std::string::npos; k += 4) {
      const std::size_t v = k + 4, ve = rec.find('"', v);
      const std::string impl = rec.substr(v, ve - v);
      const bool twin = impl.find("_cuda") != std::string::npos || impl.find("_vulkan") != std::string::npos;
      if (!twin && impl.find("(cpu fallback)") == std::string::npos) ++r.fallbacks;
    }
  }
  return r;
}

std::vector<std::string> case_args(const std::string& c) {
  if (c == "psnr") return {"--feature", "psnr", "-n"};
  if (c == "vmaf") return {"--model", "version=vmaf_v0.6.1"};
  return {"--feature", c, "-n"};
}

// The median (by wall time) of `runs` processes on `frames` frames.
Run median_run(const Args& a, std::vector<std::string> args, unsigned frames) {
  args.push_back("--frame_cnt");
  args.push_back(std::to_string(frames));
  std::vector<Run> rs;
  for (unsigned i = 0; i < a.runs; ++i) {
    rs.push_back(run_cli(a, args));
    if (!rs.back().ok) return rs.back();
  }
  std::sort(rs.begin(), rs.end(), [](const Run& x, const Run& y) { return x.wall < y.wall; });
  return rs[rs.size() / 2];
}

// Frames for a run of about a.seconds, from a warm-up run of a few frames (which also fills the
// page cache and the device's start-up paths).
unsigned frames_for(const Args& a, const std::vector<std::string>& args, unsigned available, Run* warm) {
  std::vector<std::string> w = args;
  const unsigned probe = std::min(available, 24u);
  w.push_back("--frame_cnt");
  w.push_back(std::to_string(probe));
  *warm = run_cli(a, w);
  if (!warm->ok) return 0;
  const double fps = warm->engine_fps > 0 ? warm->engine_fps : probe / warm->wall;
  return unsigned(std::clamp(fps * a.seconds, double(std::min(available, 16u)), double(available)));
}

void print_row(const std::string& label, const std::string& format, const std::string& backend, unsigned threads,
               unsigned frames, const Run& r) {
  if (!r.ok) {
    std::printf("%-6s %-22s %-6s %3u %6u   failed: %s\n", label.c_str(), format.c_str(), backend.c_str(), threads, frames,
                r.error.c_str());
    std::fflush(stdout);
    return;
  }
  const double fps = frames / r.wall;
  const double start_ms = r.engine_fps > 0 ? 1000 * (r.wall - frames / r.engine_fps) : 0;
  char busy[64] = "-";
  if (r.busy_ms >= 0 && r.busy_span_ms > 0)
    std::snprintf(busy, sizeof busy, "%5.1f%% / %5.1f%%", 100 * r.busy_ms / r.busy_span_ms, 100 * r.busy_ms / (1000 * r.wall));
  const std::string device = r.fallbacks < 0 ? "-" : r.fallbacks == 0 ? "all" : std::to_string(r.fallbacks) + " on cpu";
  std::printf("%-6s %-22s %-6s %3u %6u %9.1f %10.1f %8.0f %17s %9.0f  %s\n", label.c_str(), format.c_str(),
              backend.c_str(), threads, frames, fps, r.engine_fps, start_ms, busy, r.peak_mib, device.c_str());
  std::fflush(stdout);
}

int bench(const Args& a) {
  std::printf("cli_throughput: %s, %u hardware threads, median of %u processes, about %.1f s each, y4m in the page cache\n",
              a.cli.c_str(), std::max(1u, std::thread::hardware_concurrency()), a.runs, a.seconds);
  std::printf("%-6s %-22s %-6s %3s %6s %9s %10s %8s %17s %9s  %s\n", "case", "format", "on", "thr", "frames", "fps",
              "engine fps", "start ms", "busy span / proc", "peak MiB", "on device");
  const std::string ref = a.dir + "/cli_throughput_ref.y4m", dist = a.dir + "/cli_throughput_dist.y4m";
  for (const auto& [w, h] : a.sizes)
    for (int depth : a.depths) {
      const double frame_mib = (double(w) * h * 1.5 * (depth > 8 ? 2 : 1)) / (1 << 20);
      const unsigned frames = unsigned(std::max(16.0, a.mib / frame_mib));
      const auto t0 = std::chrono::steady_clock::now();
      write_y4m(ref, w, h, depth, frames, false);
      write_y4m(dist, w, h, depth, frames, true);
      const std::string format = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(depth) + "-bit";
      std::printf("# %s: %u frames a file (%.0f MiB), written in %.1f s\n", format.c_str(), frames, frames * frame_mib,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      for (const auto& c : a.cases)
        for (const auto& backend : a.backends) {
          std::vector<std::string> args{"-r", ref, "-d", dist, "--threads", std::to_string(a.threads)};
          for (auto& s : case_args(c)) args.push_back(s);
          if (backend != "cpu") {
            args.push_back("--backend");
            args.push_back(backend);
          }
          Run warm;
          const unsigned n = frames_for(a, args, frames, &warm);
          print_row(c, format, backend, a.threads, n, n ? median_run(a, args, n) : warm);
        }
      if (depth == a.depths.front() && w == a.sizes.front().first)
        for (unsigned t : a.scaling) {
          std::vector<std::string> args{"-r", ref, "-d", dist, "--threads", std::to_string(t)};
          for (auto& s : case_args("vmaf")) args.push_back(s);
          Run warm;
          const unsigned n = frames_for(a, args, frames, &warm);
          print_row("vmaf", format, "cpu", t, n, n ? median_run(a, args, n) : warm);
        }
      std::remove(ref.c_str());
      std::remove(dist.c_str());
    }
  return 0;
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) throw std::runtime_error(k + " needs a value");
    const std::string v = argv[++i];
    if (k == "--cli") a.cli = v;
    else if (k == "--sizes") {
      a.sizes.clear();
      for (const auto& s : split(v, ',')) a.sizes.push_back({std::stoi(s), std::stoi(s.substr(s.find('x') + 1))});
    } else if (k == "--depths") {
      a.depths.clear();
      for (const auto& s : split(v, ',')) a.depths.push_back(std::stoi(s));
    } else if (k == "--cases") a.cases = split(v, ',');
    else if (k == "--backends") a.backends = split(v, ',');
    else if (k == "--threads") a.threads = unsigned(std::stoul(v));
    else if (k == "--runs") a.runs = unsigned(std::stoul(v));
    else if (k == "--seconds") a.seconds = std::stod(v);
    else if (k == "--mib") a.mib = std::stod(v);
    else if (k == "--dir") a.dir = v;
    else if (k == "--scaling")
      for (const auto& t : split(v, ',')) a.scaling.push_back(unsigned(std::stoul(t)));
    else throw std::runtime_error("unknown argument " + k);
  }
  if (a.cli.empty()) throw std::runtime_error("--cli PATH is needed (the vqtwin binary)");
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return bench(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cli_throughput: error: %s\n", e.what());
    return 1;
  }
}
