// The CLI end to end: every bad-input case gives one clear error line and a non-zero exit, and the
// frames scored before the error are still written. Files are generated in a temporary folder.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "features/float_adm/rcpss.hpp"

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status = -1;
  std::string err;  // stderr
};

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("vqtwin_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // A y4m file: `frames` frames of 8-bit 4:2:0 with a gradient (+shift), optionally cut short.
  std::string y4m(const std::string& name, int w, int h, int frames, int shift = 0, const std::string& header_tail = " F25:1 Ip A1:1 C420jpeg",
                  long cut_bytes = 0) {
    std::string data = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + header_tail + "\n";
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    for (int f = 0; f < frames; ++f) {
      data += "FRAME\n";
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) data.push_back(char((x * 3 + y * 5 + f * 7 + shift * ((x ^ y) & 3)) & 255));
      data.append(std::size_t(2 * cw * ch), char(128));
    }
    if (cut_bytes) data.resize(data.size() - std::size_t(cut_bytes));
    return write(name, data);
  }

  std::string write(const std::string& name, const std::string& data) {
    std::ofstream(path(name), std::ios::binary) << data;
    return path(name);
  }

  // `env`: assignments for the command's environment ("NAME=value ...").
  Outcome run(const std::string& args, const std::string& env = "") {
    const std::string err = path("stderr.txt");
    const std::string cmd = env + " " + std::string(VQTWIN_CLI) + " -q " + args + " 2>" + err;
    Outcome o;
    const int raw = std::system(cmd.c_str());
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    std::ifstream in(err);
    o.err.assign(std::istreambuf_iterator<char>(in), {});
    return o;
  }

  // Asserts a failing run with exactly one error line containing `needle`.
  void expect_error(const std::string& args, const std::string& needle) {
    const Outcome o = run(args);
    EXPECT_NE(o.status, 0) << args;
    EXPECT_NE(o.status, -1) << "crashed: " << args;
    EXPECT_NE(o.err.find(needle), std::string::npos) << "stderr: " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << "stderr: " << o.err;
    EXPECT_EQ(o.err.rfind("vqtwin: error: ", 0), 0u) << "stderr: " << o.err;
  }

  fs::path dir_;
};

TEST_F(Cli, GoodRunWritesJson) {
  const auto r = y4m("r.y4m", 33, 17, 3), d = y4m("d.y4m", 33, 17, 3, 1);
  const Outcome o = run("-r " + r + " -d " + d + " --feature psnr --no_prediction --json -o " + path("o.json"));
  ASSERT_EQ(o.status, 0) << o.err;
  auto j = nlohmann::json::parse(std::ifstream(path("o.json")));
  EXPECT_EQ(j["frames"].size(), 3u);
  EXPECT_TRUE(j["frames"][0]["metrics"].contains("psnr_y"));
}

TEST_F(Cli, TruncatedFrameKeepsEarlierFrames) {
  const auto r = y4m("r.y4m", 32, 16, 3, 0, " C420jpeg", 100), d = y4m("d.y4m", 32, 16, 3, 1);
  const Outcome o = run("-r " + r + " -d " + d + " --feature psnr --no_prediction --json -o " + path("o.json"));
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("r.y4m: frame 2 is truncated"), std::string::npos) << o.err;
  auto j = nlohmann::json::parse(std::ifstream(path("o.json")));
  EXPECT_EQ(j["frames"].size(), 2u);  // frames 0 and 1 were scored and written
}

TEST_F(Cli, BadInputs) {
  const auto good = y4m("good.y4m", 32, 16, 2);
  const std::string feat = " --feature psnr --no_prediction";
  expect_error("-r " + write("magic.y4m", "YUV4MPEG3 W2 H2\nFRAME\n") + " -d " + good + feat, "not a y4m file");
  expect_error("-r " + y4m("tag.y4m", 32, 16, 1, 0, " C411") + " -d " + good + feat, "unsupported y4m colour space C411");
  expect_error("-r " + y4m("w0.y4m", 0, 16, 0) + " -d " + good + feat, "unsupported picture size 0x16");
  expect_error("-r " + write("neg.y4m", "YUV4MPEG2 W-5 H16\n") + " -d " + good + feat, "bad y4m width '-5'");
  expect_error("-r " + write("huge.y4m", "YUV4MPEG2 W100000 H100000\n") + " -d " + good + feat,
               "unsupported picture size 100000x100000");
  expect_error("-r " + write("empty.y4m", "") + " -d " + good + feat, "empty.y4m: file is empty");
  expect_error("-r " + y4m("noframes.y4m", 32, 16, 0) + " -d " + good + feat, "header but no frames");
  expect_error("-r " + write("nohdr.y4m", "YUV4MPEG2 W32 H16") + " -d " + good + feat, "header is truncated");
  expect_error("-r " + y4m("other.y4m", 34, 16, 2) + " -d " + good + feat, "differ in size; --scale auto scales");
  expect_error("-r " + path("missing.y4m") + " -d " + good + feat, "missing.y4m: cannot open");
  expect_error("-r " + write("bad.yuv", std::string(100, '\0')) + " -d " + write("bad2.yuv", std::string(100, '\0')) +
                   " -w 8 -h 8 -p 420 -b 8" + feat,
               "is not a multiple of the 8x8 8-bit 4:2:0 frame size (96 bytes)");
  expect_error("-r " + good + " -d " + good + " --feature psnr=bogus=1 --no_prediction", "psnr: unknown option 'bogus'");
  expect_error("-r " + good + " -d " + good + " --feature psnr=min_sse=-1 --no_prediction", "out of range");
  expect_error("-r " + good + " -d " + good + " --feature psnr=enable_mse=maybe --no_prediction", "must be true or false");
  expect_error("-r " + good + " -d " + good + " --feature nosuch --no_prediction", "unknown feature 'nosuch'");
  expect_error("-r " + good + " -d " + good + " --feature psnr --no_prediction --precision 99", "--precision");
}

TEST_F(Cli, FrameHeaderGarbage) {
  // A frame whose FRAME marker is wrong (wrong frame size in a hand-made file).
  std::string data = "YUV4MPEG2 W4 H2 C420jpeg\nFRAME\n" + std::string(12, 'a') + "FRAMX\n" + std::string(12, 'a');
  const auto bad = write("garbage.y4m", data);
  const auto good = y4m("good.y4m", 4, 2, 2);
  expect_error("-r " + bad + " -d " + good + " --feature psnr --no_prediction", "frame 1 does not start with FRAME");
}

TEST_F(Cli, RawYuvRuns) {
  std::string frame(6 * 4 + 2 * 3 * 2, char(10));
  const auto r = write("r.yuv", frame + frame), d = write("d.yuv", frame + frame);
  const Outcome o = run("-r " + r + " -d " + d + " -w 6 -h 4 -p 420 -b 8 --feature psnr --no_prediction --csv -o " + path("o.csv"));
  ASSERT_EQ(o.status, 0) << o.err;
  std::ifstream in(path("o.csv"));
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "Frame,psnr_y,psnr_cb,psnr_cr,");
}

TEST_F(Cli, ThreadsGiveIdenticalOutput) {
  const auto r = y4m("r.y4m", 41, 23, 9), d = y4m("d.y4m", 41, 23, 9, 2);
  std::string outs[3];
  for (int t : {1, 2, 3}) {
    const std::string o = path("o" + std::to_string(t) + ".json");
    ASSERT_EQ(run("-r " + r + " -d " + d + " --feature psnr=enable_apsnr=true --no_prediction --json --precision max --threads " +
                  std::to_string(t) + " -o " + o).status, 0);
    auto j = nlohmann::json::parse(std::ifstream(o));
    j.erase("fps");
    outs[t - 1] = j.dump();
  }
  EXPECT_EQ(outs[0], outs[1]);
  EXPECT_EQ(outs[0], outs[2]);
}

// --cpumask / VQTWIN_CPU_MASK force the portable kernels (speed only): every feature with SIMD
// variants gives the same bits; a bad mask is one error line.
TEST_F(Cli, CpuMaskGivesIdenticalOutput) {
  const auto r = y4m("r.y4m", 67, 45, 4), d = y4m("d.y4m", 67, 45, 4, 3);
  const std::string features =
      " --feature vif --feature adm --feature motion --feature float_motion --feature float_vif --feature float_ssim"
      " --feature integer_ssim --no_prediction --json --precision max";
  auto scores = [&](const std::string& extra, const std::string& env) {
    const std::string o = path("o.json");
    EXPECT_EQ(run("-r " + r + " -d " + d + features + extra + " -o " + o, env).status, 0) << extra << env;
    auto j = nlohmann::json::parse(std::ifstream(o));
    j.erase("fps");
    return j.dump();
  };
  const std::string all = scores("", "");
  EXPECT_EQ(scores(" --cpumask -1", ""), all);
  EXPECT_EQ(scores(" --cpumask 0x10", ""), all);  // AVX-512 off, AVX2 kept
  EXPECT_EQ(scores("", "VQTWIN_CPU_MASK=0xff"), all);
  const Outcome bad = run("-r " + r + " -d " + d + " --cpumask avx2");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--cpumask"), std::string::npos) << bad.err;
  const Outcome bad_env = run("-r " + r + " -d " + d + " --feature vif", "VQTWIN_CPU_MASK=x");
  EXPECT_EQ(bad_env.status, 1);
  EXPECT_NE(bad_env.err.find("VQTWIN_CPU_MASK"), std::string::npos) << bad_env.err;
}

// --rcpss picks float ADM's reciprocal table: amd (the default) and intel give different float ADM
// values and float VMAF scores, and nothing else changes; a bad name is one error line.
TEST_F(Cli, RcpssPicksTheFloatAdmTable) {
  const auto r = y4m("r.y4m", 67, 45, 4), d = y4m("d.y4m", 67, 45, 4, 3);
  auto frames = [&](const std::string& extra) {
    const std::string o = path("o.json");
    EXPECT_EQ(run("-r " + r + " -d " + d + " --model version=vmaf_float_v0.6.1 --feature psnr --json --precision max" +
                  extra + " -o " + o).status, 0) << extra;
    return nlohmann::json::parse(std::ifstream(o))["frames"];
  };
  const auto amd = frames(""), intel = frames(" --rcpss intel");
  EXPECT_EQ(frames(" --rcpss amd"), amd);
  int adm_differs = 0;
  for (std::size_t f = 0; f < amd.size(); ++f)
    for (auto it = amd[f]["metrics"].begin(); it != amd[f]["metrics"].end(); ++it) {
      const std::string name = it.key();
      const bool adm = name.rfind("adm", 0) == 0 || name.rfind("aim", 0) == 0 || name == "vmaf";
      if (adm) {
        adm_differs += intel[f]["metrics"][name] != it.value();
      } else {
        EXPECT_EQ(intel[f]["metrics"][name], it.value()) << name;
      }
    }
  EXPECT_GT(adm_differs, 0);
#if defined(__x86_64__) || defined(__i386__)
  // This CPU's own: the output of the known table equal to what it measures, if any.
  namespace adm = vqtwin::float_adm;
  const std::uint32_t* here = adm::rcpss_table(vqtwin::Rcpss::kNative);
  const auto native = frames(" --rcpss native");
  if (std::equal(here, here + adm::kRcpssEntries, adm::kRcpssAmd)) {
    EXPECT_EQ(native, amd);
  }
  if (std::equal(here, here + adm::kRcpssEntries, adm::kRcpssIntel)) {
    EXPECT_EQ(native, intel);
  }
#endif
  const Outcome bad = run("-r " + r + " -d " + d + " --rcpss zen");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "vqtwin: error: --rcpss must be amd, intel or native, not 'zen'\n");
}

// Every y4m colour space family reaches the extractors with the right plane layout.
TEST_F(Cli, ColourSpacesAndBitDepths) {
  struct Case {
    std::string tag;
    int chroma_w, chroma_h, bytes;  // chroma plane size for a 5x3 picture, bytes per sample
    std::vector<std::string> names;
  };
  const Case cases[] = {
      {"C420p10", 3, 2, 2, {"psnr_y", "psnr_cb", "psnr_cr"}},
      {"C422p12", 3, 3, 2, {"psnr_y", "psnr_cb", "psnr_cr"}},
      {"C444p16", 5, 3, 2, {"psnr_y", "psnr_cb", "psnr_cr"}},
      {"C420mpeg2", 3, 2, 1, {"psnr_y", "psnr_cb", "psnr_cr"}},
      {"Cmono", 0, 0, 1, {"psnr_y"}},
      {"Cmono12", 0, 0, 2, {"psnr_y"}},
  };
  for (const auto& c : cases) {
    const int samples = 5 * 3 + 2 * c.chroma_w * c.chroma_h;
    std::string frame_r = "FRAME\n", frame_d = "FRAME Ixyz\n";  // frame parameters are tolerated
    for (int i = 0; i < samples * c.bytes; ++i) {
      frame_r.push_back(char(i % 7));
      frame_d.push_back(char(i % 5));
    }
    const std::string header = "YUV4MPEG2 W5 H3 F30000:1001 It A0:0 " + c.tag + " XCOLORRANGE=LIMITED\n";
    const auto r = write("r_" + c.tag + ".y4m", header + frame_r + frame_r);
    const auto d = write("d_" + c.tag + ".y4m", header + frame_d + frame_d);
    const Outcome o = run("-r " + r + " -d " + d + " --feature psnr --no_prediction --json -o " + path("o.json"));
    ASSERT_EQ(o.status, 0) << c.tag << ": " << o.err;
    auto j = nlohmann::ordered_json::parse(std::ifstream(path("o.json")));
    ASSERT_EQ(j["frames"].size(), 2u) << c.tag;
    std::vector<std::string> got;
    for (auto it = j["frames"][0]["metrics"].begin(); it != j["frames"][0]["metrics"].end(); ++it) got.push_back(it.key());
    EXPECT_EQ(got, c.names) << c.tag;
  }
}

TEST_F(Cli, NoCudaDeviceIsAClearError) {
  if (std::system("nvidia-smi -L >/dev/null 2>&1") == 0) GTEST_SKIP() << "a CUDA device is present";
  const auto r = y4m("r.y4m", 16, 8, 2);
  expect_error("-r " + r + " -d " + r + " --feature psnr --no_prediction --backend cuda", "CUDA device 0 cannot be used");
  // auto falls back to the CPU silently.
  EXPECT_EQ(run("-r " + r + " -d " + r + " --feature psnr --no_prediction --backend auto -o " + path("a.json")).status, 0);
}

TEST_F(Cli, ReadsY4mFromStandardInput) {
  const auto r = y4m("r.y4m", 16, 8, 3), d = y4m("d.y4m", 16, 8, 3, 1);
  const Outcome o = run("-r - -d " + d + " --feature psnr --no_prediction --json -o " + path("o.json") + " < " + r);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(path("o.json")))["frames"].size(), 3u);
}

TEST_F(Cli, ListShowsTheOptionTables) {
  const std::string out = path("list.txt");
  ASSERT_EQ(std::system((std::string(VQTWIN_CLI) + " --list > " + out).c_str()), 0);
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("float_motion  [cpu, temporal]"), std::string::npos);
  EXPECT_NE(text.find("motion_fps_weight (mfw): double, default 1, range [0, 5], names the output"), std::string::npos);
  EXPECT_NE(text.find("integer_ssim / ssim"), std::string::npos);
}

TEST_F(Cli, FrameSelection) {
  const auto r = y4m("r.y4m", 16, 8, 6), d = y4m("d.y4m", 16, 8, 8, 1);
  auto frames = [&](const std::string& extra) {
    const std::string o = path("sel.json");
    EXPECT_EQ(run("-r " + r + " -d " + d + " --feature psnr --no_prediction --json --precision max -o " + o + " " + extra).status, 0);
    return nlohmann::json::parse(std::ifstream(o));
  };
  EXPECT_EQ(frames("")["frames"].size(), 6u);  // the shorter input decides
  EXPECT_EQ(frames("--frame_cnt 4")["frames"].size(), 4u);
  const auto sub = frames("--subsample 2");
  ASSERT_EQ(sub["frames"].size(), 3u);
  EXPECT_EQ(sub["frames"][1]["frameNum"], 2);
  // Skipping 2 distorted frames pairs ref frame i with dist frame i+2.
  const auto skipped = frames("--frame_skip_dist 2 --frame_cnt 1");
  const auto plain = frames("--frame_skip_ref 0");
  EXPECT_EQ(skipped["frames"].size(), 1u);
  EXPECT_NE(skipped["frames"][0]["metrics"]["psnr_y"], plain["frames"][0]["metrics"]["psnr_y"]);
}

}  // namespace
