// --hwdec without a GPU: the host reference of the device's conversion turns FFmpeg's own NV12 and
// P010 packing of software-decoded frames back into exactly those frames; where no CUDA device is
// usable, --hwdec cuda is one error line and --hwdec auto decodes in software silently, with the
// values of --hwdec none. (On a GPU, tools/device/nvdec_checks.sh compares NVDEC with software.)
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "../support/golden_support.hpp"
#include "backends/device.hpp"
#include "io/device_frame.hpp"
#include "io_support.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

std::vector<unsigned char> slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

struct Stream {
  std::string name, pix_fmt, args;
};

// Each frame of the clip, as FFmpeg packs the software decode into NV12 / P010 (-f rawvideo),
// unpacked by unpack_surface(), equals the frame vqtwin's software decoding gives.
TEST(HwDecodeIo, UnpackedSurfacesEqualSoftwareDecoding) {
  for (const Stream& s : {Stream{"hw_h264.mp4", "yuv420p", "-c:v libx264 -preset veryfast -crf 30"},
                          Stream{"hw_hevc10.mkv", "yuv420p10le",
                                 "-c:v libx265 -preset ultrafast -crf 30 -x265-params log-level=error"}}) {
    const std::string clip = ffmpeg_clip(s.name, "-i " + reference_in(s.pix_fmt) + " " + s.args);
    const bool deep = s.pix_fmt != "yuv420p";
    const std::string surface = deep ? "p010le" : "nv12";
    const std::string raw = ffmpeg_clip(s.name + "." + surface, "-i " + clip + " -pix_fmt " + surface + " -f rawvideo");
    const std::vector<unsigned char> bytes = slurp(raw);
    auto src = open_source(clip);
    const PictureFormat f = src->format();
    const std::ptrdiff_t pitch = std::ptrdiff_t(f.width) * f.bytes_per_sample();
    const std::size_t frame_bytes = std::size_t(pitch) * std::size_t(f.height) * 3 / 2;
    ASSERT_EQ(bytes.size() % frame_bytes, 0u) << raw;
    const SurfaceLayout layout{true, f.bytes_per_sample(), deep ? 16 - f.bitdepth : 0};
    Picture decoded(f), unpacked(f);
    std::size_t frames = 0;
    for (; src->read(decoded); ++frames) {
      ASSERT_LT(frames * frame_bytes, bytes.size());
      const unsigned char* base = bytes.data() + frames * frame_bytes;
      const unsigned char* planes[3] = {base, base + pitch * f.height, nullptr};
      const std::ptrdiff_t pitches[3] = {pitch, pitch, 0};
      unpack_surface(planes, pitches, layout, unpacked);
      for (int p = 0; p < 3; ++p)
        for (int y = 0; y < f.plane_height(p); ++y)
          ASSERT_EQ(std::memcmp(static_cast<const unsigned char*>(decoded.data(p)) + y * decoded.stride_bytes(p),
                                static_cast<const unsigned char*>(unpacked.data(p)) + y * unpacked.stride_bytes(p),
                                std::size_t(f.plane_width(p)) * f.bytes_per_sample()),
                    0)
              << s.name << " frame " << frames << " plane " << p << " row " << y;
    }
    EXPECT_EQ(frames * frame_bytes, bytes.size());
    EXPECT_EQ(frames, 12u);
  }
}

// Without a usable CUDA device: cuda is an error naming the input and the way out; auto (a run on
// the device, so the rule asks for NVDEC on HEVC) falls back to software without a word; the values
// equal --hwdec none's.
TEST(HwDecodeIo, WithoutADeviceCudaFailsAndAutoDecodesInSoftware) {
  if (cuda_device_usable(0, nullptr)) GTEST_SKIP() << "a CUDA device is usable here (nvdec_checks.sh covers it)";
  const std::string clip = ffmpeg_clip("hw_hevc10.mkv", "-i " + reference_in("yuv420p10le") +
                                                            " -c:v libx265 -preset ultrafast -crf 30 -x265-params log-level=error");
  RunConfig cfg;
  cfg.reference = reference_in("yuv420p10le");
  cfg.distorted = clip;
  cfg.features = {"psnr"};
  cfg.threads = 2;
  std::vector<std::string> warnings;
  cfg.warn = [&](const std::string& w) { warnings.push_back(w); };
  cfg.hwdec = "none";
  const auto software = run_to_json(cfg);
  cfg.hwdec = "cuda";
  try {
    Results out;
    run(cfg, out);
    ADD_FAILURE() << "--hwdec cuda without a device ran";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("--hwdec cuda: NVDEC cannot decode it"), std::string::npos) << m;
    EXPECT_NE(m.find("--hwdec none"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  cfg.hwdec = "auto";
  cfg.backend = Backend::kAuto;
  const auto fallback = run_to_json(cfg);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_TRUE(compare_outputs(fallback, software).empty());
  cfg.hwdec = "nvdec";
  Results out;
  EXPECT_THROW(run(cfg, out), Error);
}

}  // namespace
}  // namespace vqtwin::test
