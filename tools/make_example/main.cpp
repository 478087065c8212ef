// Writes a synthetic reference/distorted y4m pair for the README's first command (video files are
// never committed): moving textured content, and a blurred, coarsely quantised copy of it.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kW = 320, kH = 180, kFrames = 24;

std::uint8_t clamp8(double v) { return std::uint8_t(v < 0 ? 0 : v > 255 ? 255 : std::lround(v)); }

// A deterministic texture: gradients, a moving disc, and hashed noise.
double texture(int x, int y, int f) {
  const double cx = 60 + 6.0 * f, cy = 90 + 20 * std::sin(f * 0.3);
  const double disc = ((x - cx) * (x - cx) + (y - cy) * (y - cy) < 900) ? 80 : 0;
  std::uint32_t h = std::uint32_t(x * 73856093u) ^ std::uint32_t(y * 19349663u) ^ std::uint32_t(f * 83492791u);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  const double noise = double(h >> 24) / 255.0 * 24 - 12;
  return 40 + 0.4 * x + 0.3 * y + 30 * std::sin((x + 2 * f) * 0.08) * std::cos(y * 0.05) + disc + noise;
}

bool write_pair(const std::string& ref_path, const std::string& dist_path) {
  std::FILE* r = std::fopen(ref_path.c_str(), "wb");
  std::FILE* d = std::fopen(dist_path.c_str(), "wb");
  if (!r || !d) return false;
  const char* header = "YUV4MPEG2 W320 H180 F24:1 Ip A1:1 C420jpeg\n";
  std::fputs(header, r);
  std::fputs(header, d);
  std::vector<std::uint8_t> ref(kW * kH), dist(kW * kH), chroma((kW / 2) * (kH / 2));
  for (int f = 0; f < kFrames; ++f) {
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x) ref[y * kW + x] = clamp8(texture(x, y, f));
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x) {
        double s = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int xx = x + dx < 0 ? 0 : x + dx >= kW ? kW - 1 : x + dx;
            const int yy = y + dy < 0 ? 0 : y + dy >= kH ? kH - 1 : y + dy;
            s += ref[yy * kW + xx];
          }
        const int step = 4 + (f % 4) * 2;  // quality varies over the clip
        dist[y * kW + x] = clamp8(std::round(s / 9 / step) * step);
      }
    std::fputs("FRAME\n", r);
    std::fputs("FRAME\n", d);
    std::fwrite(ref.data(), 1, ref.size(), r);
    std::fwrite(dist.data(), 1, dist.size(), d);
    for (int p = 0; p < 2; ++p) {
      for (std::size_t i = 0; i < chroma.size(); ++i) chroma[i] = std::uint8_t(110 + p * 30 + (i % 160) / 16);
      std::fwrite(chroma.data(), 1, chroma.size(), r);
      std::fwrite(chroma.data(), 1, chroma.size(), d);
    }
  }
  return std::fclose(r) == 0 && std::fclose(d) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_example REF.y4m DIST.y4m\n");
    return 2;
  }
  if (!write_pair(argv[1], argv[2])) {
    std::fprintf(stderr, "make_example: cannot write the example pair\n");
    return 1;
  }
  return 0;
}
