// The CUDA backend itself, on a real device (skipped with "no CUDA device" elsewhere, as in CI):
// the slot's upload is byte-exact, every allocation/launch failure is one clean error that leaks
// nothing, --threads with --backend cuda gives the CPU's numbers, and dispatch with the real twins.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "backends/cuda/memory.hpp"
#include "backends/cuda/slot.hpp"
#include "backends/device.hpp"
#include "core/registry.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin {
namespace {

class CudaBackend : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!cuda_device_usable(0, &why)) GTEST_SKIP() << "no CUDA device (" << why << ")";
  }
};

void fill(Picture& p, unsigned seed) {
  std::mt19937 rng(seed);
  const unsigned max = (1u << p.format().bitdepth) - 1;
  for (int pl = 0; pl < p.format().num_planes(); ++pl)
    for (int y = 0; y < p.height(pl); ++y)
      for (int x = 0; x < p.width(pl); ++x) {
        if (p.format().bitdepth > 8) p.row<std::uint16_t>(pl, y)[x] = std::uint16_t(rng() % (max + 1));
        else p.row<std::uint8_t>(pl, y)[x] = std::uint8_t(rng() % (max + 1));
      }
}

TEST_F(CudaBackend, UploadIsByteExact) {
  for (const PictureFormat f : {PictureFormat{161, 91, 8, ChromaFormat::k420}, PictureFormat{853, 481, 10, ChromaFormat::k422},
                                PictureFormat{33, 35, 16, ChromaFormat::k444}, PictureFormat{64, 2, 12, ChromaFormat::k400}}) {
    auto pipeline = make_cuda_pipeline(f, 0, 2);
    auto& slot = cuda::cuda_slot(pipeline->slot(1));
    fill(slot.ref(), 1);
    fill(slot.dist(), 2);
    slot.upload();
    slot.wait();
    for (int p = 0; p < f.num_planes(); ++p) {
      const cuda::DevicePlane& d = slot.device_dist().plane[p];
      std::vector<unsigned char> back(std::size_t(slot.dist().stride_bytes(p)) * std::size_t(d.height));
      ASSERT_EQ(cudaMemcpy(back.data(), d.data, back.size(), cudaMemcpyDeviceToHost), cudaSuccess);
      for (int y = 0; y < d.height; ++y)
        ASSERT_EQ(0, std::memcmp(back.data() + y * slot.dist().stride_bytes(p),
                                 static_cast<const unsigned char*>(slot.dist().data(p)) + y * slot.dist().stride_bytes(p),
                                 std::size_t(d.width) * std::size_t(f.bytes_per_sample())))
            << f.describe() << " plane " << p << " row " << y;
    }
  }
}

// A pipeline told to upload some planes copies those, byte for byte, and leaves the others alone.
TEST_F(CudaBackend, UploadOfTheReadPlanesOnly) {
  const PictureFormat f{853, 481, 10, ChromaFormat::k420};
  auto pipeline = make_cuda_pipeline(f, 0, 1);
  auto& slot = cuda::cuda_slot(pipeline->slot(0));
  auto device_plane = [&](int p) {
    const cuda::DevicePlane& d = slot.device_ref().plane[p];
    std::vector<unsigned char> back(std::size_t(slot.ref().stride_bytes(p)) * std::size_t(d.height));
    EXPECT_EQ(cudaMemcpy(back.data(), d.data, back.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    return back;
  };
  auto host_plane = [&](int p) {
    const auto* b = static_cast<const unsigned char*>(slot.ref().data(p));
    return std::vector<unsigned char>(b, b + std::size_t(slot.ref().stride_bytes(p)) * std::size_t(slot.ref().height(p)));
  };
  fill(slot.ref(), 1);
  fill(slot.dist(), 2);
  slot.upload();  // every plane
  slot.wait();
  const auto chroma_before = device_plane(1);
  fill(slot.ref(), 3);
  pipeline->set_uploaded_planes(0x5);  // Y and V
  slot.upload();
  slot.wait();
  EXPECT_EQ(device_plane(0), host_plane(0));
  EXPECT_EQ(device_plane(2), host_plane(2));
  EXPECT_EQ(device_plane(1), chroma_before);  // not uploaded
  EXPECT_NE(device_plane(1), host_plane(1));
}

class NullSink final : public FeatureSink {
 public:
  void put(std::string_view, unsigned, double) override { ++puts; }
  void aggregate(std::string_view, double) override {}
  int puts = 0;
};

// Every checked CUDA call (allocation, copy, launch, sync) made to fail in turn, twin by twin: each is
// one vqtwin::Error and, once everything is destroyed, nothing is left allocated. 224x224 is
// a size every twin computes (float_ms_ssim needs 176 on each side, cambi 216 on one).
TEST_F(CudaBackend, EveryFailurePointIsCleanAndLeaksNothing) {
  const PictureFormat f{224, 224, 10, ChromaFormat::k420};
  const long before = cuda::live_allocations();
  int failures = 0;
  for (const ExtractorInfo* twin : cuda_twins()) {
    SCOPED_TRACE(std::string(twin->name));
    bool completed = false;
    for (long n = 1; n < 2000 && !completed; ++n) {
      cuda::inject_failure_at(n);
      try {
        auto pipeline = make_cuda_pipeline(f, 0, 3);
        auto ex = twin->create(OptionValues(twin->spec->options, {}, twin->name));
        auto* dev = dynamic_cast<DeviceExtractor*>(ex.get());
        ASSERT_NE(dev, nullptr);
        dev->bind(*pipeline);
        ex->init(f);
        NullSink sink;
        for (unsigned i = 0; i < 3; ++i) {
          FrameSlot& s = pipeline->slot(i % 3);
          // Valid samples: pinned memory may come back from an earlier test holding 16-bit values, which
          // a 10-bit twin rightly refuses (cambi) with an error that is not the injected one.
          fill(s.ref(), 11 + i);
          fill(s.dist(), 23 + i);
          s.upload();
          dev->submit(s, i);
          s.wait();
          dev->collect(s, i, sink);
        }
        ex->flush(sink);
        completed = true;  // n is past the last checked call: every point was tried
      } catch (const Error& e) {
        ++failures;
        EXPECT_NE(std::string(e.what()).find("CUDA: "), std::string::npos) << e.what();
      }
      cuda::inject_failure_at(0);
      EXPECT_EQ(cuda::live_allocations(), before) << "after a failure injected at checked call " << n;
    }
    EXPECT_TRUE(completed) << "more than 2000 checked calls";
  }
  EXPECT_GT(failures, 10);
  std::printf("fault injection: %d failure points tried, no leak\n", failures);
}

std::string write_y4m(const std::string& path, const PictureFormat& f, unsigned frames, unsigned seed) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  const char* c = f.chroma == ChromaFormat::k420 ? "420" : f.chroma == ChromaFormat::k422 ? "422" : "444";
  std::fprintf(out, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C%s%s\n", f.width, f.height, c,
               f.bitdepth > 8 ? ("p" + std::to_string(f.bitdepth)).c_str() : "");
  Picture p(f);
  for (unsigned i = 0; i < frames; ++i) {
    fill(p, seed + i);
    std::fputs("FRAME\n", out);
    for (int pl = 0; pl < f.num_planes(); ++pl)
      for (int y = 0; y < p.height(pl); ++y)
        std::fwrite(p.row<unsigned char>(pl, 0) + y * p.stride_bytes(pl), 1,
                    std::size_t(p.width(pl)) * std::size_t(f.bytes_per_sample()), out);
  }
  std::fclose(out);
  return path;
}

// The file run of r/d with `features` on the CPU (one worker) and on the device with one and with eight
// workers (frames in flight on several streams; temporal twins' rings and event chains): every value
// and aggregate is the CPU's, bit for bit. Returns the implementations the device run's receipt names.
std::set<std::string> expect_device_runs_equal_cpu(const std::string& r, const std::string& d, unsigned frames,
                                                   const std::vector<std::string>& features, const std::string& what) {
  auto score = [&](Backend b, unsigned threads, Results& out) {
    RunConfig c;
    c.reference = r;
    c.distorted = d;
    c.features = features;
    c.no_prediction = true;
    c.backend = b;
    c.threads = threads;
    run(c, out);
  };
  Results cpu, gpu1, gpu8;
  score(Backend::kCpu, 1, cpu);
  score(Backend::kCuda, 1, gpu1);
  score(Backend::kCuda, 8, gpu8);
  EXPECT_EQ(cpu.names(), gpu1.names()) << what;
  EXPECT_EQ(cpu.names(), gpu8.names()) << what;
  for (const auto& n : cpu.names())
    for (unsigned i = 0; i < frames; ++i) {
      EXPECT_EQ(cpu.value(n, i), gpu1.value(n, i)) << what << " " << n << " frame " << i;
      EXPECT_EQ(cpu.value(n, i), gpu8.value(n, i)) << what << " " << n << " frame " << i;
    }
  EXPECT_EQ(cpu.aggregates(), gpu8.aggregates()) << what;
  std::set<std::string> implementations;
  for (const auto& [name, impl] : gpu8.receipt()) implementations.insert(impl);
  return implementations;
}

// psnr and float_psnr through the engine: the CPU's numbers; the receipt names the twins.
TEST_F(CudaBackend, EngineWithThreadsMatchesTheCpu) {
  const auto dir = std::filesystem::temp_directory_path() / ("vqtwin_cuda_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const PictureFormat f{320, 240, 10, ChromaFormat::k420};
  const std::string r = write_y4m((dir / "r.y4m").string(), f, 12, 1);
  const std::string d = write_y4m((dir / "d.y4m").string(), f, 12, 100);
  const auto impls =
      expect_device_runs_equal_cpu(r, d, 12, {"psnr=enable_mse=true:enable_apsnr=true", "float_psnr"}, f.describe());
  EXPECT_EQ(impls, (std::set<std::string>{"psnr_cuda", "float_psnr_cuda"}));
  std::filesystem::remove_all(dir);
}

// The seeds' twins through the engine, luma-only uploads and with motion_add_uv every plane: the
// CPU's numbers, bit for bit, and every output written by a twin.
TEST_F(CudaBackend, SeedTwinsThroughTheEngineMatchTheCpu) {
  const auto dir = std::filesystem::temp_directory_path() / ("vqtwin_cuda_seeds_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const PictureFormat f : {PictureFormat{853, 481, 8, ChromaFormat::k420}, PictureFormat{384, 383, 12, ChromaFormat::k444}})
    for (bool uv : {false, true}) {
      const std::string r = write_y4m((dir / "r.y4m").string(), f, 10, 1);
      const std::string d = write_y4m((dir / "d.y4m").string(), f, 10, 100);
      const std::vector<std::string> features = {
          f.width > 800 ? "float_ssim=enable_lcs=true" : "float_ssim=scale=3:enable_db=true",
          "integer_ssim=enable_db=true:clip_db=true",
          uv ? "float_motion=motion_add_uv=true:motion_add_scale1=true" : "float_motion"};
      const auto impls = expect_device_runs_equal_cpu(r, d, 10, features, f.describe());
      EXPECT_EQ(impls, (std::set<std::string>{"float_ssim_cuda", "integer_ssim_cuda", "float_motion_cuda"}));
    }
  std::filesystem::remove_all(dir);
}

TEST_F(CudaBackend, BadDeviceIndexIsOneClearError) {
  std::string why;
  EXPECT_FALSE(cuda_device_usable(999, &why));
  EXPECT_NE(why.find("CUDA devices"), std::string::npos) << why;
}

}  // namespace
}  // namespace vqtwin
