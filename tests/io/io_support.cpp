#include "io_support.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "../support/golden_support.hpp"

namespace fs = std::filesystem;

namespace vqtwin::test {

const std::string& clip_dir() {
  // Never destroyed: the removal at exit runs after the destructors of statics built before the
  // handler was registered, so the name must outlive them all.
  static const std::string* const dir = [] {
    const fs::path d = fs::temp_directory_path() / ("vqtwin_io_" + std::to_string(::getpid()));
    fs::create_directories(d);
    auto* name = new std::string(d.string());
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(clip_dir(), ignored);
    });
    return name;
  }();
  return *dir;
}

bool sh(const std::string& command) {
  const int status = std::system(command.c_str());
  if (status != 0) ADD_FAILURE() << "command failed (" << status << "): " << command;
  return status == 0;
}

std::string sd_reference() { return fixtures_dir() + "/sd_576x324_8bit_420_ref.y4m"; }

std::string ffmpeg_clip(const std::string& name, const std::string& args) {
  const std::string file = clip_dir() + "/" + name;
  // SVT_LOG=1: SVT-AV1 prints errors only.
  if (!fs::exists(file)) sh("SVT_LOG=1 ffmpeg -nostdin -v error -y " + args + " -strict -1 " + file);
  return file;
}

std::string reference_in(const std::string& pix_fmt) {
  return ffmpeg_clip("ref_" + pix_fmt + ".y4m", "-i " + sd_reference() + " -frames:v 12 -pix_fmt " + pix_fmt);
}

std::unique_ptr<PictureSource> open_source(const std::string& path) {
  SourceOptions options;
  options.decode_threads = 2;
  return open_picture_source(path, options);
}

void expect_same_frames(PictureSource& a, PictureSource& b) {
  ASSERT_EQ(a.format(), b.format()) << a.format().describe() << " vs " << b.format().describe();
  Picture pa(a.format()), pb(b.format());
  const PictureFormat& f = a.format();
  for (unsigned frame = 0;; ++frame) {
    const bool more_a = a.read(pa), more_b = b.read(pb);
    ASSERT_EQ(more_a, more_b) << a.path() << " and " << b.path() << " differ in length at frame " << frame;
    if (!more_a) return;
    for (int p = 0; p < f.num_planes(); ++p)
      for (int y = 0; y < f.plane_height(p); ++y) {
        const auto* ra = static_cast<const unsigned char*>(pa.data(p)) + y * pa.stride_bytes(p);
        const auto* rb = static_cast<const unsigned char*>(pb.data(p)) + y * pb.stride_bytes(p);
        const std::size_t n = std::size_t(f.plane_width(p)) * std::size_t(f.bytes_per_sample());
        if (std::memcmp(ra, rb, n) != 0) {
          std::size_t x = 0;
          while (ra[x] == rb[x]) ++x;
          FAIL() << a.path() << " and " << b.path() << " differ at frame " << frame << ", plane " << p << ", row " << y
                 << ", byte " << x << ": " << int(ra[x]) << " vs " << int(rb[x]);
        }
      }
  }
}

}  // namespace vqtwin::test
