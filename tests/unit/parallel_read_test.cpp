// Frames of regular y4m and raw files read in parallel (PictureSource::claim / read_claimed): every
// claimed frame holds exactly the bytes read() would have given it, read in any order from several
// threads; claims stop where read() must take over (a frame header with parameters, a frame cut
// short, the end), and read() then goes on from the right frame with its usual messages.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "io/picture_source.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

// One frame of a w x h picture (bytes per sample `bps`, 4:2:0) whose bytes differ from frame to frame.
std::string frame_bytes(int f, int w = 64, int h = 48, int bps = 1) {
  const std::size_t n = std::size_t(w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)) * std::size_t(bps);
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = char((i * 131 + std::size_t(f) * 71 + i / 61) & 255);
  if (bps == 2)  // 10-bit samples, low byte first
    for (std::size_t i = 1; i < n; i += 2) s[i] = char(s[i] & 3);
  return s;
}

std::string packed(const Picture& p) {
  std::string out;
  const std::size_t bps = std::size_t(p.format().bytes_per_sample());
  for (int k = 0; k < p.format().num_planes(); ++k)
    for (int y = 0; y < p.height(k); ++y)
      out.append(static_cast<const char*>(p.data(k)) + y * p.stride_bytes(k), std::size_t(p.width(k)) * bps);
  return out;
}

int memfd_with(const std::string& data) {
  const int fd = ::memfd_create("vqtwin_parallel", 0);
  EXPECT_EQ(::write(fd, data.data(), data.size()), ssize_t(data.size()));
  ::lseek(fd, 0, SEEK_SET);
  return fd;
}

std::string y4m(int frames, int w = 64, int h = 48, const std::string& colour = "420jpeg", int bps = 1) {
  std::string s = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 C" + colour + "\n";
  for (int f = 0; f < frames; ++f) s += "FRAME\n" + frame_bytes(f, w, h, bps);
  return s;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ParallelRead, ClaimedFramesReadInAnyOrderFromManyThreads) {
  // 64x48 (rows unpadded) and 70x30 (rows padded to the stride: one read per row), 8 and 10 bits.
  struct Case {
    int w, h;
    std::string colour;
    int bps;
  };
  for (const Case& c : {Case{64, 48, "420jpeg", 1}, Case{70, 30, "420jpeg", 1}, Case{70, 30, "420p10", 2}}) {
    SCOPED_TRACE(std::to_string(c.w) + "x" + std::to_string(c.h) + " C" + c.colour);
    constexpr int kFrames = 24;
    auto src = open_picture_fd(memfd_with(y4m(kFrames, c.w, c.h, c.colour, c.bps)), true, "y", {});
    std::vector<FrameClaim> claims;
    for (int f = 0; f < kFrames; ++f) {
      auto cl = src->claim();
      ASSERT_TRUE(cl.has_value()) << f;
      EXPECT_EQ(cl->frame, unsigned(f));
      claims.push_back(*cl);
    }
    EXPECT_FALSE(src->claim().has_value());  // the end: read() says so
    Picture probe(src->format());
    EXPECT_FALSE(src->read(probe));
    // Read from 4 threads, each frame from the last to the first.
    std::vector<std::string> got(kFrames);
    std::vector<std::thread> pool;
    for (int t = 0; t < 4; ++t)
      pool.emplace_back([&, t] {
        Picture pic(src->format());
        for (int f = kFrames - 1 - t; f >= 0; f -= 4) {
          src->read_claimed(claims[std::size_t(f)], pic);
          got[std::size_t(f)] = packed(pic);
        }
      });
    for (auto& th : pool) th.join();
    for (int f = 0; f < kFrames; ++f)
      EXPECT_TRUE(got[std::size_t(f)] == frame_bytes(f, c.w, c.h, c.bps)) << "frame " << f;
  }
}

TEST(ParallelRead, ReadAndSkipGoOnAfterClaims) {
  auto src = open_picture_fd(memfd_with(y4m(8)), true, "y", {});
  Picture pic(src->format());
  ASSERT_TRUE(src->skip());  // frame 0, as --frame_skip_ref 1
  auto c1 = src->claim();
  ASSERT_TRUE(c1.has_value());
  EXPECT_EQ(c1->frame, 1u);
  EXPECT_EQ(src->frames_left(), 6u);
  ASSERT_TRUE(src->read(pic));  // frame 2: the stream caught up with the claims
  EXPECT_EQ(packed(pic), frame_bytes(2));
  auto c3 = src->claim();
  ASSERT_TRUE(c3.has_value());
  EXPECT_EQ(c3->frame, 3u);
  ASSERT_TRUE(src->skip());  // frame 4
  auto c5 = src->claim();
  ASSERT_TRUE(c5.has_value());
  EXPECT_EQ(c5->frame, 5u);
  src->read_claimed(*c1, pic);
  EXPECT_EQ(packed(pic), frame_bytes(1));
  src->read_claimed(*c3, pic);
  EXPECT_EQ(packed(pic), frame_bytes(3));
  src->read_claimed(*c5, pic);
  EXPECT_EQ(packed(pic), frame_bytes(5));
  ASSERT_TRUE(src->read(pic));
  EXPECT_EQ(packed(pic), frame_bytes(6));
}

TEST(ParallelRead, AFrameHeaderWithParametersHandsOverToRead) {
  // Frame 3 (and 5) carry parameters: frames 0..2 are claimed, then read() takes over for good.
  std::string y = "YUV4MPEG2 W64 H48 C420jpeg\n";
  for (int f = 0; f < 7; ++f) y += std::string(f == 3 || f == 5 ? "FRAME Ixyz XA=1\n" : "FRAME\n") + frame_bytes(f);
  auto src = open_picture_fd(memfd_with(y), true, "y", {});
  Picture pic(src->format());
  std::vector<FrameClaim> claims;
  for (int f = 0; f < 3; ++f) {
    auto c = src->claim();
    ASSERT_TRUE(c.has_value()) << f;
    claims.push_back(*c);
  }
  EXPECT_FALSE(src->claim().has_value());  // frame 3's header has parameters
  for (int f = 3; f < 7; ++f) {
    EXPECT_FALSE(src->claim().has_value());
    ASSERT_TRUE(src->read(pic)) << f;
    EXPECT_EQ(packed(pic), frame_bytes(f)) << f;
  }
  EXPECT_FALSE(src->read(pic));
  for (int f = 0; f < 3; ++f) {
    src->read_claimed(claims[std::size_t(f)], pic);
    EXPECT_EQ(packed(pic), frame_bytes(f)) << f;
  }
}

TEST(ParallelRead, AFrameCutShortIsReadsOwnError) {
  // 5 whole frames and 1000 bytes of a 6th: claims stop at frame 5, whose read() gives the message
  // a reader that never claimed gives.
  const std::string y = y4m(5) + "FRAME\n" + frame_bytes(5).substr(0, 1000);
  auto sequential = open_picture_fd(memfd_with(y), true, "cut.y4m", {});
  Picture pic(sequential->format());
  for (int f = 0; f < 5; ++f) ASSERT_TRUE(sequential->read(pic));
  const std::string expected = message_of([&] { sequential->read(pic); });
  EXPECT_EQ(expected, "cut.y4m: frame 5 is truncated (1000 of 4608 bytes)");

  auto src = open_picture_fd(memfd_with(y), true, "cut.y4m", {});
  for (int f = 0; f < 5; ++f) ASSERT_TRUE(src->claim().has_value()) << f;
  EXPECT_FALSE(src->claim().has_value());
  EXPECT_EQ(message_of([&] { src->read(pic); }), expected);

  // Raw: the same frame cut short (the size check at open is for the file as opened).
  const int fd = memfd_with(frame_bytes(0) + frame_bytes(1));
  auto raw = open_picture_fd(fd, false, "r.yuv", RawFormat{64, 48, "420", 8});
  ASSERT_EQ(::ftruncate(fd, 4608 + 1000), 0);
  EXPECT_TRUE(raw->claim().has_value());
  auto c1 = raw->claim();
  ASSERT_TRUE(c1.has_value());  // claimed on the size seen at open
  EXPECT_EQ(message_of([&] { raw->read_claimed(*c1, pic); }), "r.yuv: frame 1 is truncated (1000 of 4608 bytes)");
  ::close(fd);
}

TEST(ParallelRead, RawFramesAreClaimedToTheEnd) {
  std::string data;
  for (int f = 0; f < 5; ++f) data += frame_bytes(f);
  auto src = open_picture_fd(memfd_with(data), true, "r.yuv", RawFormat{64, 48, "420", 8});
  Picture pic(src->format());
  ASSERT_TRUE(src->read(pic));  // frame 0 read, then claims from frame 1
  std::vector<FrameClaim> claims;
  while (auto c = src->claim()) claims.push_back(*c);
  ASSERT_EQ(claims.size(), 4u);
  EXPECT_FALSE(src->read(pic));
  for (std::size_t i = claims.size(); i-- > 0;) {
    src->read_claimed(claims[i], pic);
    EXPECT_EQ(packed(pic), frame_bytes(int(i) + 1));
  }
}

TEST(ParallelRead, PipesAreNeverClaimed) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string data = y4m(2);
  ASSERT_EQ(::write(fds[1], data.data(), data.size()), ssize_t(data.size()));
  ::close(fds[1]);
  auto src = open_picture_fd(fds[0], true, "pipe", {});
  EXPECT_FALSE(src->claim().has_value());
  Picture pic(src->format());
  ASSERT_TRUE(src->read(pic));
  EXPECT_EQ(packed(pic), frame_bytes(0));
}

}  // namespace
}  // namespace vqtwin
