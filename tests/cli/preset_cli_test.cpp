// The CLI's --aom_ctc / --nflx_ctc: expanded where they stand among --feature and --model, unknown
// versions refused as command-line misuse.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

class PresetCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("vqtwin_preset_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Two frames of 8-bit 4:2:0, 176x176 (float_ms_ssim's smallest size), a gradient plus `shift` noise.
  std::string y4m(const std::string& name, int shift) {
    const int w = 176, h = 176;
    std::string data = "YUV4MPEG2 W176 H176 F25:1 Ip A1:1 C420jpeg\n";
    for (int f = 0; f < 2; ++f) {
      data += "FRAME\n";
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) data.push_back(char((x + 2 * y + 9 * f + shift * ((x * y) % 5)) & 255));
      for (int i = 0; i < w * h / 2; ++i) data.push_back(char(100 + (i % 40) + shift * (i % 3)));
    }
    std::ofstream(path(name), std::ios::binary) << data;
    return path(name);
  }

  int run(const std::string& args, std::string* err = nullptr) {
    const std::string cmd = std::string(VQTWIN_CLI) + " -q " + args + " 2>" + path("err.txt");
    const int raw = std::system(cmd.c_str());
    if (err) {
      std::ifstream in(path("err.txt"));
      err->assign(std::istreambuf_iterator<char>(in), {});
    }
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  }

  std::vector<std::string> names(const std::string& args) {
    EXPECT_EQ(run(args + " --json -o " + path("o.json")), 0) << args;
    std::ifstream in(path("o.json"));
    const auto j = nlohmann::ordered_json::parse(in);
    std::vector<std::string> out;
    for (auto it = j["frames"][0]["metrics"].begin(); it != j["frames"][0]["metrics"].end(); ++it) out.push_back(it.key());
    return out;
  }

  fs::path dir_;
};

TEST_F(PresetCli, UnknownVersionsAreUsageErrors) {
  const std::string in = " -r " + y4m("r.y4m", 0) + " -d " + y4m("d.y4m", 1);
  for (const char* bad : {"--aom_ctc v8.0", "--aom_ctc proposed", "--nflx_ctc v2.0", "--aom_ctc"}) {
    std::string err;
    EXPECT_EQ(run(std::string(bad) + in, &err), 2) << bad;
    EXPECT_NE(err.find("vqtwin: error:"), std::string::npos) << err;
  }
}

TEST_F(PresetCli, ExpandedWhereItStands) {
  const std::string in = " -r " + y4m("r.y4m", 0) + " -d " + y4m("d.y4m", 1) + " --no_prediction";
  const auto before = names("--feature float_moment --aom_ctc v1.0" + in);
  const auto after = names("--aom_ctc v1.0 --feature float_moment" + in);
  auto pos = [](const std::vector<std::string>& v, const std::string& n) {
    return std::find(v.begin(), v.end(), n) - v.begin();
  };
  // libvmaf's order: psnr (run ahead of the others), the models' features, then --feature's in order.
  EXPECT_EQ(before.front(), "psnr_y");
  EXPECT_LT(pos(before, "integer_vif_scale3_egl_1"), pos(before, "float_moment_ref1st"));
  EXPECT_LT(pos(before, "float_moment_ref1st"), pos(before, "ciede2000"));
  EXPECT_LT(pos(after, "psnr_hvs"), pos(after, "float_moment_ref1st"));
  EXPECT_EQ(before.size(), after.size());
  // The models' scores are not written with --no_prediction; without it they are vmaf and vmaf_neg.
  EXPECT_EQ(pos(before, "vmaf"), std::ptrdiff_t(before.size()));
  const auto scored = names("--aom_ctc v2.0 -r " + path("r.y4m") + " -d " + path("d.y4m"));
  EXPECT_EQ(std::vector<std::string>(scored.end() - 2, scored.end()), (std::vector<std::string>{"vmaf", "vmaf_neg"}));
}

}  // namespace
