// --backend auto splits a run between the CPU and a device. Who computes a frame must never change a
// value: a mixed run's results equal a CPU run's bit for bit, names in the same order. Proven without a
// GPU on a stand-in device whose "twins" run the CPU extractors on the device slots' pictures (so any
// difference comes from the split: which instance computed which frame, the temporal handover, the
// frame numbering, the flush), made ready after a chosen number of frames so the split falls where
// the test wants it. VQTWIN_PLANT=mixed_no_overlap (handover without the temporal overlap) must fail.
// Frames decoded on the device (--hwdec) go the same way: a stand-in decoder hands its frames to the
// slots packed as NVDEC's surfaces, the slots unpack them into their "device" pictures at upload()
// and into the host pictures (garbage until then) at host_pictures().
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "backends/device.hpp"
#include "core/device_start.hpp"
#include "core/engine.hpp"
#include "core/registry.hpp"
#include "io/device_frame.hpp"
#include "io/inputs.hpp"
#include "vqtwin/results.hpp"
#include "vqtwin/run.hpp"
#include "vqtwin/session.hpp"

namespace vqtwin {
namespace {

// ---- the stand-in device ----

// Row y of plane p, as bytes (Picture::row<T> counts its stride in samples).
unsigned char* bytes_of(Picture& pic, int p, int y) {
  return static_cast<unsigned char*>(pic.data(p)) + std::ptrdiff_t(y) * pic.stride_bytes(p);
}
const unsigned char* bytes_of(const Picture& pic, int p, int y) {
  return static_cast<const unsigned char*>(pic.data(p)) + std::ptrdiff_t(y) * pic.stride_bytes(p);
}

void copy_picture(const Picture& from, Picture& to) {
  for (int p = 0; p < from.format().num_planes(); ++p)
    for (int y = 0; y < from.height(p); ++y)
      std::memcpy(bytes_of(to, p, y), bytes_of(from, p, y),
                  std::size_t(from.width(p)) * std::size_t(from.format().bytes_per_sample()));
}

// Counts of the stand-in's device-decoded frames: taken by a slot, unpacked for the twins (upload),
// unpacked for the CPU (host_pictures). g_skip_host_pictures: the planted bug (the CPU reads a frame
// decoded on the device without it being copied back).
std::atomic<unsigned> g_taken{0}, g_unpacked_for_device{0}, g_unpacked_for_host{0};
bool g_skip_host_pictures = false;
// The stand-in device's time per frame (microseconds a frame's wait() takes, each slot on its own, as
// frames in flight on a device overlap): 0 unless a test sets it.
std::atomic<unsigned> g_device_frame_us{0};

void unpack(const DeviceFrame& f, Picture& to) { unpack_surface(f.plane, f.pitch, f.layout, to); }

// Host pictures the workers fill, "device" pictures the twins read (copied or unpacked at upload()).
class FakeSlot final : public FrameSlot {
 public:
  FakeSlot(const PictureFormat& f, unsigned i) : index_(i), ref_(f), dist_(f), device_{Picture(f), Picture(f)} {}
  unsigned index() const override { return index_; }
  Picture& ref() override { return ref_; }
  Picture& dist() override { return dist_; }
  void upload() override {
    for (int w = 0; w < 2; ++w) {
      if (!taken_[w]) copy_picture(w ? dist_ : ref_, device_[w]);
      else {
        unpack(frames_[w], device_[w]);
        ++g_unpacked_for_device;
      }
    }
    uploaded_ = true;
  }
  void wait() override {
    if (uploaded_ && g_device_frame_us) std::this_thread::sleep_for(std::chrono::microseconds(g_device_frame_us.load()));
    uploaded_ = false;
  }
  bool uploaded() const { return uploaded_; }
  const Picture& device_ref() const { return device_[0]; }
  const Picture& device_dist() const { return device_[1]; }

  void begin_frame() override { taken_[0] = taken_[1] = host_valid_[0] = host_valid_[1] = false; }
  DeviceFrameTarget* device_target(int which) override { return &targets_[which]; }
  void host_pictures() override {
    for (int w = 0; w < 2; ++w)
      if (taken_[w] && !host_valid_[w]) {
        if (!g_skip_host_pictures) unpack(frames_[w], w ? dist_ : ref_);
        host_valid_[w] = true;
        ++g_unpacked_for_host;
      }
  }

 private:
  class Target final : public DeviceFrameTarget {
   public:
    Target(FakeSlot& s, int w) : slot_(s), which_(w) {}
    int device() const override { return 0; }
    void take(DeviceFrame f) override {
      slot_.frames_[which_] = std::move(f);
      slot_.taken_[which_] = true;
      // The host picture is stale now: garbage, so a CPU context reading it unconverted is caught.
      Picture& host = which_ ? slot_.dist_ : slot_.ref_;
      for (int p = 0; p < host.format().num_planes(); ++p)
        for (int y = 0; y < host.height(p); ++y)
          std::memset(bytes_of(host, p, y), 0x35 + y % 7, std::size_t(host.stride_bytes(p)));
      ++g_taken;
    }

   private:
    FakeSlot& slot_;
    int which_;
  };
  unsigned index_;
  Picture ref_, dist_;
  Picture device_[2];
  DeviceFrame frames_[2];
  bool taken_[2] = {}, host_valid_[2] = {};
  Target targets_[2] = {{*this, 0}, {*this, 1}};
  bool uploaded_ = false;
};

class FakePipeline final : public DevicePipeline {
 public:
  FakePipeline(const PictureFormat& f, unsigned n) : format_(f) {
    for (unsigned i = 0; i < n; ++i) slots_.push_back(std::make_unique<FakeSlot>(f, i));
  }
  unsigned slot_count() const override { return unsigned(slots_.size()); }
  FrameSlot& slot(unsigned i) override { return *slots_.at(i); }
  const PictureFormat& format() const override { return format_; }
  void set_uploaded_planes(unsigned) override {}

 private:
  PictureFormat format_;
  std::vector<std::unique_ptr<FakeSlot>> slots_;
};

// Values a twin wrote for a frame in flight, handed on at collect().
class Capture final : public FeatureSink {
 public:
  void put(std::string_view n, unsigned f, double v) override { puts.emplace_back(std::string(n), f, v); }
  void aggregate(std::string_view n, double v) override { aggregates.emplace_back(std::string(n), v); }
  std::vector<std::tuple<std::string, unsigned, double>> puts;
  std::vector<std::pair<std::string, double>> aggregates;
};

// A twin that runs the CPU extractor on the slot's pictures at submit() (in the order the session
// submits) and writes its values at collect().
class FakeTwin final : public DeviceExtractor {
 public:
  explicit FakeTwin(std::unique_ptr<Extractor> cpu) : cpu_(std::move(cpu)) {}
  void bind(DevicePipeline& p) override { pipeline_ = &p; }
  void init(const PictureFormat& f) override {
    cpu_->init(f);
    captured_.resize(pipeline_ ? pipeline_->slot_count() : 1);
  }
  void submit(FrameSlot& slot, unsigned index) override {
    auto& s = dynamic_cast<FakeSlot&>(slot);
    if (!s.uploaded()) throw Error("fake twin: frame " + std::to_string(index) + " was not uploaded");
    captured_.at(slot.index()) = {};
    cpu_->extract(s.device_ref(), s.device_dist(), index, captured_[slot.index()]);
  }
  void collect(FrameSlot& slot, unsigned, FeatureSink& out) override {
    Capture& c = captured_.at(slot.index());
    for (auto& [n, f, v] : c.puts) out.put(n, f, v);
    for (auto& [n, v] : c.aggregates) out.aggregate(n, v);
    c = {};
  }
  void extract(const Picture& r, const Picture& d, unsigned i, FeatureSink& out) override { cpu_->extract(r, d, i, out); }
  void flush(FeatureSink& out) override { cpu_->flush(out); }

 private:
  std::unique_ptr<Extractor> cpu_;
  DevicePipeline* pipeline_ = nullptr;
  std::vector<Capture> captured_;
};

// One fake twin per CPU extractor: "<name>_fake", made by a function that knows its CPU extractor by
// its place in the table.
constexpr std::size_t kMaxCpu = 64;
std::vector<std::string> g_names;
std::vector<ExtractorInfo> g_twins;
std::vector<const ExtractorInfo*> g_table;

template <std::size_t I>
std::unique_ptr<Extractor> make_fake(const OptionValues& o, const RunSettings& run) {
  return std::make_unique<FakeTwin>(cpu_extractors()[I]->create(o, run));
}

template <std::size_t... I>
void build_table(std::index_sequence<I...>) {
  using Make = std::unique_ptr<Extractor> (*)(const OptionValues&, const RunSettings&);
  constexpr Make makers[] = {make_fake<I>...};
  const auto cpu = cpu_extractors();
  if (cpu.size() > kMaxCpu) throw std::runtime_error("more CPU extractors than the fake table holds");
  g_names.reserve(cpu.size());
  g_twins.reserve(cpu.size());
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    g_names.push_back(std::string(cpu[i]->name) + "_fake");
    ExtractorInfo t;
    t.spec = cpu[i]->spec;
    t.backend = Backend::kCuda;
    t.name = g_names.back();
    t.check_context = [](const OptionValues&, const PictureFormat&) { return 0; };
    t.make = makers[i];
    g_twins.push_back(t);
  }
  for (const ExtractorInfo* e : cpu) g_table.push_back(e);
  for (const ExtractorInfo& t : g_twins) g_table.push_back(&t);
}

// The device becomes usable when the test opens the gate.
std::mutex g_gate_mutex;
std::condition_variable g_gate_cv;
bool g_gate_open = false;

void open_gate() {
  {
    std::lock_guard lock(g_gate_mutex);
    g_gate_open = true;
  }
  g_gate_cv.notify_all();
}

const DeviceProvider& fake_provider() {
  static const DeviceProvider p{
      [](int, std::string*) {
        std::unique_lock lock(g_gate_mutex);
        g_gate_cv.wait(lock, [] { return g_gate_open; });
        return true;
      },
      [](const PictureFormat& f, int, unsigned slots) -> std::unique_ptr<DevicePipeline> {
        return std::make_unique<FakePipeline>(f, slots);
      },
      [] { return std::span<const ExtractorInfo* const>(g_table); },
  };
  if (g_table.empty()) build_table(std::make_index_sequence<kMaxCpu>());
  return p;
}

// A fresh fake device, closed until open_gate().
void use_fake_device() {
  {
    std::lock_guard lock(g_gate_mutex);
    g_gate_open = false;
  }
  set_device_provider(&fake_provider());
}

// ---- clips ----

// Frames with motion (a moving gradient, texture, a frame that repeats), the distorted with noise.
struct Clip {
  PictureFormat format;
  std::vector<Picture> ref, dist;
};

Clip make_clip(int w, int h, int bitdepth, unsigned frames) {
  Clip c{PictureFormat{w, h, bitdepth, ChromaFormat::k420}, {}, {}};
  std::mt19937 rng(1234 + unsigned(bitdepth));
  const int max = (1 << bitdepth) - 1;
  for (unsigned i = 0; i < frames; ++i) {
    Picture r(c.format), d(c.format);
    const unsigned t = i == 5 ? 4 : i;  // frame 5 repeats frame 4 (a zero motion score)
    for (int p = 0; p < c.format.num_planes(); ++p)
      for (int y = 0; y < r.height(p); ++y)
        for (int x = 0; x < r.width(p); ++x) {
          const int base = ((x + 3 * int(t)) * 7 + (y * 5) + ((x / 8 + y / 8 + int(t)) % 3) * 40) % 256;
          const int v = std::min(max, base << (bitdepth - 8));
          const int noise = int(rng() % 9) - 4;
          const int dv = std::clamp(v + noise * (1 << (bitdepth - 8)), 0, max);
          if (bitdepth == 8) {
            r.row<std::uint8_t>(p, y)[x] = std::uint8_t(v);
            d.row<std::uint8_t>(p, y)[x] = std::uint8_t(dv);
          } else {
            r.row<std::uint16_t>(p, y)[x] = std::uint16_t(v);
            d.row<std::uint16_t>(p, y)[x] = std::uint16_t(dv);
          }
        }
    c.ref.push_back(std::move(r));
    c.dist.push_back(std::move(d));
  }
  return c;
}

SessionConfig config(Backend b, std::vector<std::string> models, std::vector<std::string> features) {
  SessionConfig s;
  s.backend = b;
  s.models = std::move(models);
  s.features = std::move(features);
  s.threads = 3;
  return s;
}

// Pushes the clip; under a fake device the gate opens after `gate_at` frames (then the device thread
// is given a moment to hand its slots over, so the split falls there or just after).
void push_clip(const Clip& clip, const SessionConfig& cfg, Results& out, unsigned gate_at) {
  Session s(cfg, clip.format, out);
  for (unsigned i = 0; i < clip.ref.size(); ++i) {
    if (i == gate_at) {
      open_gate();
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
    }
    s.push(clip.ref[i], clip.dist[i]);
  }
  s.finish();
  open_gate();  // a check still waiting ends (its answer is not used any more)
}

// Every name in the same order, every value bit for bit, the same aggregates; "" when equal.
std::string difference(const Results& a, const Results& b) {
  if (a.names() != b.names()) return "the output names or their order differ";
  if (a.frame_count() != b.frame_count()) return "the frame counts differ";
  for (const std::string& n : a.names())
    for (unsigned f = 0; f < a.frame_count(); ++f) {
      const auto x = a.value(n, f), y = b.value(n, f);
      if (x.has_value() != y.has_value()) return n + " frame " + std::to_string(f) + ": present in one run only";
      if (x && std::memcmp(&*x, &*y, sizeof(double)) != 0)
        return n + " frame " + std::to_string(f) + ": " + std::to_string(*x) + " vs " + std::to_string(*y);
    }
  if (a.aggregates() != b.aggregates()) return "the aggregates differ";
  return "";
}

std::string receipt_of(const Results& r, const std::string& name) {
  for (const auto& [n, impl] : r.receipt())
    if (n == name) return impl;
  return "";
}

struct Case {
  std::vector<std::string> models, features;
};

const Case kCases[] = {
    // vmaf_v0.6.1: integer ADM, VIF and motion2 (motion, split with its overlap).
    {{"version=vmaf_v0.6.1"}, {}},
    // Every temporal feature and schedule: float motion (with its debug output), integer motion with
    // the five-frame window and the moving average, psnr (never split: apsnr), float SSIM.
    {{},
     {"float_motion=debug=true", "motion=motion_five_frame_window=true:motion_moving_average=true:debug=true",
      "psnr", "float_ssim"}},
    // A float model: float ADM, VIF and float motion2.
    {{"version=vmaf_float_v0.6.1"}, {}},
};

class MixedRun : public ::testing::TestWithParam<std::tuple<int, int>> {};

// For each case, bit depth and split point: auto (fake device) == cpu, and the split really happened.
TEST_P(MixedRun, EqualsCpuBitForBit) {
  const auto [bitdepth, gate_at] = GetParam();
  const Clip clip = make_clip(96, 72, bitdepth, 20);
  for (const Case& c : kCases) {
    Results cpu, mixed;
    push_clip(clip, config(Backend::kCpu, c.models, c.features), cpu, ~0u);
    use_fake_device();
    push_clip(clip, config(Backend::kAuto, c.models, c.features), mixed, unsigned(gate_at));
    EXPECT_EQ(difference(cpu, mixed), "") << "split near frame " << gate_at;
    // Honest receipts: a split temporal context names both implementations and its handover frame.
    if (c.models.empty() && gate_at > 0 && gate_at < 15) {
      const std::string motion = receipt_of(mixed, "motion2");
      EXPECT_NE(motion.find("float_motion_fake on frames "), std::string::npos) << motion;
      const std::string vif = receipt_of(mixed, "float_ssim");
      EXPECT_NE(vif.find("float_ssim_fake on "), std::string::npos) << vif;
      EXPECT_EQ(receipt_of(mixed, "psnr_y"), "psnr");  // never split (apsnr)
    }
    if (::getenv("VQTWIN_TEST_SHOW_RECEIPT"))
      for (const auto& [n, impl] : mixed.receipt()) std::printf("  %s: %s\n", n.c_str(), impl.c_str());
  }
}

INSTANTIATE_TEST_SUITE_P(Splits, MixedRun,
                         ::testing::Combine(::testing::Values(8, 10), ::testing::Values(0, 1, 2, 3, 7, 13, 19, 25)));

// --subsample: non-temporal contexts compute every third frame, temporal ones every frame; the split
// keeps both as a CPU run has them.
TEST(MixedRun, SubsampledSplitEqualsCpu) {
  const Clip clip = make_clip(96, 72, 8, 20);
  for (unsigned gate_at : {2u, 7u}) {
    for (const Case& c : kCases) {
      SessionConfig cfg = config(Backend::kCpu, c.models, c.features);
      cfg.subsample = 3;
      Results cpu, mixed;
      push_clip(clip, cfg, cpu, ~0u);
      use_fake_device();
      cfg.backend = Backend::kAuto;
      push_clip(clip, cfg, mixed, gate_at);
      EXPECT_EQ(difference(cpu, mixed), "") << "split near frame " << gate_at;
    }
  }
}

// The pure device path through the same stand-in (--backend cuda): every context on a twin, the same
// values.
TEST(MixedRun, DeviceBackendEqualsCpu) {
  const Clip clip = make_clip(96, 72, 8, 12);
  for (const Case& c : kCases) {
    Results cpu, device;
    push_clip(clip, config(Backend::kCpu, c.models, c.features), cpu, ~0u);
    use_fake_device();
    open_gate();
    push_clip(clip, config(Backend::kCuda, c.models, c.features), device, ~0u);
    EXPECT_EQ(difference(cpu, device), "");
  }
}

// An auto run of `rc` (file run) with the stand-in device opening `gate_ms` after the start.
void auto_run_gated(const RunConfig& rc, unsigned gate_ms, Results& mixed) {
  use_fake_device();
  std::thread opener([gate_ms] {
    std::this_thread::sleep_for(std::chrono::milliseconds(gate_ms));
    open_gate();
  });
  RunConfig ra = rc;
  ra.backend = Backend::kAuto;
  run(ra, mixed);
  opener.join();
}

// File runs (the engine's readers, workers reading frames into host and then device slots): auto with
// the device ready after 0, 5 and 20 ms equals cpu; at least one of them shared the frames.
void check_file_run(RunConfig rc) {
  rc.threads = 3;
  Results cpu;
  run(rc, cpu);
  ::setenv("VQTWIN_AUTO_FRAMES_PER_THREAD", "0", 1);  // the device even for a clip this short
  int shared = 0;
  // Whether the device gets frames before the CPU has scored them all depends on the scheduler: on a
  // loaded machine the CPU can finish first every time. So the gate that opens at once is tried again
  // (up to 8 runs in all) until the device has taken frames; each run must equal the CPU's anyway.
  std::vector<unsigned> gates = {0u, 5u, 20u};
  for (std::size_t k = 0; k < gates.size(); ++k) {
    const unsigned gate_after_ms = gates[k];
    if (k + 1 == gates.size() && shared == 0 && gates.size() < 8) gates.push_back(0u);
    Results mixed;
    auto_run_gated(rc, gate_after_ms, mixed);
    EXPECT_EQ(difference(cpu, mixed), "") << rc.reference << ", gate after " << gate_after_ms << " ms";
    for (const auto& [n, impl] : mixed.receipt())
      if (impl.find("_fake") != std::string::npos) {
        ++shared;
        break;
      }
  }
  ::unsetenv("VQTWIN_AUTO_FRAMES_PER_THREAD");
  EXPECT_GT(shared, 0) << "the device never took frames of " << rc.reference;
}

// A clip as y4m files in a temporary folder (removed with it).
struct ClipFiles {
  std::filesystem::path dir;
  std::string ref, dist;
  explicit ClipFiles(const Clip& clip) {
    dir = std::filesystem::temp_directory_path() / ("vqtwin_mixed_files_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    ref = write(clip.ref, "ref.y4m");
    dist = write(clip.dist, "dist.y4m");
  }
  ~ClipFiles() { std::filesystem::remove_all(dir); }
  // A file run of them with both motions (float_motion, vmaf_v0.6.1's integer motion2) and psnr.
  RunConfig run_config() const {
    RunConfig rc;
    rc.reference = ref;
    rc.distorted = dist;
    rc.features = {"float_motion", "psnr"};
    rc.models = {"version=vmaf_v0.6.1"};
    return rc;
  }
  std::string write(const std::vector<Picture>& pics, const std::string& name) const {
    const PictureFormat& f = pics.front().format();
    std::ofstream out(dir / name, std::ios::binary);
    out << "YUV4MPEG2 W" << f.width << " H" << f.height << " F25:1 Ip A1:1 C420jpeg\n";
    for (const Picture& p : pics) {
      out << "FRAME\n";
      for (int pl = 0; pl < 3; ++pl)
        for (int y = 0; y < p.height(pl); ++y)
          out.write(static_cast<const char*>(p.data(pl)) + std::ptrdiff_t(y) * p.stride_bytes(pl), p.width(pl));
    }
    return (dir / name).string();
  }
};

TEST(MixedRun, FileRunEqualsCpu) {
  const Clip clip = make_clip(96, 72, 8, 30);
  const ClipFiles files(clip);
  RunConfig rc = files.run_config();
  check_file_run(rc);

  // Without the override a clip this short runs on the CPU alone: the device is not touched.
  Results cpu, alone;
  rc.threads = 3;
  run(rc, cpu);
  use_fake_device();
  RunConfig ra = rc;
  ra.backend = Backend::kAuto;
  run(ra, alone);
  open_gate();
  EXPECT_EQ(difference(cpu, alone), "");
  EXPECT_EQ(receipt_of(alone, "motion2"), "float_motion");
  EXPECT_TRUE(alone.show_receipt);
}

// "A on X frames, B on Y": Y (the CPU's frames of a non-temporal context), or -1.
long cpu_frames_in(const std::string& receipt) {
  const std::size_t at = receipt.rfind(" on ");
  if (at == std::string::npos || receipt.find("_fake on ") == std::string::npos) return -1;
  return std::strtol(receipt.c_str() + at + 4, nullptr, 10);
}

// "A on frames K..N-1, B on frames 0..K-1": K, or -1.
long handover_in(const std::string& receipt) {
  const std::size_t at = receipt.find(" on frames ");
  return at == std::string::npos ? -1 : std::strtol(receipt.c_str() + at + 11, nullptr, 10);
}

double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// VQTWIN_AUTO_SPLIT=N (the device scripts' way to force a split on a real device): the CPU takes at most
// the first N frames, then every frame waits for the device. Whenever the stand-in device opens, the
// values are the CPU's, the split is at most N and each temporal context hands over at the split plus
// its reach (float_motion 1, integer motion 2). With the device later than the CPU's N frames the split is
// N itself: the gate opens after 30 ms, else 200 ms, else 2 s (a loaded machine with sanitizers can be
// slower than 30 ms for the first frames), and some run must split at N.
TEST(MixedRun, ForcedSplitHandsOverThere) {
  const Clip clip = make_clip(96, 72, 8, 24);
  const ClipFiles files(clip);
  RunConfig rc = files.run_config();
  rc.threads = 3;
  Results cpu;
  run(rc, cpu);
  ::setenv("VQTWIN_AUTO_FRAMES_PER_THREAD", "0", 1);
  ::setenv("VQTWIN_AUTO_SPLIT", "9", 1);
  long split = -1;
  for (const unsigned gate_ms : {30u, 200u, 2000u}) {
    Results mixed;
    auto_run_gated(rc, gate_ms, mixed);
    EXPECT_EQ(difference(cpu, mixed), "") << "gate after " << gate_ms << " ms";
    const std::string fm = receipt_of(mixed, "motion2"), im = receipt_of(mixed, "integer_motion2");
    split = handover_in(fm) - 1;
    EXPECT_EQ(handover_in(im), split + 2) << fm << " / " << im;
    EXPECT_GE(split, 1) << fm;
    EXPECT_LE(split, 9) << fm;
    if (split == 9) break;
  }
  ::unsetenv("VQTWIN_AUTO_SPLIT");
  ::unsetenv("VQTWIN_AUTO_FRAMES_PER_THREAD");
  EXPECT_EQ(split, 9) << "the CPU never held its frames at 9 for the device";
}

// The scheduling with costs: the stand-in device starts 15 ms into the run and takes 3 ms a frame
// (frames in flight overlap), and the CPU is told to take frames after the split wherever it finishes
// them before the device would finish the clip (VQTWIN_AUTO_CPU_FRAMES=2: its rates decide, not whether
// it is worth it). The CPU and the device both compute frames after the split, every value is the CPU
// run's bit for bit (temporal features handed over with their overlap, the models), and the run takes
// no longer than the CPU alone would, with a wide allowance (a loaded CI machine); the makespan bound
// itself is tests/mixed/auto_policy_test.cpp's, on a simulated clock.
TEST(MixedRun, CpuAndDeviceShareFramesAfterTheSplit) {
  const Clip clip = make_clip(96, 72, 8, 150);
  const ClipFiles files(clip);
  RunConfig rc;
  rc.reference = files.ref;
  rc.distorted = files.dist;
  rc.threads = 3;
  rc.models = {"version=vmaf_v0.6.1", "version=vmaf_float_v0.6.1:name=vmaf_float"};
  rc.features = {"motion=motion_five_frame_window=true:motion_moving_average=true", "float_motion=debug=true",
                 "float_ssim", "psnr"};
  Results cpu;
  const double cpu_s = seconds_of([&] { run(rc, cpu); });
  ::setenv("VQTWIN_AUTO_FRAMES_PER_THREAD", "0", 1);
  ::setenv("VQTWIN_AUTO_CPU_FRAMES", "2", 1);
  g_device_frame_us = 3000;
  bool shared = false;
  double auto_s = 0;
  for (int attempt = 0; attempt < 4 && !shared; ++attempt) {
    use_fake_device();
    std::thread opener([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(15));
      open_gate();
    });
    RunConfig ra = rc;
    ra.backend = Backend::kAuto;
    Results mixed;
    auto_s = seconds_of([&] { run(ra, mixed); });
    opener.join();
    ASSERT_EQ(difference(cpu, mixed), "") << "attempt " << attempt;
    // The split: motion2's handover (vmaf_v0.6.1's integer motion: two frames after it).
    const long handover = handover_in(receipt_of(mixed, "integer_motion2"));
    const long vif_cpu = cpu_frames_in(receipt_of(mixed, "integer_vif_scale0"));
    if (std::getenv("VQTWIN_TEST_SHOW_RECEIPT"))
      std::printf("  %.3f s: motion2 %s; vif %s\n", auto_s, receipt_of(mixed, "integer_motion2").c_str(),
                  receipt_of(mixed, "integer_vif_scale0").c_str());
    shared = handover >= 2 && vif_cpu > handover - 2 && vif_cpu < long(clip.ref.size());
  }
  g_device_frame_us = 0;
  ::unsetenv("VQTWIN_AUTO_CPU_FRAMES");
  ::unsetenv("VQTWIN_AUTO_FRAMES_PER_THREAD");
  EXPECT_TRUE(shared) << "no run had the CPU and the device both computing frames after the split";
  EXPECT_LE(auto_s, 2 * cpu_s + 0.2) << "auto " << auto_s << " s, the CPU alone " << cpu_s << " s";
}

// Two fixture pairs (8-bit and 10-bit 4:2:0): VMAF, float VMAF, both motions.
TEST(MixedRun, FixturePairsEqualCpu) {
  const std::filesystem::path fx = VQTWIN_FIXTURES_DIR;
  int pairs = 0;
  for (const char* stem : {"sd_576x324_8bit_420", "hd_1280x720_10bit_420"}) {
    const auto ref = fx / (std::string(stem) + "_ref.y4m"), dist = fx / (std::string(stem) + "_dist.y4m");
    if (!std::filesystem::exists(ref) || !std::filesystem::exists(dist)) continue;
    ++pairs;
    RunConfig rc;
    rc.reference = ref.string();
    rc.distorted = dist.string();
    rc.frame_cnt = 10;
    rc.models = {"version=vmaf_v0.6.1", "version=vmaf_float_v0.6.1:name=vmaf_float"};
    rc.features = {"motion=motion_five_frame_window=true:motion_moving_average=true", "float_motion=debug=true"};
    check_file_run(rc);
  }
  if (pairs == 0) GTEST_SKIP() << "no decoded fixtures in " << fx;
}

// The planted bug: handing a temporal context over at the split without its overlap changes values.
TEST(MixedRun, PlantedNoOverlapIsCaught) {
  const Clip clip = make_clip(96, 72, 8, 20);
  const Case& c = kCases[1];
  Results cpu, mixed;
  push_clip(clip, config(Backend::kCpu, c.models, c.features), cpu, ~0u);
  ::setenv("VQTWIN_PLANT", "mixed_no_overlap", 1);
  use_fake_device();
  push_clip(clip, config(Backend::kAuto, c.models, c.features), mixed, 7);
  ::unsetenv("VQTWIN_PLANT");
  EXPECT_NE(difference(cpu, mixed), "");
}

// ---- frames decoded on the device (--hwdec) ----

// A stand-in for a decoder on the device: the clip's pictures, handed to a device slot packed as
// NVDEC packs them (NV12 at 8 bits, P010 at 10: Y, then U,V pairs; 16-bit words hold the sample in
// their high bits), else copied into the host picture.
class DeviceDecodedSource final : public PictureSource {
 public:
  DeviceDecodedSource(const std::vector<Picture>& pics, std::string name) : pics_(pics), name_(std::move(name)) {}
  const PictureFormat& format() const override { return pics_.front().format(); }
  const std::string& path() const override { return name_; }
  std::string kind() const override { return "stand-in NVDEC"; }
  bool skip() override { return next_ < pics_.size() && ++next_; }
  bool read(Picture& pic) override { return read_to(pic, nullptr); }
  bool read_to(Picture& pic, DeviceFrameTarget* on_device) override {
    if (next_ == pics_.size()) return false;
    const Picture& from = pics_[next_++];
    if (!on_device) {
      copy_picture(from, pic);
      return true;
    }
    on_device->take(pack(from));
    return true;
  }

 private:
  static DeviceFrame pack(const Picture& from) {
    const PictureFormat& f = from.format();
    const int bytes = f.bytes_per_sample(), shift = f.bitdepth > 8 ? 16 - f.bitdepth : 0;
    const std::ptrdiff_t pitch = std::ptrdiff_t(f.width) * bytes + 32;  // padded rows, as a decoder's
    auto memory = std::make_shared<std::vector<unsigned char>>(std::size_t(pitch) * std::size_t(f.height) * 2);
    unsigned char* luma = memory->data();
    unsigned char* pairs = luma + pitch * f.height;
    auto put = [&](unsigned char* row, int x, unsigned v) {
      if (bytes == 1) row[x] = static_cast<unsigned char>(v);
      else reinterpret_cast<std::uint16_t*>(row)[x] = static_cast<std::uint16_t>(v << shift);
    };
    auto get = [&](int p, int x, int y) -> unsigned {
      return bytes == 1 ? from.row<std::uint8_t>(p, y)[x] : from.row<std::uint16_t>(p, y)[x];
    };
    for (int y = 0; y < f.height; ++y)
      for (int x = 0; x < f.width; ++x) put(luma + y * pitch, x, get(0, x, y));
    for (int y = 0; y < from.height(1); ++y)
      for (int x = 0; x < from.width(1); ++x) {
        put(pairs + y * pitch, 2 * x, get(1, x, y));
        put(pairs + y * pitch, 2 * x + 1, get(2, x, y));
      }
    DeviceFrame d;
    d.layout = SurfaceLayout{true, bytes, shift};
    d.plane[0] = luma;
    d.plane[1] = pairs;
    d.pitch[0] = d.pitch[1] = pitch;
    d.hold = memory;
    return d;
  }

  const std::vector<Picture>& pics_;
  std::string name_;
  std::size_t next_ = 0;
};

// A file run whose inputs are the stand-in decoder's.
void run_decoded(const Clip& clip, RunConfig rc, Results& out) {
  rc.reference = "ref";
  rc.distorted = "dist";
  rc.threads = 3;
  run_with_inputs(rc, out, [&](const InputOptions&) {
    Inputs in;
    in.ref = std::make_unique<DeviceDecodedSource>(clip.ref, "ref");
    in.dist = std::make_unique<DeviceDecodedSource>(clip.dist, "dist");
    in.format = clip.format;
    return in;
  });
}

// Frames decoded on the device reach the twins (converted at upload) and the CPU contexts (copied
// back) as the pictures themselves: --backend cuda and auto equal cpu, 8 and 10 bits.
TEST(DeviceDecode, FramesOnTheDeviceEqualCpu) {
  g_unpacked_for_host = 0;
  for (int bitdepth : {8, 10}) {
    const Clip clip = make_clip(96, 72, bitdepth, 48);
    for (const Case& c : kCases) {
      RunConfig rc;
      rc.models = c.models;
      rc.features = c.features;
      Results cpu, device, mixed;
      run_decoded(clip, rc, cpu);  // no device slot: every frame read into host pictures
      g_taken = g_unpacked_for_device = 0;
      use_fake_device();
      open_gate();
      rc.backend = Backend::kCuda;
      run_decoded(clip, rc, device);
      EXPECT_EQ(difference(cpu, device), "") << bitdepth << "-bit, --backend cuda";
      EXPECT_GT(g_taken.load(), 0u);
      EXPECT_GT(g_unpacked_for_device.load(), 0u);

      // --sync none: no frame is kept on the host for the time-shift check, so the CPU's frames after
      // the split (the temporal overlap, the CPU turns) are frames decoded on the device.
      ::setenv("VQTWIN_AUTO_FRAMES_PER_THREAD", "0", 1);
      use_fake_device();
      std::thread opener([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        open_gate();
      });
      rc.backend = Backend::kAuto;
      rc.sync = "none";
      run_decoded(clip, rc, mixed);
      opener.join();
      ::unsetenv("VQTWIN_AUTO_FRAMES_PER_THREAD");
      EXPECT_EQ(difference(cpu, mixed), "") << bitdepth << "-bit, --backend auto";
    }
  }
  // The CPU's side of a mixed run read frames decoded on the device (copied back) at least once.
  EXPECT_GT(g_unpacked_for_host.load(), 0u);
}

// The planted bug: CPU contexts reading a device-decoded frame's host pictures without the copy back
// see garbage, and the values differ.
TEST(DeviceDecode, PlantedNoCopyBackIsCaught) {
  const Clip clip = make_clip(96, 72, 8, 48);
  RunConfig rc;
  rc.models = kCases[0].models;
  rc.features = kCases[1].features;
  rc.sync = "none";
  Results cpu;
  run_decoded(clip, rc, cpu);
  ::setenv("VQTWIN_AUTO_FRAMES_PER_THREAD", "0", 1);
  g_skip_host_pictures = true;
  // Until a run's CPU side reads a frame decoded on the device (the timing decides where the split
  // falls); each such run must differ from the CPU's.
  int runs_that_read = 0;
  for (int attempt = 0; attempt < 10 && runs_that_read == 0; ++attempt) {
    g_unpacked_for_host = 0;
    use_fake_device();
    std::thread opener([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      open_gate();
    });
    rc.backend = Backend::kAuto;
    Results mixed;
    run_decoded(clip, rc, mixed);
    opener.join();
    if (g_unpacked_for_host == 0) continue;
    ++runs_that_read;
    EXPECT_NE(difference(cpu, mixed), "");
  }
  g_skip_host_pictures = false;
  ::unsetenv("VQTWIN_AUTO_FRAMES_PER_THREAD");
  EXPECT_GT(runs_that_read, 0) << "no run's CPU side read a frame decoded on the device";
}

}  // namespace
}  // namespace vqtwin
