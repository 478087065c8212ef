// Scale-out on a device (skipped with "no CUDA device" elsewhere, as in CI): a ladder whose renditions
// run on a device list naming one GPU several times (what --gpu 0,0 does; the multi-GPU run is issue 16)
// gives, rendition by rendition, the numbers of separate CPU runs, bit for bit, with the twins doing
// the device work (the receipt names them) and the rest falling back to the CPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "backends/device.hpp"
#include "vqtwin/ladder.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin {
namespace {

class ScaleOutCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!cuda_device_usable(0, &why)) GTEST_SKIP() << "no CUDA device (" << why << ")";
    dir_ = std::filesystem::temp_directory_path() / ("vqtwin_scaleout_cuda_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A 10-bit 4:2:0 clip of smooth content plus noise that grows with `noise`.
  std::string clip(const std::string& name, unsigned frames, int noise) {
    const PictureFormat f{352, 288, 10, ChromaFormat::k420};
    const std::string path = (dir_ / name).string();
    std::FILE* out = std::fopen(path.c_str(), "wb");
    std::fprintf(out, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420p10\n", f.width, f.height);
    std::mt19937 rng(unsigned(noise) * 7919u + 1);
    for (unsigned i = 0; i < frames; ++i) {
      std::fputs("FRAME\n", out);
      for (int p = 0; p < 3; ++p)
        for (int y = 0; y < f.plane_height(p); ++y)
          for (int x = 0; x < f.plane_width(p); ++x) {
            int v = 200 + ((x * 5 + y * 3 + int(i) * 11 + p * 40) % 600);
            if (noise) v += int(rng() % unsigned(2 * noise + 1)) - noise;
            const std::uint16_t s = std::uint16_t(std::clamp(v, 0, 1023));
            std::fwrite(&s, 2, 1, out);
          }
    }
    std::fclose(out);
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(ScaleOutCuda, DeviceCountSeesTheDevice) {
  std::string why;
  EXPECT_GE(cuda_device_count(&why), 1) << why;
}

TEST_F(ScaleOutCuda, LadderOnOneDeviceNamedTwiceIsSeparateCpuRuns) {
  const std::string ref = clip("ref.y4m", 10, 0);
  std::vector<RunConfig> renditions;
  for (int k = 0; k < 4; ++k) {
    RunConfig c;
    c.reference = ref;
    c.distorted = clip("d" + std::to_string(k) + ".y4m", 10, 2 + 6 * k);
    c.features = {"psnr=enable_mse=true:enable_apsnr=true", "float_psnr"};
    c.threads = 2;
    c.backend = Backend::kCuda;
    c.gpu = 0;  // a device list of 0,0,0,0: four pipelines on one device, at once
    c.warn = [](const std::string&) {};
    if (k == 3) c.subsample = 2;
    renditions.push_back(c);
  }
  const auto ladder = run_ladder(renditions);
  ASSERT_EQ(ladder.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) {
    SCOPED_TRACE("rendition " + std::to_string(k));
    ASSERT_EQ(ladder[k]->error, "");
    RunConfig cpu = renditions[k];
    cpu.backend = Backend::kCpu;
    Results alone;
    run(cpu, alone);
    const Results& got = ladder[k]->results;
    ASSERT_EQ(got.names(), alone.names());
    ASSERT_EQ(got.frame_count(), alone.frame_count());
    for (const auto& n : alone.names())
      for (unsigned i = 0; i < alone.frame_count(); ++i) {
        const auto a = got.value(n, i), b = alone.value(n, i);
        ASSERT_EQ(a.has_value(), b.has_value()) << n << " frame " << i;
        if (a) {
          EXPECT_EQ(std::memcmp(&*a, &*b, sizeof(double)), 0) << n << " frame " << i << ": " << *a << " vs " << *b;
        }
      }
    EXPECT_EQ(got.aggregates(), alone.aggregates());
    bool twin = false;
    for (const auto& [name, impl] : got.receipt()) twin = twin || impl == "psnr_cuda";
    EXPECT_TRUE(twin) << "the psnr twin did not run";
  }
}

}  // namespace
}  // namespace vqtwin
