// RunConfig::stop (issue 12): a stop request ends the run after the frames in flight, and every
// frame read is finished, flushed and kept; the run returns normally.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "vqtwin/run.hpp"

namespace vqtwin {
namespace {

std::string write_y4m(const std::string& name, int frames) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("vqtwin_stop_" + std::to_string(::getpid()) + "_" + name)).string();
  std::ofstream out(path, std::ios::binary);
  out << "YUV4MPEG2 W64 H48 C420jpeg\n";
  for (int f = 0; f < frames; ++f) {
    out << "FRAME\n";
    for (int i = 0; i < 64 * 48 * 3 / 2; ++i) out.put(char((i * 7 + f * 11) & 255));
  }
  return path;
}

TEST(EngineStop, StopKeepsEveryFrameRead) {
  const std::string y = write_y4m("a.y4m", 40);
  for (unsigned threads : {1u, 3u}) {
    std::atomic<bool> stop{false};
    RunConfig cfg;
    cfg.reference = cfg.distorted = y;
    cfg.features = {"psnr", "float_motion"};  // float_motion is temporal: it is flushed over the frames read
    cfg.no_prediction = true;
    cfg.threads = threads;
    cfg.stop = &stop;
    cfg.progress = [&](unsigned done, unsigned) {
      if (done == 5) stop = true;
    };
    Results r;
    ASSERT_NO_THROW(run(cfg, r));
    EXPECT_GE(r.frame_count(), 5u);
    EXPECT_LT(r.frame_count(), 40u);
    // Every frame read has every value: nothing half-done is written.
    for (const std::string name : {"psnr_y", "motion2"})
      for (unsigned i = 0; i < r.frame_count(); ++i) EXPECT_TRUE(r.value(name, i).has_value()) << name << " " << i;
  }
  // Stopped before the first frame: no frames, and no error (the caller knows why).
  std::atomic<bool> stop{true};
  RunConfig cfg;
  cfg.reference = cfg.distorted = y;
  cfg.features = {"psnr"};
  cfg.no_prediction = true;
  cfg.stop = &stop;
  Results r;
  EXPECT_NO_THROW(run(cfg, r));
  EXPECT_EQ(r.frame_count(), 0u);
  std::filesystem::remove(y);
}

}  // namespace
}  // namespace vqtwin
