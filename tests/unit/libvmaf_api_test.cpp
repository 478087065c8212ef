// vqtwin against libvmaf 3.2.0's own numbers on cases the goldens lack, recorded as expected data in
// tests/expected/ (each file's "source" says how they were made: libvmaf through its API, fed as FFmpeg's
// libvmaf filter and its CLI feed it). The inputs are generated here (make_pair); the expected data was
// computed from the same bytes.
//   libvmaf_odd_chroma.json  odd widths/heights in 4:2:0 and 4:2:2 at 8/10/12/16 bits: chroma computed on
//                            the (w >> 1) x (h >> 1) region of libvmaf's pictures (issue 19)
//   libvmaf_rules.json       option values normalised to 6 digits, duplicate contexts, --subsample with
//                            aggregates and temporal state, 0 vs max samples at every depth (issue 17)
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../support/golden_support.hpp"
#include "vqtwin/run.hpp"

namespace fs = std::filesystem;

namespace vqtwin::test {
namespace {

struct Pair {
  int width, height;
  std::string chroma;
  int bitdepth, frames;
  // noise; extreme (0 vs 2^bits - 1); over (0 vs 65535 at any depth); wild (any 16-bit word at any depth);
  // ramp (ramps over the whole 16-bit word, against another ramp or wild noise)
  std::string pattern;
};

struct Case {
  std::string name;
  Pair pair;
  std::vector<std::string> features, models;
  unsigned subsample;
  nlohmann::ordered_json expected;
};

std::vector<Case> load_cases(const std::string& file) {
  const auto doc = load_json(std::string(VQTWIN_EXPECTED_DIR) + "/" + file);
  std::vector<Case> out;
  for (const auto& c : doc.at("cases")) {
    const auto& p = c.at("pair");
    out.push_back({c.at("name").get<std::string>(),
                   {p.at("width").get<int>(), p.at("height").get<int>(), p.at("chroma").get<std::string>(),
                    p.at("bitdepth").get<int>(), p.at("frames").get<int>(), p.at("pattern").get<std::string>()},
                   c.at("features").get<std::vector<std::string>>(), c.at("models").get<std::vector<std::string>>(),
                   c.at("subsample").get<unsigned>(), c.at("libvmaf")});
  }
  return out;
}

// A deterministic ref/dist pair as raw planar files with ceil-sized chroma planes. "noise": a pattern
// plus low-bit noise for the reference (every sample differs from its neighbours, so a left-out chroma
// column or row changes every chroma value), the reference plus +-20 (in 8-bit units) clipped for the
// distorted. "extreme" / "over": 0 against the top value, swapped on odd frames. "wild": independent
// uniform 16-bit words (samples of 2^bpc or more at 10/12 bits, which libvmaf accepts).
void make_pair(const Pair& c, const std::string& ref_path, const std::string& dist_path) {
  std::uint32_t state = std::uint32_t(c.width * 131 + c.height * 17 + c.bitdepth * 7 + (c.chroma == "420" ? 1 : 2));
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  const bool ss_hor = c.chroma == "420" || c.chroma == "422", ss_ver = c.chroma == "420";
  const int planes = c.chroma == "400" ? 1 : 3;
  const int sh = c.bitdepth - 8;
  const long maxv = (1L << c.bitdepth) - 1;
  const long top = c.pattern == "extreme" ? maxv : 65535;
  std::ofstream ref(ref_path, std::ios::binary), dist(dist_path, std::ios::binary);
  auto put = [&](std::ofstream& f, long v) {
    if (c.bitdepth > 8) {
      const char b[2] = {char(v & 255), char(v >> 8)};
      f.write(b, 2);
    } else {
      f.put(char(v));
    }
  };
  for (int f = 0; f < c.frames; ++f)
    for (int p = 0; p < planes; ++p) {
      const int pw = (p && ss_hor) ? (c.width + 1) >> 1 : c.width;
      const int ph = (p && ss_ver) ? (c.height + 1) >> 1 : c.height;
      for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x) {
          const long base = (x * 13 + y * 29 + x * y * 3 + f * 7 + p * 71) % 256;
          long r = (base << sh) | long(next() & ((1u << sh) - 1));
          long d = r + (long(next() % 41) - 20) * (1L << sh);
          d = d < 0 ? 0 : (d > maxv ? maxv : d);
          if (c.pattern == "extreme" || c.pattern == "over") {
            r = f % 2 == 0 ? 0 : top;
            d = f % 2 == 0 ? top : 0;
          }
          if (c.pattern == "wild") {
            r = long(next() % 65536);
            d = long(next() % 65536);
          }
          if (c.pattern == "ramp") {
            r = (x * 331L + y * 173L + f * 97L) % 65536;
            d = f % 2 == 0 ? (x * 173L + y * 331L + f * 61L) % 65536 : long(next() % 65536);
          }
          put(ref, r);
          put(dist, d);
        }
    }
}

// The metrics of every section with their names sorted: libvmaf's name order under its thread pool
// varies with timing on pictures this small (the goldens check the order); values and names are exact.
nlohmann::ordered_json sorted_names(const nlohmann::ordered_json& doc) {
  auto sorted = [](const nlohmann::ordered_json& obj) {
    std::vector<std::string> keys;
    for (auto it = obj.begin(); it != obj.end(); ++it) keys.push_back(it.key());
    std::sort(keys.begin(), keys.end());
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& k : keys) out[k] = obj.at(k);
    return out;
  };
  nlohmann::ordered_json out = doc;
  for (auto& f : out.at("frames")) f["metrics"] = sorted(f.at("metrics"));
  for (const char* section : {"pooled_metrics", "aggregate_metrics"})
    if (out.contains(section)) out[section] = sorted(out.at(section));
  return out;
}

struct Outcome {
  std::vector<std::string> diffs;
  std::vector<std::string> warnings;
};

Outcome run_case(const Case& c, unsigned threads) {
  const fs::path dir = fs::temp_directory_path() / ("vqtwin_libvmaf_api_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string ref = (dir / "r.yuv").string(), dist = (dir / "d.yuv").string();
  make_pair(c.pair, ref, dist);
  RunConfig cfg;
  cfg.reference = ref;
  cfg.distorted = dist;
  cfg.width = c.pair.width;
  cfg.height = c.pair.height;
  cfg.pixel_format = c.pair.chroma;
  cfg.bitdepth = c.pair.bitdepth;
  cfg.features = c.features;
  cfg.models = c.models;
  cfg.no_prediction = c.models.empty();
  cfg.subsample = c.subsample;
  cfg.threads = threads;
  Outcome o;
  cfg.warn = [&](const std::string& line) { o.warnings.push_back(line); };
  o.diffs = compare_outputs(sorted_names(run_to_json(cfg)), sorted_names(c.expected));
  fs::remove_all(dir);
  return o;
}

std::string show(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += "\n  " + l;
  return text;
}

TEST(LibvmafApi, OddSizeChromaEqualsLibvmaf) {
  const auto cases = load_cases("libvmaf_odd_chroma.json");
  ASSERT_EQ(cases.size(), 27u);
  for (const Case& c : cases) {
    const Outcome o = run_case(c, 1);
    EXPECT_TRUE(o.diffs.empty()) << c.name << show(o.diffs);
  }
}

TEST(LibvmafApi, Issue17CasesEqualLibvmaf) {
  const auto cases = load_cases("libvmaf_rules.json");
  ASSERT_EQ(cases.size(), 22u);
  for (const Case& c : cases)
    for (unsigned threads : {1u, 3u}) {
      const Outcome o = run_case(c, threads);
      EXPECT_TRUE(o.diffs.empty()) << c.name << " (--threads " << threads << ")" << show(o.diffs);
    }
}

// A dropped request is said on one line naming both requests (libvmaf drops it silently).
TEST(LibvmafApi, MergedRequestsAreReported) {
  const auto cases = load_cases("libvmaf_rules.json");
  auto find = [&](const std::string& prefix) {
    for (const Case& c : cases)
      if (c.name.rfind(prefix, 0) == 0) return c;
    throw std::runtime_error("no case " + prefix);
  };
  const struct {
    std::string case_name, dropped, kept;
  } expect[] = {
      {"duplicate float_ssim", "--feature float_ssim=enable_db=true", "merged into --feature float_ssim:"},
      {"duplicate psnr", "--feature psnr=enable_mse=true", "merged into --feature psnr:"},
      {"--feature merged into the model", "--feature adm=debug=true", "merged into model vmaf's adm:"},
  };
  for (const auto& e : expect) {
    const Outcome o = run_case(find(e.case_name), 1);
    ASSERT_EQ(o.warnings.size(), 1u) << e.case_name << show(o.warnings);
    EXPECT_EQ(o.warnings[0].rfind(e.dropped + " is merged", 0), 0u) << o.warnings[0];
    EXPECT_NE(o.warnings[0].find(e.kept), std::string::npos) << o.warnings[0];
  }
  // Identical requests lose nothing: no line.
  Case same = find("duplicate psnr");
  same.features = {"psnr", "psnr=enable_chroma=true"};
  EXPECT_TRUE(run_case(same, 1).warnings.empty());
}

}  // namespace
}  // namespace vqtwin::test
