// The readers on every kind of descriptor (issue 12): a pipe keeps the bytes looked at to tell y4m
// from raw, regular files are checked for size before any picture exists, a stop request ends a
// read that waits on a stalled pipe, frames left are counted only where that is cheap.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <string>
#include <thread>

#include "io/picture_source.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

// A 64x48 8-bit 4:2:0 frame (4608 bytes, more than a stdio buffer) of distinct-looking bytes.
std::string frame_bytes(int f) {
  std::string s(64 * 48 * 3 / 2, '\0');
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = char((i * 31 + std::size_t(f) * 17 + i / 64) & 255);
  return s;
}

// The picture's samples, packed (no stride padding), as the file stores them.
std::string packed(const Picture& p) {
  std::string out;
  for (int k = 0; k < p.format().num_planes(); ++k)
    for (int y = 0; y < p.height(k); ++y) out.append(p.row<char>(k, y), std::size_t(p.width(k)));
  return out;
}

int memfd_with(const std::string& data) {
  const int fd = ::memfd_create("vqtwin_test", 0);
  EXPECT_EQ(::write(fd, data.data(), data.size()), ssize_t(data.size()));
  ::lseek(fd, 0, SEEK_SET);
  return fd;
}

const RawFormat kRaw{64, 48, "420", 8};

// Joins a writer thread at the end of a test, also one that failed part-way (the reader, declared
// after it, is destroyed first and closes the pipe, so the writer gets EPIPE and ends).
struct Joined {
  std::thread t;
  ~Joined() {
    if (t.joinable()) t.join();
  }
};

TEST(PictureSource, RawThroughAPipeKeepsEveryByte) {
  std::signal(SIGPIPE, SIG_IGN);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string data = frame_bytes(0) + frame_bytes(1);
  Joined writer{std::thread([&data, w = fds[1]] {
    for (std::size_t at = 0; at < data.size();) {
      const ssize_t n = ::write(w, data.data() + at, data.size() - at);
      if (n <= 0) break;
      at += std::size_t(n);
    }
    ::close(w);
  })};
  auto src = open_picture_fd(fds[0], true, "pipe", kRaw);
  Picture pic(src->format());
  for (int f = 0; f < 2; ++f) {
    ASSERT_TRUE(src->more());
    ASSERT_TRUE(src->read(pic));
    EXPECT_EQ(packed(pic), frame_bytes(f)) << "frame " << f;
  }
  EXPECT_FALSE(src->more());
  EXPECT_FALSE(src->frames_left().has_value());  // a pipe's length is unknown
}

TEST(PictureSource, RegularFilesAreCheckedBeforeAnyPicture) {
  // A y4m header declaring a frame larger than the file.
  EXPECT_THROW(open_picture_fd(memfd_with("YUV4MPEG2 W64 H48\nFRAME\n" + std::string(100, 'a')), true, "f", {}),
               Error);
  EXPECT_THROW(open_picture_fd(memfd_with("YUV4MPEG2 W64 H48\n"), true, "f", {}), Error);  // no frames
  EXPECT_THROW(open_picture_fd(memfd_with(frame_bytes(0) + "x"), true, "f", kRaw), Error);  // not whole frames
  try {
    open_picture_fd(memfd_with("YUV4MPEG2 W9000 H9000\n"), true, "f", {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("over the limit of 67108864 pixels"), std::string::npos) << e.what();
  }
  EXPECT_THROW(open_picture_fd(::open("/", O_RDONLY), true, "/", {}), Error);  // a folder
}

TEST(PictureSource, FramesLeftAndSkipOnRegularFiles) {
  std::string y = "YUV4MPEG2 W64 H48 C420jpeg\n";
  for (int f = 0; f < 4; ++f) y += "FRAME\n" + frame_bytes(f);
  auto src = open_picture_fd(memfd_with(y), true, "y", {});
  EXPECT_EQ(src->frames_left(), 4u);
  ASSERT_TRUE(src->skip());
  EXPECT_EQ(src->frames_left(), 3u);
  Picture pic(src->format());
  ASSERT_TRUE(src->read(pic));
  EXPECT_EQ(packed(pic), frame_bytes(1));
  EXPECT_EQ(src->frames_left(), 2u);
  // Frame headers with parameters: the count is not known without reading.
  auto params = open_picture_fd(memfd_with("YUV4MPEG2 W64 H48\nFRAME Ixyz\n" + frame_bytes(0)), true, "p", {});
  EXPECT_FALSE(params->frames_left().has_value());
  auto raw = open_picture_fd(memfd_with(frame_bytes(0) + frame_bytes(1) + frame_bytes(2)), true, "r", kRaw);
  ASSERT_TRUE(raw->skip());
  EXPECT_EQ(raw->frames_left(), 2u);
  ASSERT_TRUE(raw->read(pic));
  EXPECT_EQ(packed(pic), frame_bytes(1));
}

TEST(PictureSource, StopEndsAWaitOnAStalledPipe) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string head = "YUV4MPEG2 W64 H48\n";
  ASSERT_EQ(::write(fds[1], head.data(), head.size()), ssize_t(head.size()));  // then nothing: the writer stalls
  std::atomic<bool> stop{false};
  auto src = open_picture_fd(fds[0], true, "stalled", {}, InputLimits{kDefaultMaxPixels, &stop});
  Joined stopper{std::thread([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  })};
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(src->more(), Error);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  ::close(fds[1]);
}

}  // namespace
}  // namespace vqtwin
