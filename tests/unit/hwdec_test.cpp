// --hwdec: the option's words, --hwdec auto's rule on the measured rates, and the host reference of
// the device's conversion (NVDEC's NV12 / P010 / P016 / 4:4:4 surfaces to planar pictures) on surfaces
// packed here from known pictures.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "io/device_frame.hpp"
#include "io/hwdec.hpp"

namespace vqtwin {
namespace {

TEST(HwDecode, ParsesItsThreeWords) {
  EXPECT_EQ(parse_hwdec("auto"), HwDecode::kAuto);
  EXPECT_EQ(parse_hwdec("cuda"), HwDecode::kCuda);
  EXPECT_EQ(parse_hwdec("none"), HwDecode::kNone);
  EXPECT_FALSE(parse_hwdec("nvdec"));
  EXPECT_FALSE(parse_hwdec(""));
  EXPECT_FALSE(parse_hwdec("CUDA"));
  for (HwDecode h : {HwDecode::kAuto, HwDecode::kCuda, HwDecode::kNone}) EXPECT_EQ(parse_hwdec(to_string(h)), h);
}

HwDecodeRequest request(HwDecode mode, bool device_run, unsigned streams, unsigned threads) {
  HwDecodeRequest r;
  r.mode = mode;
  r.device_run = device_run;
  r.streams = streams;
  r.cpu_threads = threads;
  return r;
}

TEST(HwDecode, AutoFollowsTheMeasuredRates) {
  const HwDecodeInput h264{"h264", 1920, 1080}, hevc{"hevc", 1920, 1080}, av1{"av1", 1920, 1080};
  // One pair on 16 cores: software (H.264 868 fps in all against NVDEC's 548; HEVC 1023 against 877).
  EXPECT_FALSE(choose_hwdec(h264, request(HwDecode::kAuto, true, 2, 16)).device);
  EXPECT_FALSE(choose_hwdec(hevc, request(HwDecode::kAuto, true, 2, 16)).device);
  // A ladder of four renditions and its reference (5 streams): software too (NVDEC's sessions do not add
  // up: the measured ladder ran at 877 frames/s on NVDEC, 1023 in software).
  EXPECT_FALSE(choose_hwdec(h264, request(HwDecode::kAuto, true, 5, 16)).device);
  EXPECT_FALSE(choose_hwdec(hevc, request(HwDecode::kAuto, true, 5, 16)).device);
  // Few cores: NVDEC (H.264 below 10.1 threads, HEVC below 13.7), for a pair or a ladder.
  EXPECT_TRUE(choose_hwdec(h264, request(HwDecode::kAuto, true, 2, 10)).device);
  EXPECT_FALSE(choose_hwdec(h264, request(HwDecode::kAuto, true, 2, 11)).device);
  EXPECT_TRUE(choose_hwdec(hevc, request(HwDecode::kAuto, true, 5, 13)).device);
  EXPECT_FALSE(choose_hwdec(hevc, request(HwDecode::kAuto, true, 5, 14)).device);
  // A run on the CPU alone never decodes on the device; nor a codec without measured rates.
  EXPECT_FALSE(choose_hwdec(hevc, request(HwDecode::kAuto, false, 2, 2)).device);
  EXPECT_FALSE(choose_hwdec(av1, request(HwDecode::kAuto, true, 2, 2)).device);
  // H.264 beyond NVDEC's 4096 samples a side.
  EXPECT_FALSE(choose_hwdec({"h264", 8192, 4320}, request(HwDecode::kAuto, true, 8, 2)).device);
  // cuda and none are obeyed.
  EXPECT_TRUE(choose_hwdec(av1, request(HwDecode::kCuda, false, 2, 64)).device);
  EXPECT_FALSE(choose_hwdec(hevc, request(HwDecode::kNone, true, 8, 1)).device);
  // The reason names the rates it compared.
  const std::string why = choose_hwdec(hevc, request(HwDecode::kAuto, true, 5, 16)).why;
  EXPECT_NE(why.find("software (hevc: about 175 fps per stream on NVDEC against 205"), std::string::npos) << why;
}

// A surface as NVDEC lays it out, packed from `pic` by the definition of the formats (not by the
// code under test): semi-planar = Y then U,V pairs; planar 4:4:4 = three planes; 16-bit words hold
// the sample shifted left by 16 - bitdepth. Rows padded, as a decoder's pitch.
struct Packed {
  std::vector<unsigned char> memory;
  const unsigned char* plane[3] = {};
  std::ptrdiff_t pitch[3] = {};
  SurfaceLayout layout;
};

Packed pack(const Picture& pic, bool semi_planar) {
  const PictureFormat& f = pic.format();
  Packed s;
  const int bytes = f.bytes_per_sample();
  s.layout = {semi_planar, bytes, f.bitdepth > 8 ? 16 - f.bitdepth : 0};
  const std::ptrdiff_t pitch = std::ptrdiff_t(f.width) * bytes + 64;
  s.memory.assign(std::size_t(pitch) * std::size_t(f.height) * 3, 0xEE);
  unsigned char* base = s.memory.data();
  auto put = [&](unsigned char* row, int x, unsigned v) {
    if (bytes == 1) row[x] = static_cast<unsigned char>(v);
    else reinterpret_cast<std::uint16_t*>(row)[x] = static_cast<std::uint16_t>(v << s.layout.shift);
  };
  auto get = [&](int p, int x, int y) -> unsigned {
    return bytes == 1 ? pic.row<std::uint8_t>(p, y)[x] : pic.row<std::uint16_t>(p, y)[x];
  };
  for (int p = 0; p < 3; ++p) {
    s.plane[p] = base + std::ptrdiff_t(p) * pitch * f.height;
    s.pitch[p] = pitch;
  }
  auto out = [&](int p) { return const_cast<unsigned char*>(s.plane[p]); };
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) put(out(0) + y * pitch, x, get(0, x, y));
  for (int y = 0; y < pic.height(1); ++y)
    for (int x = 0; x < pic.width(1); ++x) {
      if (semi_planar) {
        put(out(1) + y * pitch, 2 * x, get(1, x, y));
        put(out(1) + y * pitch, 2 * x + 1, get(2, x, y));
      } else {
        put(out(1) + y * pitch, x, get(1, x, y));
        put(out(2) + y * pitch, x, get(2, x, y));
      }
    }
  return s;
}

Picture noise(const PictureFormat& f, unsigned seed) {
  Picture pic(f);
  std::mt19937 rng(seed);
  for (int p = 0; p < 3; ++p)
    for (int y = 0; y < pic.height(p); ++y)
      for (int x = 0; x < pic.width(p); ++x) {
        const unsigned v = rng() & ((1u << f.bitdepth) - 1);
        if (f.bitdepth == 8) pic.row<std::uint8_t>(p, y)[x] = std::uint8_t(v);
        else pic.row<std::uint16_t>(p, y)[x] = std::uint16_t(v);
      }
  return pic;
}

bool same(const Picture& a, const Picture& b) {
  for (int p = 0; p < 3; ++p)
    for (int y = 0; y < a.height(p); ++y)
      for (int x = 0; x < a.width(p); ++x) {
        const unsigned va = a.format().bitdepth == 8 ? a.row<std::uint8_t>(p, y)[x] : a.row<std::uint16_t>(p, y)[x];
        const unsigned vb = b.format().bitdepth == 8 ? b.row<std::uint8_t>(p, y)[x] : b.row<std::uint16_t>(p, y)[x];
        if (va != vb) {
          ADD_FAILURE() << "plane " << p << " (" << x << ", " << y << "): " << va << " vs " << vb;
          return false;
        }
      }
  return true;
}

TEST(HwDecode, SurfacesUnpackToThePicturesExactly) {
  struct Case {
    int bitdepth;
    ChromaFormat chroma;
    bool semi_planar;  // NV12 / P010 / P016, else YUV444P / YUV444P16
  };
  for (const Case c : {Case{8, ChromaFormat::k420, true}, Case{10, ChromaFormat::k420, true},
                       Case{12, ChromaFormat::k420, true}, Case{8, ChromaFormat::k444, false},
                       Case{10, ChromaFormat::k444, false}, Case{12, ChromaFormat::k444, false}}) {
    for (const auto& [w, h] : {std::pair{64, 48}, std::pair{853, 481}}) {  // odd sizes: chroma rounds up
      const PictureFormat f{w, h, c.bitdepth, c.chroma};
      const Picture pic = noise(f, unsigned(w * c.bitdepth));
      const Packed s = pack(pic, c.semi_planar);
      Picture out(f);
      unpack_surface(s.plane, s.pitch, s.layout, out);
      EXPECT_TRUE(same(pic, out)) << f.describe();
      // One bit less of shift (the device checks' planted bug) is a different picture at 10 and 12 bits.
      if (c.bitdepth > 8) {
        SurfaceLayout wrong = s.layout;
        --wrong.shift;
        Picture bad(f);
        unpack_surface(s.plane, s.pitch, wrong, bad);
        int differ = 0;
        for (int x = 0; x < w; ++x) differ += bad.row<std::uint16_t>(0, 0)[x] != pic.row<std::uint16_t>(0, 0)[x];
        EXPECT_GT(differ, w / 2) << f.describe();
      }
    }
  }
}

}  // namespace
}  // namespace vqtwin
