// The session API (frames from the caller's memory) against libvmaf's goldens, bit for bit: frames read by
// a y4m parser of this test (not vqtwin's readers), laid out with odd strides and unaligned rows, pushed
// from one or several threads.
#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../support/golden_support.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/output.hpp"
#include "vqtwin/session.hpp"

namespace vqtwin::test {
namespace {

// A y4m file's frames, parsed here: the header's W, H and C (420jpeg/420/420p10/444 only), each frame's
// planes copied into rows of `stride_pad` extra bytes, starting one byte into the buffer (unaligned).
struct ClipFrames {
  PictureFormat format;
  struct Frame {
    std::vector<unsigned char> bytes;
    PictureView view;
  };
  std::vector<Frame> frames;
};

ClipFrames read_y4m(const std::string& path, int stride_pad) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot read " + path);
  const std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const std::size_t eol = data.find('\n');
  const std::string header = data.substr(0, eol);
  ClipFrames clip;
  for (std::size_t at = header.find(' '); at != std::string::npos; at = header.find(' ', at + 1)) {
    const char tag = header[at + 1];
    const std::string value = header.substr(at + 2, header.find(' ', at + 1) - at - 2);
    if (tag == 'W') clip.format.width = std::stoi(value);
    if (tag == 'H') clip.format.height = std::stoi(value);
    if (tag == 'C') {
      clip.format.bitdepth = value.find("p10") != std::string::npos ? 10 : 8;
      clip.format.chroma = value.rfind("444", 0) == 0 ? ChromaFormat::k444 : ChromaFormat::k420;
    }
  }
  const PictureFormat& fmt = clip.format;
  std::size_t pos = eol + 1;
  while (pos < data.size()) {
    pos = data.find('\n', pos) + 1;  // "FRAME\n"
    ClipFrames::Frame fr;
    std::size_t offsets[3];
    std::ptrdiff_t strides[3];
    std::size_t total = 1;  // one byte first: rows start unaligned
    for (int p = 0; p < fmt.num_planes(); ++p) {
      strides[p] = fmt.plane_width(p) * fmt.bytes_per_sample() + stride_pad;
      offsets[p] = total;
      total += std::size_t(strides[p]) * std::size_t(fmt.plane_height(p));
    }
    fr.bytes.assign(total, 0xAB);
    for (int p = 0; p < fmt.num_planes(); ++p) {
      const std::size_t row = std::size_t(fmt.plane_width(p)) * std::size_t(fmt.bytes_per_sample());
      for (int y = 0; y < fmt.plane_height(p); ++y, pos += row)
        std::memcpy(fr.bytes.data() + offsets[p] + std::size_t(y) * std::size_t(strides[p]), data.data() + pos, row);
    }
    clip.frames.push_back(std::move(fr));
    ClipFrames::Frame& back = clip.frames.back();
    for (int p = 0; p < fmt.num_planes(); ++p) back.view.planes[p] = {back.bytes.data() + offsets[p], strides[p]};
  }
  return clip;
}

nlohmann::ordered_json to_json(const Results& results, unsigned subsample = 1) {
  return results_to_json(results, subsample);
}

std::string golden(const std::string& pair, const std::string& run) {
  return shared_dir() + "/golden/" + pair + "/" + run + ".max.json";
}

void expect_equal(const Results& results, const std::string& golden_path) {
  const auto diffs = compare_outputs(to_json(results), load_json(golden_path));
  for (const auto& d : diffs) ADD_FAILURE() << d;
  EXPECT_TRUE(diffs.empty()) << golden_path;
}

struct Pair {
  ClipFrames ref, dist;
};

Pair load_pair(const std::string& name, int stride_pad) {
  const auto [r, d] = inputs_of(name);
  return {read_y4m(r, stride_pad), read_y4m(d, stride_pad)};
}

TEST(Session, VmafFromMemoryEqualsTheGolden) {
  const Pair p = load_pair("sd_576x324_8bit_420", 13);
  ASSERT_EQ(p.ref.frames.size(), 48u);
  SessionConfig c;
  c.threads = 2;
  Results results;
  {
    Session s(c, p.ref.format, results);
    for (std::size_t i = 0; i < p.ref.frames.size(); ++i)
      EXPECT_EQ(s.push(p.ref.frames[i].view, p.dist.frames[i].view), i);
    s.finish();
  }
  EXPECT_EQ(results.scores, std::vector<std::string>{"vmaf"});
  expect_equal(results, golden("sd_576x324_8bit_420", "vmaf_v0.6.1"));
}

// Several pushing threads, each taking every third frame in turn (a turnstile keeps the file's order), with
// temporal features (motion) in the model: the same bits.
TEST(Session, PushedFromThreeThreadsEqualsTheGolden) {
  const Pair p = load_pair("sd_576x324_8bit_420", 0);
  SessionConfig c;
  c.threads = 3;
  Results results;
  Session s(c, p.ref.format, results);
  std::mutex m;
  std::condition_variable cv;
  std::size_t next = 0;
  auto pusher = [&](std::size_t first) {
    for (std::size_t i = first; i < p.ref.frames.size(); i += 3) {
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return next == i; });
      lock.unlock();
      s.push(p.ref.frames[i].view, p.dist.frames[i].view);
      lock.lock();
      ++next;
      cv.notify_all();
    }
  };
  std::thread a(pusher, 0), b(pusher, 1), d(pusher, 2);
  a.join();
  b.join();
  d.join();
  s.finish();
  expect_equal(results, golden("sd_576x324_8bit_420", "vmaf_v0.6.1"));
}

TEST(Session, TenBitFeaturesEqualTheGolden) {
  const Pair p = load_pair("hd_1280x720_10bit_420", 6);
  ASSERT_EQ(p.ref.format.bitdepth, 10);
  SessionConfig c;
  c.no_prediction = true;
  c.features = {"psnr", "float_ssim"};
  c.threads = 2;
  for (const char* run : {"psnr", "float_ssim"}) {
    Results results;
    SessionConfig one = c;
    one.features = {run};
    Session s(one, p.ref.format, results);
    for (std::size_t i = 0; i < p.ref.frames.size(); ++i) s.push(p.ref.frames[i].view, p.dist.frames[i].view);
    s.finish();
    expect_equal(results, golden("hd_1280x720_10bit_420", run));
  }
}

// The zero-copy path: the session's own pictures filled in place.
TEST(Session, AcquireSubmitEqualsPush) {
  const Pair p = load_pair("sd_576x324_8bit_420", 0);
  SessionConfig c;
  c.no_prediction = true;
  c.features = {"psnr"};
  c.threads = 1;
  Results results;
  Session s(c, p.ref.format, results);
  for (std::size_t i = 0; i < p.ref.frames.size(); ++i) {
    const Session::Slot slot = s.acquire();
    for (int pl = 0; pl < 3; ++pl) {
      const PictureFormat& f = p.ref.format;
      for (int y = 0; y < f.plane_height(pl); ++y) {
        std::memcpy(slot.ref->row<unsigned char>(pl, y),
                    static_cast<const unsigned char*>(p.ref.frames[i].view.planes[pl].data) +
                        y * p.ref.frames[i].view.planes[pl].stride,
                    std::size_t(f.plane_width(pl)));
        std::memcpy(slot.dist->row<unsigned char>(pl, y),
                    static_cast<const unsigned char*>(p.dist.frames[i].view.planes[pl].data) +
                        y * p.dist.frames[i].view.planes[pl].stride,
                    std::size_t(f.plane_width(pl)));
      }
    }
    EXPECT_EQ(s.submit(slot), i);
  }
  s.finish();
  expect_equal(results, golden("sd_576x324_8bit_420", "psnr"));
}

TEST(Session, RefusesWhatDoesNotFit) {
  SessionConfig c;
  c.no_prediction = true;
  c.features = {"psnr"};
  const PictureFormat f{64, 48, 8, ChromaFormat::k420};
  Results results;
  EXPECT_THROW(
      {
        SessionConfig bad = c;
        bad.features = {"no_such_feature"};
        Session s(bad, f, results);
      },
      Error);
  EXPECT_THROW(Session(c, PictureFormat{0, 48, 8, ChromaFormat::k420}, results), Error);
  EXPECT_THROW(Session(c, PictureFormat{64, 48, 7, ChromaFormat::k420}, results), Error);

  Session s(c, f, results);
  std::vector<unsigned char> plane(64 * 48, 128);
  PictureView ok;
  ok.planes[0] = {plane.data(), 64};
  ok.planes[1] = {plane.data(), 32};
  ok.planes[2] = {plane.data(), 32};
  PictureView short_stride = ok;
  short_stride.planes[0].stride = 63;
  PictureView missing = ok;
  missing.planes[2].data = nullptr;
  try {
    s.push(short_stride, ok);
    FAIL() << "a stride shorter than a row was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stride of 63 bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(s.push(ok, missing), Error);
  EXPECT_EQ(s.push(ok, ok), 0u);  // the refused pushes took no frame number
  s.finish();
  EXPECT_EQ(results.frames, 1u);
  EXPECT_EQ(*results.value("psnr_y", 0), 60.0);  // identical 8-bit pictures: psnr's cap
  EXPECT_THROW(s.push(ok, ok), Error);
  EXPECT_THROW(s.finish(), Error);
}

}  // namespace
}  // namespace vqtwin::test
