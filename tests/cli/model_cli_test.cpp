// --model on the command line: bad model files and unknown versions are one error line and exit 1.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

class ModelCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("vqtwin_model_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    // A tiny 2-frame y4m pair: the model is refused before any frame matters.
    std::string data = "YUV4MPEG2 W64 H64 F25:1 Ip A1:1 C420jpeg\n";
    for (int f = 0; f < 2; ++f) {
      data += "FRAME\n";
      data.append(64 * 64, char(16 + f));
      data.append(2 * 32 * 32, char(128));
    }
    std::ofstream(path("a.y4m"), std::ios::binary) << data;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  int run(const std::string& env_and_args, std::string& err) {
    const std::string err_file = path("stderr.txt");
    const std::string cmd = env_and_args.substr(0, env_and_args.find('|')) + " " + std::string(VQTWIN_CLI) +
                            " -q -r " + path("a.y4m") + " -d " + path("a.y4m") + " " +
                            env_and_args.substr(env_and_args.find('|') + 1) + " 2>" + err_file;
    const int raw = std::system(cmd.c_str());
    std::ifstream in(err_file);
    err.assign(std::istreambuf_iterator<char>(in), {});
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  }

  fs::path dir_;
};

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST_F(ModelCli, BadModelFileIsOneErrorLine) {
  std::ofstream(path("bad.json")) << "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\"";
  std::string err;
  EXPECT_EQ(run("|--model path=" + path("bad.json"), err), 1);
  EXPECT_NE(err.find("model '" + path("bad.json") + "': not valid JSON"), std::string::npos) << err;
  EXPECT_EQ(lines(err), 1) << err;
}

TEST_F(ModelCli, UnknownVersionNamesTheSearchPath) {
  std::string err;
  EXPECT_EQ(run("VQTWIN_MODEL_PATH=" + path("none") + "|--model version=vmaf_v9.9", err), 1);
  EXPECT_NE(err.find("no vmaf_v9.9.json in the model search path (" + path("none")), std::string::npos) << err;
  EXPECT_EQ(lines(err), 1) << err;
}

TEST_F(ModelCli, BuiltInModelsNeedNoFile) {
  // libvmaf's models are compiled in: found with an empty search path and no HOME.
  std::string err;
  EXPECT_EQ(run("VQTWIN_MODEL_PATH=" + path("none") + " HOME=" + path("none") + "|--model version=vmaf_v0.6.1", err), 0)
      << err;
  EXPECT_EQ(run("VQTWIN_MODEL_PATH=" + path("none") + "|--model version=vmaf_4k_v0.6.1", err), 0) << err;
}

TEST_F(ModelCli, BadModelOption) {
  std::string err;
  EXPECT_EQ(run("|--model version=vmaf_v0.6.1:colour=blue", err), 1);
  EXPECT_NE(err.find("unknown key 'colour'"), std::string::npos) << err;
}

}  // namespace
