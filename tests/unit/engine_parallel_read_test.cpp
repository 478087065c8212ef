// The engine on regular y4m/raw files, whose frames its workers read in parallel, against the same
// bytes through a pipe, which is read one frame after the other: the same values for every frame
// and every thread count, and the same handling of frame headers with parameters, a frame cut short,
// inputs of different lengths, --frame_skip_*, --frame_cnt and --subsample.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "vqtwin/error.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin {
namespace {

constexpr int kW = 64, kH = 48, kFrameBytes = kW * kH * 3 / 2;

// Frame f of clip `seed`: a texture that moves, so psnr, ssim and motion differ from frame to frame.
std::string frame_bytes(int f, int seed) {
  std::string s(kFrameBytes, '\0');
  for (int i = 0; i < kFrameBytes; ++i) {
    const int x = i % kW, y = (i / kW) % kH;
    s[std::size_t(i)] = char((x * 3 + y * 5 + f * 7 + ((x * y + f * 13 + seed * 29) % 23) * seed) & 255);
  }
  return s;
}

struct Clip {
  int frames = 10;
  int seed = 0;
  std::vector<int> header_params;  // frames whose header carries parameters
  int cut = -1;                    // bytes of one more frame, cut short (-1: none)
  bool raw = false;
  int first = 0;  // the number of its first frame (a clip that starts later)
};

std::string bytes_of(const Clip& c) {
  std::string s = c.raw ? "" : "YUV4MPEG2 W64 H48 F25:1 C420jpeg\n";
  auto header = [&](int f) {
    if (c.raw) return std::string();
    for (int p : c.header_params)
      if (p == f) return std::string("FRAME Ixyz XFRAME=") + std::to_string(f) + "\n";
    return std::string("FRAME\n");
  };
  for (int f = 0; f < c.frames; ++f) s += header(f) + frame_bytes(c.first + f, c.seed);
  if (c.cut >= 0) s += (header(c.frames) + frame_bytes(c.first + c.frames, c.seed)).substr(0, std::size_t(c.cut));
  return s;
}

class Files {
 public:
  Files() : dir_(std::filesystem::temp_directory_path() / ("vqtwin_parallel_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
    std::signal(SIGPIPE, SIG_IGN);
  }
  ~Files() {
    for (int fd : fds_) ::close(fd);  // first: a writer the run did not read to the end then stops
    for (auto& t : writers_) t.join();
    std::filesystem::remove_all(dir_);
  }
  std::string file(const std::string& name, const std::string& data) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << data;
    return path;
  }
  // A pipe carrying `data`, as a path the engine can open (so it reads one frame after the other).
  std::string pipe(const std::string& data) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    fds_.push_back(fds[0]);
    writers_.emplace_back([data, w = fds[1]] {
      for (std::size_t at = 0; at < data.size();) {
        const ssize_t n = ::write(w, data.data() + at, data.size() - at);
        if (n <= 0) break;
        at += std::size_t(n);
      }
      ::close(w);
    });
    return "/dev/fd/" + std::to_string(fds[0]);
  }

 private:
  std::filesystem::path dir_;
  std::vector<std::thread> writers_;
  std::vector<int> fds_;
};

struct Outcome {
  std::map<std::string, std::vector<std::optional<double>>> values;
  unsigned frames = 0;
  std::string error;
  std::vector<std::string> warnings;
};

Outcome run_on(const std::string& ref, const std::string& dist, unsigned threads, RunConfig cfg = {}) {
  cfg.reference = ref;
  cfg.distorted = dist;
  if (cfg.features.empty()) cfg.features = {"psnr", "float_ssim", "float_motion"};  // float_motion: temporal
  cfg.no_prediction = true;
  cfg.threads = threads;
  Outcome o;
  cfg.warn = [&](const std::string& w) { o.warnings.push_back(w); };
  Results r;
  try {
    run(cfg, r);
  } catch (const Error& e) {
    o.error = e.what();
  }
  o.frames = r.frames;
  for (const auto& name : r.names())
    for (unsigned i = 0; i < r.frame_count(); ++i) o.values[name].push_back(r.value(name, i));
  return o;
}

// The values of every frame, as the pipe gives them, for every thread count.
void expect_same(const Outcome& got, const Outcome& want, const std::string& what) {
  EXPECT_EQ(got.frames, want.frames) << what;
  ASSERT_EQ(got.values.size(), want.values.size()) << what;
  for (const auto& [name, v] : want.values) {
    ASSERT_TRUE(got.values.count(name)) << what << ": " << name;
    const auto& g = got.values.at(name);
    ASSERT_EQ(g.size(), v.size()) << what << ": " << name;
    for (std::size_t i = 0; i < v.size(); ++i) {
      ASSERT_EQ(g[i].has_value(), v[i].has_value()) << what << ": " << name << " frame " << i;  // --subsample
      if (v[i]) {
        EXPECT_EQ(*g[i], *v[i]) << what << ": " << name << " frame " << i;  // bit for bit
      }
    }
  }
}

TEST(EngineParallelRead, SameValuesAsOneFrameAfterTheOther) {
  Files f;
  const Clip ref{40, 1}, dist{40, 2};
  const std::string r = f.file("r.y4m", bytes_of(ref)), d = f.file("d.y4m", bytes_of(dist));
  const Outcome want = run_on(f.pipe(bytes_of(ref)), f.pipe(bytes_of(dist)), 1);
  ASSERT_EQ(want.error, "");
  ASSERT_EQ(want.frames, 40u);
  for (unsigned threads : {1u, 2u, 3u, 8u}) expect_same(run_on(r, d, threads), want, std::to_string(threads) + " threads");
  // One input a pipe, the other a file: each is read its own way.
  expect_same(run_on(f.pipe(bytes_of(ref)), d, 4), want, "pipe + file");
  // Raw files.
  Clip rref = ref, rdist = dist;
  rref.raw = rdist.raw = true;
  RunConfig raw;
  raw.width = kW;
  raw.height = kH;
  raw.pixel_format = "420";
  raw.bitdepth = 8;
  expect_same(run_on(f.file("r.yuv", bytes_of(rref)), f.file("d.yuv", bytes_of(rdist)), 5, raw), want, "raw");
}

TEST(EngineParallelRead, SkipsCountAndSubsampleAsBefore) {
  Files f;
  const Clip ref{30, 3}, dist{33, 4};
  const std::string r = f.file("r.y4m", bytes_of(ref)), d = f.file("d.y4m", bytes_of(dist));
  RunConfig cfg;
  cfg.frame_skip_ref = 2;
  cfg.frame_skip_dist = 5;
  cfg.frame_cnt = 17;
  cfg.subsample = 3;
  const Outcome want = run_on(f.pipe(bytes_of(ref)), f.pipe(bytes_of(dist)), 1, cfg);
  ASSERT_EQ(want.error, "");
  ASSERT_EQ(want.frames, 17u);
  for (unsigned threads : {1u, 4u}) expect_same(run_on(r, d, threads, cfg), want, std::to_string(threads) + " threads");
}

TEST(EngineParallelRead, FrameHeadersWithParameters) {
  // Parameters on frames 4 and 9 of the reference: its frames are read one after the other from
  // frame 4 on; the values are those of the same pictures with bare headers.
  Files f;
  Clip ref{20, 5}, dist{20, 6};
  const Outcome want = run_on(f.file("bare.y4m", bytes_of(ref)), f.file("d.y4m", bytes_of(dist)), 1);
  ASSERT_EQ(want.error, "");
  ref.header_params = {4, 9};
  const std::string r = f.file("params.y4m", bytes_of(ref));
  for (unsigned threads : {1u, 3u, 8u})
    expect_same(run_on(r, f.file("d.y4m", bytes_of(dist)), threads), want, std::to_string(threads) + " threads");
  // On the first frame: nothing is claimed at all.
  ref.header_params = {0};
  expect_same(run_on(f.file("params0.y4m", bytes_of(ref)), f.file("d.y4m", bytes_of(dist)), 4), want, "frame 0");
}

TEST(EngineParallelRead, AFrameCutShortIsAnErrorAfterTheFramesBeforeIt) {
  Files f;
  const Clip ref{12, 7, {}, 1000}, dist{20, 8};
  const Outcome want = run_on(f.pipe(bytes_of(ref)), f.pipe(bytes_of(dist)), 1);
  ASSERT_NE(want.error.find(": frame 12 is truncated (994 of 4608 bytes)"), std::string::npos) << want.error;
  ASSERT_EQ(want.frames, 12u);
  const std::string r = f.file("r.y4m", bytes_of(ref)), d = f.file("d.y4m", bytes_of(dist));
  for (unsigned threads : {1u, 4u, 8u}) {
    const Outcome got = run_on(r, d, threads);
    EXPECT_EQ(got.error, r + ": frame 12 is truncated (994 of 4608 bytes)") << threads;
    expect_same(got, want, std::to_string(threads) + " threads");
  }
}

TEST(EngineParallelRead, AFileCutShortWhileRunningKeepsTheFramesBeforeTheCut) {
  // The reference loses its end while it is read (after frame 2 is done): a frame claimed on the
  // size seen at open then comes up short. The error names the first frame cut; every frame before
  // it has all its values (float_motion's last one included: it is flushed there), none after it.
  Files f;
  const Clip ref{40, 9}, dist{40, 10};
  const std::string full = bytes_of(ref);
  const std::size_t keep = full.size() - 24 * (6 + kFrameBytes) - 3000;  // 15 frames and part of one
  const Clip cut{15, 9, {}, 6 + kFrameBytes - 3000};
  const Outcome want = run_on(f.pipe(bytes_of(cut)), f.pipe(bytes_of(dist)), 1);
  ASSERT_EQ(want.frames, 15u);
  const std::string d = f.file("d.y4m", bytes_of(dist));
  for (unsigned threads : {1u, 3u, 8u}) {
    const std::string r = f.file("r" + std::to_string(threads) + ".y4m", full);
    RunConfig cfg;
    // The worker that completes the third frame cuts the file; a worker completing a later frame waits
    // for the cut before it claims another (a worker calls progress before its next claim), so no
    // frame past 3 + threads + 1 < 15 is read before the cut, however the threads are scheduled.
    std::atomic<bool> shrunk{false};
    cfg.progress = [&](unsigned done, unsigned) {
      if (done == 3) {
        std::filesystem::resize_file(r, keep);
        shrunk = true;
        shrunk.notify_all();
      } else if (done > 3) {
        shrunk.wait(false);
      }
    };
    const Outcome got = run_on(r, d, threads, cfg);
    EXPECT_EQ(got.error, r + ": frame 15 is truncated (" + std::to_string(kFrameBytes - 3000) + " of 4608 bytes)")
        << threads;
    expect_same(got, want, std::to_string(threads) + " threads");
  }
}

TEST(EngineParallelRead, ReadingAheadWithFeaturesInAnyOrderOrInTurn) {
  // With a core to spare, the run's own thread reads frames ahead into free slots while the workers
  // compute; without temporal features the workers also read when nothing is queued, with them every
  // frame goes through the queue. Either way every frame's values are its own, as the pipe gives them,
  // and a frame cut short ends the run after the frames before it.
  Files f;
  const Clip ref{60, 14}, dist{60, 15};
  const std::string r = f.file("r.y4m", bytes_of(ref)), d = f.file("d.y4m", bytes_of(dist));
  const Clip cut_ref{33, 14, {}, 2000};
  const std::string rc = f.file("rc.y4m", bytes_of(cut_ref));
  for (const std::vector<std::string>& features :
       {std::vector<std::string>{"psnr", "float_ssim"}, std::vector<std::string>{"float_motion", "psnr"}}) {
    RunConfig cfg;
    cfg.features = features;
    const std::string what = features[0] + ", " + features[1];
    const Outcome want = run_on(f.pipe(bytes_of(ref)), f.pipe(bytes_of(dist)), 1, cfg);
    ASSERT_EQ(want.error, "");
    ASSERT_EQ(want.frames, 60u);
    const Outcome want_cut = run_on(f.pipe(bytes_of(cut_ref)), f.pipe(bytes_of(dist)), 1, cfg);
    ASSERT_EQ(want_cut.frames, 33u);
    for (unsigned threads : {1u, 2u, 5u}) {
      const std::string how = what + ", " + std::to_string(threads) + " threads";
      expect_same(run_on(r, d, threads, cfg), want, how);
      const Outcome got = run_on(rc, d, threads, cfg);
      EXPECT_EQ(got.error, rc + ": frame 33 is truncated (1994 of 4608 bytes)") << how;
      expect_same(got, want_cut, how + ", cut");
    }
  }
}

// Warnings with the inputs' names replaced, to compare a pipe's with a file's.
std::vector<std::string> unnamed(std::vector<std::string> warnings, const std::string& ref, const std::string& dist) {
  for (auto& w : warnings)
    for (const auto& [name, as] : {std::pair{ref, "REF"}, std::pair{dist, "DIST"}})
      for (std::size_t at; (at = w.find(name)) != std::string::npos;) w.replace(at, name.size(), as);
  return warnings;
}

TEST(EngineParallelRead, TheShiftCheckSeesTheFirstFramesWhicheverWorkerReadThem) {
  // The distorted starts 2 frames later: the check of the first 8 frames warns as it does on a pipe.
  Files f;
  const Clip ref{30, 13}, dist{28, 13, {}, -1, false, 2};
  const std::string rp = f.pipe(bytes_of(ref)), dp = f.pipe(bytes_of(dist));
  const Outcome want = run_on(rp, dp, 1);
  ASSERT_EQ(want.warnings.size(), 2u);  // the shift, the lengths
  EXPECT_NE(want.warnings[0].find("at a shift of 2"), std::string::npos) << want.warnings[0];
  const std::string r = f.file("r.y4m", bytes_of(ref)), d = f.file("d.y4m", bytes_of(dist));
  for (unsigned threads : {1u, 3u, 8u}) {
    const Outcome got = run_on(r, d, threads);
    EXPECT_EQ(unnamed(got.warnings, r, d), unnamed(want.warnings, rp, dp)) << threads;
    expect_same(got, want, std::to_string(threads) + " threads");
  }
  // Fewer frames than the check looks at: it runs at the end on those.
  RunConfig cfg;
  cfg.frame_cnt = 5;
  const Outcome short_want = run_on(f.pipe(bytes_of(ref)), f.pipe(bytes_of(dist)), 1, cfg);
  ASSERT_EQ(short_want.warnings.size(), 1u);
  EXPECT_EQ(run_on(r, d, 4, cfg).warnings.size(), 1u);
  EXPECT_NE(run_on(r, d, 4, cfg).warnings[0].find("at a shift of 2"), std::string::npos);
}

TEST(EngineParallelRead, InputsOfDifferentLengths) {
  Files f;
  const Clip longer{10, 11}, shorter{7, 12};
  const std::string l = f.file("long.y4m", bytes_of(longer)), s = f.file("short.y4m", bytes_of(shorter));
  for (unsigned threads : {1u, 4u}) {
    RunConfig unchecked;
    unchecked.sync = "none";  // these synthetic clips look shifted
    Outcome o = run_on(l, s, threads, unchecked);
    EXPECT_EQ(o.error, "");
    EXPECT_EQ(o.frames, 7u);
    ASSERT_EQ(o.warnings.size(), 1u);
    EXPECT_EQ(o.warnings[0], s + " ended after 7 frames, " + l + " has 10; scored 7; --strict_length makes this an error");
    o = run_on(s, l, threads, unchecked);
    ASSERT_EQ(o.warnings.size(), 1u);
    EXPECT_EQ(o.warnings[0], s + " ended after 7 frames, " + l + " has 10; scored 7; --strict_length makes this an error");
    // With skips, and the longer one's length counted on (frame headers with parameters).
    Clip counted = longer;
    counted.header_params = {1};
    const std::string c = f.file("counted.y4m", bytes_of(counted));
    RunConfig cfg = unchecked;
    cfg.frame_skip_ref = 2;
    o = run_on(s, c, threads, cfg);
    ASSERT_EQ(o.warnings.size(), 1u);
    EXPECT_EQ(o.warnings[0], s + " ended after 7 frames, " + c + " has 10; scored 5; --strict_length makes this an error");
    cfg.strict_length = true;
    o = run_on(s, c, threads, cfg);
    EXPECT_EQ(o.error, s + " ended after 7 frames, " + c + " has 10; scored 5 (--strict_length)");
    EXPECT_EQ(o.frames, 5u);
  }
  // The same words as the pipe gives, but for the names.
  RunConfig unchecked;
  unchecked.sync = "none";
  const Outcome p = run_on(f.pipe(bytes_of(longer)), f.pipe(bytes_of(shorter)), 1, unchecked);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find(" ended after 7 frames, "), std::string::npos);
  EXPECT_NE(p.warnings[0].find(" has 10; scored 7;"), std::string::npos);
}

}  // namespace
}  // namespace vqtwin
