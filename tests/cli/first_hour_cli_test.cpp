// A user's first hour with the CLI, on generated y4m clips: VMAF beside --feature (as the vmaf CLI),
// the summary's headline, help and parse errors in vqtwin's words, output to stdout, the output file
// opened first, --threads, --cpumask, size/bit-depth mismatches and their options, the length and
// time-shift warnings, --sync auto, --list-models and progress.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status = -1;
  std::string out, err;
};

// A moving texture (hashed noise, translated 5 px a frame), so neighbouring frames differ clearly.
std::uint8_t texture(int x, int y) {
  std::uint32_t h = std::uint32_t(x * 73856093u) ^ std::uint32_t(y * 19349663u);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  return std::uint8_t(h >> 24);
}

class FirstHour : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("vqtwin_first_hour_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Frames first..first+count-1 of the moving clip, 8-bit (or `bits` with the samples shifted up),
  // 4:2:0; `noise` perturbs the samples (a "distorted" copy).
  std::string clip(const std::string& name, int w, int h, int first, int count, int noise = 0, int bits = 8) {
    std::string data = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 Ip A1:1 " +
                       (bits == 8 ? "C420jpeg" : "C420p" + std::to_string(bits)) + "\n";
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    auto put = [&](int v) {
      if (bits == 8) {
        data.push_back(char(v));
      } else {
        const int s = v << (bits - 8);
        data.push_back(char(s & 255));
        data.push_back(char(s >> 8));
      }
    };
    for (int f = first; f < first + count; ++f) {
      data += "FRAME\n";
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          int v = texture(x + 5 * f, y);
          if (noise) v = std::clamp(v + ((x * 7 + y * 3 + f) % 5 - 2) * noise, 0, 255);
          put(v);
        }
      for (int i = 0; i < 2 * cw * ch; ++i) put(128);
    }
    std::ofstream(path(name), std::ios::binary) << data;
    return path(name);
  }

  Outcome run(const std::string& args, const std::string& prefix = "") {
    Outcome o;
    const std::string cmd = prefix + std::string(VQTWIN_CLI) + " " + args + " >" + path("stdout.txt") + " 2>" +
                            path("stderr.txt");
    const int raw = std::system(cmd.c_str());
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    o.out = read(path("stdout.txt"));
    o.err = read(path("stderr.txt"));
    return o;
  }

  static std::string read(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }

  static int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

  // The metrics of every frame (no fps, no input notes): what must match between equivalent runs.
  static std::string frames_of(const std::string& json_text) {
    const auto j = nlohmann::json::parse(json_text);
    return j["frames"].dump() + j["pooled_metrics"].dump();
  }

  fs::path dir_;
};

TEST_F(FirstHour, VmafIsAddedBesideAFeatureAsTheVmafCliDoes) {
  const auto r = clip("r.y4m", 64, 48, 0, 3), d = clip("d.y4m", 64, 48, 0, 3, 6);
  Outcome o = run("-q -r " + r + " -d " + d + " --feature psnr --json");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_TRUE(j["pooled_metrics"].contains("vmaf"));
  EXPECT_TRUE(j["pooled_metrics"].contains("psnr_y"));
  // --no_prediction: features only.
  o = run("-q -r " + r + " -d " + d + " --feature psnr --no_prediction --json");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_FALSE(nlohmann::json::parse(o.out)["pooled_metrics"].contains("vmaf"));
  // The summary leads with the headline, then the score.
  o = run("-q -r " + r + " -d " + d + " --feature psnr");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out.rfind("VMAF ", 0), 0u) << o.out;
  EXPECT_NE(o.out.find(" dB \xc2\xb7 "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\nvmaf: "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\npsnr_y: "), std::string::npos) << o.out;
}

TEST_F(FirstHour, HelpEndsWithExamples) {
  const Outcome o = run("--help");
  ASSERT_EQ(o.status, 0);
  const std::size_t examples = o.out.find("Examples:");
  ASSERT_NE(examples, std::string::npos) << o.out;
  EXPECT_NE(o.out.find("-r master.mkv -d encode.mp4", examples), std::string::npos);
  EXPECT_NE(o.out.find("--scale auto", examples), std::string::npos);
  EXPECT_NE(o.out.find("-h is --height, as in the vmaf CLI; help is --help."), std::string::npos);
}

TEST_F(FirstHour, ParseErrorsAreInVqtwinsWords) {
  auto expect = [&](const std::string& args, const std::string& line) {
    const Outcome o = run(args);
    EXPECT_EQ(o.status, 2) << args;
    EXPECT_EQ(o.err, "vqtwin: error: " + line + "\n") << args;
  };
  expect("-h", "-h is --height (the height of raw .yuv input, as in the vmaf CLI) and needs a number; for help use --help");
  expect("-r a -d b --threads lots", "--threads must be a whole number from 0 to 1024, not 'lots'");
  expect("-r a -d b --frame_cnt -3", "--frame_cnt must be a whole number from 0 to 2147483648, not '-3'");
  expect("-r a -d b --bogus", "unknown option or argument: --bogus (see --help)");
  expect("-r a -d b --subsample", "--subsample needs a value (see --help)");
  expect("-r a -d b --cpumask x", "--cpumask must be a bit mask (e.g. 8, 0x18, -1), not 'x'");
  expect("-r a -d b --json --csv", "give at most one of --xml, --json, --csv, --sub");
}

TEST_F(FirstHour, OutputFileIsOpenedBeforeComputing) {
  // The reference is cut short: were the output opened after the run, the error would be the input's.
  const auto r = clip("r.y4m", 64, 48, 0, 3), d = clip("d.y4m", 64, 48, 0, 3, 4);
  fs::resize_file(r, fs::file_size(r) - 100);
  const Outcome o = run("-q -r " + r + " -d " + d + " -o " + path("no/such/dir/out.json"));
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.err.rfind("vqtwin: error: " + path("no/such/dir/out.json") + ": cannot write", 0), 0u) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
}

TEST_F(FirstHour, FormatFlagsWithoutOutputWriteToStdout) {
  const auto r = clip("r.y4m", 64, 48, 0, 2), d = clip("d.y4m", 64, 48, 0, 2, 4);
  Outcome o = run("-q -r " + r + " -d " + d + " -n --feature psnr --json");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["frames"].size(), 2u);
  o = run("-q -r " + r + " -d " + d + " -n --feature psnr --csv");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out.rfind("Frame,psnr_y,psnr_cb,psnr_cr,\n0,", 0), 0u) << o.out;
  o = run("-q -r " + r + " -d " + d + " -n --feature psnr --xml");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out.rfind("<VMAF version=", 0), 0u) << o.out;
}

TEST_F(FirstHour, ThreadsDefaultToTheCoresAndNeverChangeResults) {
  const auto r = clip("r.y4m", 96, 64, 0, 7), d = clip("d.y4m", 96, 64, 0, 7, 5);
  const std::string base = "-q -r " + r + " -d " + d + " --feature psnr --feature float_ssim --json --precision max";
  const Outcome one = run(base + " --threads 1");
  ASSERT_EQ(one.status, 0) << one.err;
  for (const std::string t : {"", " --threads 0", " --threads 3"}) {
    const Outcome o = run(base + t);
    ASSERT_EQ(o.status, 0) << t << o.err;
    EXPECT_EQ(frames_of(o.out), frames_of(one.out)) << t;
  }
}

TEST_F(FirstHour, CpumaskIsAccepted) {
  const auto r = clip("r.y4m", 64, 48, 0, 2), d = clip("d.y4m", 64, 48, 0, 2, 4);
  const Outcome plain = run("-q -r " + r + " -d " + d + " --json --precision max");
  ASSERT_EQ(plain.status, 0) << plain.err;
  for (const std::string mask : {"255", "0x10", "0"}) {
    const Outcome o = run("-q -r " + r + " -d " + d + " --json --precision max --cpumask " + mask);
    ASSERT_EQ(o.status, 0) << mask << ": " << o.err;
    EXPECT_EQ(frames_of(o.out), frames_of(plain.out)) << mask;
  }
}

TEST_F(FirstHour, MismatchedInputsNameTheOptionThatFixesThem) {
  const auto r = clip("r.y4m", 64, 48, 0, 2), small = clip("s.y4m", 48, 32, 0, 2), deep = clip("t.y4m", 64, 48, 0, 2, 0, 10);
  Outcome o = run("-q -r " + r + " -d " + small);
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("differ in size; --scale auto scales the distorted to the reference size"), std::string::npos) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  o = run("-q -r " + r + " -d " + deep);
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("differ in bit depth; --common_bitdepth converts the lower to the higher"), std::string::npos) << o.err;
  o = run("-q -r " + r + " -d " + r + " --scale 10y10");
  EXPECT_NE(o.err.find("--scale must be auto, none or WxH"), std::string::npos) << o.err;
}

TEST_F(FirstHour, CommonBitdepthShiftsTheLowerInputUp) {
  // ref8 shifted up is exactly ref10 (the clip writes v << 2), so both runs see the same samples.
  const auto ref8 = clip("r8.y4m", 64, 48, 0, 3), ref10 = clip("r10.y4m", 64, 48, 0, 3, 0, 10);
  const auto dist10 = clip("d10.y4m", 64, 48, 0, 3, 6, 10);
  const Outcome same = run("-q -r " + ref10 + " -d " + dist10 + " --feature psnr --json --precision max");
  ASSERT_EQ(same.status, 0) << same.err;
  const Outcome conv = run("-q -r " + ref8 + " -d " + dist10 + " --feature psnr --json --precision max --common_bitdepth");
  ASSERT_EQ(conv.status, 0) << conv.err;
  EXPECT_EQ(frames_of(conv.out), frames_of(same.out));
  EXPECT_EQ(conv.err, "vqtwin: converted the inputs: reference 8-bit to 10-bit (samples shifted left by 2)\n");
  EXPECT_EQ(nlohmann::json::parse(conv.out)["input"]["bitdepth"], "reference 8-bit to 10-bit (samples shifted left by 2)");
  // Without a conversion the JSON has no "input" (libvmaf's schema).
  EXPECT_FALSE(nlohmann::json::parse(same.out).contains("input"));
}

TEST_F(FirstHour, InputsOfDifferentLengthsAreSaid) {
  const auto r = clip("r.y4m", 64, 48, 0, 6), d = clip("d.y4m", 64, 48, 0, 4, 4);
  Outcome o = run("-q -r " + r + " -d " + d + " -n --feature psnr --json -o " + path("o.json"));
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.err, "vqtwin: warning: " + d + " ended after 4 frames, " + r +
                       " has 6; scored 4; --strict_length makes this an error\n");
  // The other way round, and from a pipe (the length counted by reading on).
  o = run("-q -r - -d " + r + " -n --feature psnr -o " + path("o.json") + " < " + d);
  EXPECT_EQ(o.err, "vqtwin: warning: standard input ended after 4 frames, " + r + " has 6; scored 4; --strict_length makes this an error\n");
  o = run("-q -r " + r + " -d - -n --feature psnr -o " + path("o.json") + " < " + d);
  EXPECT_EQ(o.err, "vqtwin: warning: standard input ended after 4 frames, " + r + " has 6; scored 4; --strict_length makes this an error\n");
  o = run("-q -r " + d + " -d - -n --feature psnr -o " + path("o.json") + " < " + r);
  EXPECT_EQ(o.err, "vqtwin: warning: " + d + " ended after 4 frames, standard input has 6; scored 4; --strict_length makes this an error\n");
  // --strict_length: an error, and the frames scored are still written.
  o = run("-q -r " + r + " -d " + d + " -n --feature psnr --strict_length --json -o " + path("s.json"));
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.err, "vqtwin: error: " + d + " ended after 4 frames, " + r + " has 6; scored 4 (--strict_length)\n");
  EXPECT_EQ(nlohmann::json::parse(read(path("s.json")))["frames"].size(), 4u);
  // Equal lengths, and --frame_cnt: nothing to say.
  EXPECT_EQ(run("-q -r " + r + " -d " + r + " -n --feature psnr -o " + path("o.json")).err, "");
  EXPECT_EQ(run("-q -r " + r + " -d " + d + " -n --feature psnr --frame_cnt 3 -o " + path("o.json")).err, "");
}

TEST_F(FirstHour, ShiftedDistortedIsNoticedAndSyncAutoFixesIt) {
  const auto r = clip("r.y4m", 96, 64, 0, 12);
  const auto late = clip("late.y4m", 96, 64, 1, 11, 4);   // lost the first frame
  const auto early = clip("early.y4m", 96, 64, -2, 14, 4);  // two frames too many at the start
  const auto aligned = clip("aligned.y4m", 96, 64, 0, 12, 4);
  const std::string feat = " -n --feature psnr --json --precision max";
  Outcome o = run("-q -r " + r + " -d " + late + feat);
  EXPECT_NE(o.err.find("vqtwin: warning: " + late + " lacks the first 1 frame of " + r), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("--frame_skip_ref 1 aligns them, --sync auto applies it"), std::string::npos) << o.err;
  o = run("-q -r " + r + " -d " + early + feat);
  EXPECT_NE(o.err.find(early + " has 2 frames more at its start than " + r), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("--frame_skip_dist 2 aligns them"), std::string::npos) << o.err;
  // The fix accounts for skips already given.
  o = run("-q -r " + r + " -d " + early + feat + " --frame_skip_dist 1");
  EXPECT_NE(o.err.find("--frame_skip_dist 2 aligns them"), std::string::npos) << o.err;
  // Aligned (also with a skip that aligns): silent.
  EXPECT_EQ(run("-q -r " + r + " -d " + aligned + feat).err, "");
  EXPECT_EQ(run("-q -r " + r + " -d " + early + feat + " --frame_skip_dist 2").err.find("aligns them"), std::string::npos);
  // --sync none: no check.
  EXPECT_EQ(run("-q -r " + r + " -d " + late + feat + " --sync none --frame_cnt 11").err, "");

  // --sync auto gives the scores of the right skip, and records the offset.
  const Outcome fixed = run("-q -r " + r + " -d " + late + feat + " --frame_skip_ref 1");
  const Outcome synced = run("-q -r " + r + " -d " + late + feat + " --sync auto");
  ASSERT_EQ(synced.status, 0) << synced.err;
  EXPECT_EQ(frames_of(synced.out), frames_of(fixed.out));
  const auto j = nlohmann::json::parse(synced.out);
  EXPECT_EQ(j["input"]["sync_offset"], -1);
  EXPECT_EQ(synced.err, "vqtwin: --sync auto: the distorted lacks the reference's first 1 frame: skipped (as "
                        "--frame_skip_ref 1)\n");
  const Outcome synced_early = run("-q -r " + r + " -d " + early + feat + " --sync auto");
  EXPECT_EQ(nlohmann::json::parse(synced_early.out)["input"]["sync_offset"], 2);
  EXPECT_EQ(frames_of(synced_early.out), frames_of(run("-q -r " + r + " -d " + early + feat + " --frame_skip_dist 2").out));
  const Outcome synced_aligned = run("-q -r " + r + " -d " + aligned + feat + " --sync auto");
  EXPECT_EQ(nlohmann::json::parse(synced_aligned.out)["input"]["sync_offset"], 0);
  EXPECT_EQ(frames_of(synced_aligned.out), frames_of(run("-q -r " + r + " -d " + aligned + feat).out));
}

TEST_F(FirstHour, ListModelsSaysWhereEachComesFromAndWhatItNeeds) {
  fs::create_directories(path("models"));
  fs::copy_file(std::string(VQTWIN_SHARED_DIR) + "/models/vmaf_v0.6.1neg.json", path("models/mine.json"));
  fs::copy_file(std::string(VQTWIN_SHARED_DIR) + "/models/vmaf_v0.6.1.json", path("models/vmaf_v0.6.1.json"));
  const Outcome o = run("--list-models", "VQTWIN_MODEL_PATH=" + path("models") + " ");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("Built-in models"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\n  vmaf_v0.6.1                  adm, motion, vif\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("  " + path("models") + ": 2 file(s)\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("    mine                       adm(adm_enhn_gain_limit=1), motion, vif(vif_enhn_gain_limit=1)\n"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("    vmaf_v0.6.1                (hidden: version=vmaf_v0.6.1 finds the one listed before)"),
            std::string::npos)
      << o.out;
}

TEST_F(FirstHour, ProgressShowsTotalPercentageAndEta) {
  if (std::system("command -v script >/dev/null") != 0) GTEST_SKIP() << "no script(1) to give vqtwin a terminal";
  const auto r = clip("r.y4m", 64, 48, 0, 5), d = clip("d.y4m", 64, 48, 0, 5, 4);
  // script(1) runs vqtwin on a terminal; its transcript holds what vqtwin wrote to stderr.
  const std::string cmd = std::string(VQTWIN_CLI) + " -r " + r + " -d " + d + " -n --feature psnr -o " + path("o.json");
  ASSERT_EQ(std::system(("script -qec '" + cmd + "' " + path("tty.txt") + " >/dev/null").c_str()), 0);
  const std::string tty = read(path("tty.txt"));
  EXPECT_NE(tty.find("5/5 frames (100%)"), std::string::npos) << tty;
  EXPECT_NE(tty.find("ETA 0:00"), std::string::npos) << tty;
}

}  // namespace
