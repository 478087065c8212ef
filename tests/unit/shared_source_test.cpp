// SharedSource (a ladder's reference read once): every reader gets every frame of the input, in order,
// sample for sample; the input is read once whatever the readers do; at most `window` frames are kept;
// a reader that goes away (or never reads) holds nobody back; an input error reaches every reader at
// the frame it happened on.
#include "io/shared_source.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

const PictureFormat kFormat{37, 21, 10, ChromaFormat::k420};

// Sample (p, x, y) of frame f: differs from frame to frame and across the picture.
std::uint16_t sample(unsigned f, int p, int x, int y) { return std::uint16_t((f * 131 + p * 17 + x * 7 + y * 3) & 1023); }

class CountingSource final : public PictureSource {
 public:
  CountingSource(unsigned frames, int fail_at = -1) : frames_(frames), fail_at_(fail_at) {}
  const PictureFormat& format() const override { return kFormat; }
  bool read(Picture& pic) override {
    if (int(next_) == fail_at_) throw Error("fake.y4m: frame " + std::to_string(next_) + " is truncated");
    if (next_ == frames_) return false;
    for (int p = 0; p < 3; ++p)
      for (int y = 0; y < pic.height(p); ++y)
        for (int x = 0; x < pic.width(p); ++x) pic.row<std::uint16_t>(p, y)[x] = sample(next_, p, x, y);
    ++next_;
    ++reads;
    return true;
  }
  bool skip() override { return false; }  // never used: shared frames are read
  const std::string& path() const override { return path_; }
  std::string kind() const override { return "counting test source"; }
  unsigned known_frames() const override { return frames_; }
  std::atomic<unsigned> reads{0};

 private:
  unsigned frames_;
  int fail_at_;
  unsigned next_ = 0;
  std::string path_ = "fake.y4m";
};

bool is_frame(const Picture& pic, unsigned f) {
  for (int p = 0; p < 3; ++p)
    for (int y = 0; y < pic.height(p); ++y)
      for (int x = 0; x < pic.width(p); ++x)
        if (pic.row<std::uint16_t>(p, y)[x] != sample(f, p, x, y)) return false;
  return true;
}

// A reader's life: skip `skips` frames, then read to the end (pausing now and then), noting what came.
struct Outcome {
  unsigned frames = 0;
  bool in_order = true;
  std::string error;
};
Outcome consume(PictureSource& s, unsigned skips, unsigned seed, unsigned stop_after = ~0u) {
  Outcome o;
  std::mt19937 rng(seed);
  Picture pic(kFormat);
  try {
    for (unsigned i = 0; i < skips; ++i) s.skip();
    for (unsigned f = skips; o.frames < stop_after; ++f) {
      if (!s.read(pic)) break;
      o.in_order = o.in_order && is_frame(pic, f);
      ++o.frames;
      if (rng() % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 300));
    }
  } catch (const Error& e) {
    o.error = e.what();
  }
  return o;
}

TEST(SharedSource, EveryReaderGetsEveryFrameAndTheInputIsReadOnce) {
  for (const unsigned window : {1u, 2u, 5u, 64u}) {
    auto inner = std::make_unique<CountingSource>(40);
    CountingSource& counted = *inner;
    auto shared = SharedSource::make(std::move(inner), window);
    std::vector<std::unique_ptr<PictureSource>> readers;
    for (int i = 0; i < 4; ++i) readers.push_back(shared->add_reader());
    std::vector<Outcome> out(4);
    std::vector<std::thread> threads;
    const unsigned skips[] = {0, 3, 0, 7};  // as --frame_skip_ref / --sync auto would
    for (int i = 0; i < 4; ++i)
      threads.emplace_back([&, i] { out[i] = consume(*readers[i], skips[i], 10 + i); });
    for (auto& t : threads) t.join();
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(out[i].frames, 40 - skips[i]) << "window " << window << " reader " << i;
      EXPECT_TRUE(out[i].in_order) << "window " << window << " reader " << i;
      EXPECT_EQ(out[i].error, "");
    }
    EXPECT_EQ(counted.reads.load(), 40u) << "window " << window;
    EXPECT_EQ(shared->frames_read(), 40u);
    EXPECT_LE(shared->peak_kept(), std::size_t(window)) << "window " << window;
    EXPECT_EQ(readers[0]->known_frames(), 40u);
    EXPECT_EQ(readers[0]->path(), "fake.y4m");
  }
}

TEST(SharedSource, AReaderThatStopsOrNeverReadsHoldsNobodyBack) {
  auto shared = SharedSource::make(std::make_unique<CountingSource>(30), 2);
  auto idle = shared->add_reader();     // a run that fails before reading (bad options)
  auto quitter = shared->add_reader();  // a run whose distorted input ends after 5 frames
  auto full = shared->add_reader();
  Outcome a, b;
  std::thread t1([&] {
    b = consume(*quitter, 0, 1, 5);
    quitter.reset();
  });
  std::thread t2([&] { a = consume(*full, 0, 2); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  idle.reset();  // with a window of 2, `full` waits for it until it is gone
  t1.join();
  t2.join();
  EXPECT_EQ(b.frames, 5u);
  EXPECT_EQ(a.frames, 30u);
  EXPECT_TRUE(a.in_order);
}

TEST(SharedSource, AnInputErrorReachesEveryReaderAtItsFrame) {
  auto shared = SharedSource::make(std::make_unique<CountingSource>(30, 12), 3);
  std::vector<std::unique_ptr<PictureSource>> readers;
  for (int i = 0; i < 3; ++i) readers.push_back(shared->add_reader());
  std::vector<Outcome> out(3);
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) threads.emplace_back([&, i] { out[i] = consume(*readers[i], unsigned(i), 20 + i); });
  for (auto& t : threads) t.join();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].frames, 12u - unsigned(i));
    EXPECT_TRUE(out[i].in_order);
    EXPECT_EQ(out[i].error, "fake.y4m: frame 12 is truncated");
  }
}

TEST(SharedSource, WindowForKeepsTheBudget) {
  const PictureFormat uhd{3840, 2160, 10, ChromaFormat::k420};
  const std::size_t per = Picture::storage_bytes(uhd);
  EXPECT_EQ(SharedSource::window_for(uhd, 30, 10 * per), 10u);
  EXPECT_EQ(SharedSource::window_for(uhd, 30, per), 2u);  // never fewer than 2
  EXPECT_EQ(SharedSource::window_for(kFormat, 500, std::size_t(1) << 30), 64u);
  EXPECT_EQ(SharedSource::window_for(kFormat, 9, std::size_t(1) << 30), 9u);
}

}  // namespace
}  // namespace vqtwin
