// Hardening of models, messages and output (issue 12): model files that never end or amplify,
// writes that fail, names that would break JSON/XML, untrusted bytes echoed in messages. Each test
// failed before its fix; the outcome is an exit status and one clear line.
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace vqtwin::cli_test {
namespace {

using nlohmann::json;

class Hardened : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    in_ = y4m("a.y4m", 64, 48, 2);
  }
  std::string pair() const { return "-r " + in_ + " -d " + in_ + " "; }
  std::string in_;
};

// Every control byte except the final newlines, for "no terminal escapes reach the terminal".
bool has_control_bytes(const std::string& s) {
  for (unsigned char c : s)
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
  return false;
}

TEST_F(Hardened, ModelInputIsBounded) {
  // Each of these used to be read without end (or into gigabytes); `timeout` turns a hang into 124.
  launcher_ = "timeout 10 ";
  Outcome o = sh(pair() + "--model path=/dev/zero", "");
  expect_one_error(o, "model '/dev/zero': is not a regular file");
  const std::string fifo = path("model.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  o = sh(pair() + "--model path=" + fifo);  // no writer: opening it must not block either
  expect_one_error(o, "is not a regular file");
  EXPECT_LT(o.seconds, 20);
  const std::string huge = write("huge.json", "{");
  fs::resize_file(huge, std::uintmax_t(1) << 31);  // 2 GiB, sparse
  o = sh(pair() + "--model path=" + huge, "export VQTWIN_REPORT_PEAK_MEMORY=1");
  expect_one_error(o, "is 2147483648 bytes (a model is at most 16777216)");
  EXPECT_LT(peak_mib(o.err), 200) << o.err;
}

// A model's JSON with `names` feature names and an SVM of `svs` one-feature support vectors.
std::string model_with(const std::vector<std::string>& names, int svs) {
  json md;
  md["model_type"] = "LIBSVMNUSVR";
  md["norm_type"] = "none";
  md["feature_names"] = names;
  std::string svm = "svm_type nu_svr\nkernel_type rbf\ngamma 0.04\nnr_class 2\ntotal_sv " + std::to_string(svs) +
                    "\nrho -1\nSV\n";
  for (int i = 0; i < svs; ++i) svm += "1 1:0.5\n";
  md["model"] = svm;
  return json{{"model_dict", md}}.dump();
}

TEST_F(Hardened, ModelAmplificationIsRefusedCheaply) {
  // 100000 made-up names and 1000 support vectors: 820 MB and 8 s before being refused, before.
  std::vector<std::string> names;
  for (int i = 0; i < 100000; ++i) names.push_back("VMAF_feature_x" + std::to_string(i) + "_score");
  const std::string m = write("wide.json", model_with(names, 1000));
  Outcome o = sh(pair() + "--model path=" + m, "export VQTWIN_REPORT_PEAK_MEMORY=1");
  expect_one_error(o, "feature_names has 100000 entries (at most 256)");
  EXPECT_LT(peak_mib(o.err), 300) << o.err;
  // Real names, but 256 of them x 20000 support vectors: over the dense table's bound.
  names.assign(256, "VMAF_integer_feature_adm2_score");
  const std::string tall = write("tall.json", model_with(names, 20000));
  o = sh(pair() + "--model path=" + tall, "export VQTWIN_REPORT_PEAK_MEMORY=1");
  expect_one_error(o, "total_sv 20000 x 256 features is over 4194304 values");
  EXPECT_LT(peak_mib(o.err), 300) << o.err;
  // Unknown names are refused before the SVM is read (the SVM text here is broken too).
  names.assign(1, "VMAF_feature_bogus_score");
  std::string bogus = model_with(names, 1);
  bogus.replace(bogus.find("svm_type"), 8, "svm_tipe");
  expect_one_error(sh(pair() + "--model path=" + write("bogus.json", bogus)), "unknown feature 'VMAF_feature_bogus_score'");
  // Nesting deeper than any model: refused while parsing.
  expect_one_error(sh(pair() + "--model path=" + write("deep.json", std::string(100000, '[') + std::string(100000, ']'))),
                   "nested deeper than 32 levels");
}

TEST_F(Hardened, WritesToStandardOutputAreChecked) {
  const std::string feat = "--feature psnr --no_prediction ";
  expect_one_error(sh(pair() + feat + "--json -o -", "", "/dev/full"), "standard output: write failed (No space left on device)");
  expect_one_error(sh(pair() + feat, "", "/dev/full"), "standard output: write failed (No space left on device)");
  expect_one_error(sh(pair() + feat + "--xml -o -", "", "&-"), "standard output: write failed (Bad file descriptor)");
  expect_one_error(sh("--list", "", "/dev/full"), "standard output: write failed (No space left on device)");
  expect_one_error(sh(pair() + feat + "-o /dev/full"), "/dev/full: write failed (No space left on device)");
}

TEST_F(Hardened, OutputNamesCannotBreakJsonOrXml) {
  // A name with JSON and XML syntax in it is refused (every writer takes the names as they are).
  expect_one_error(sh(pair() + "--model 'version=vmaf_v0.6.1:name=a\"b<c' --json -o " + path("o.json")),
                   "name 'a\"b<c' must be 1 to 64 letters");
  // Accepted names give valid JSON and XML.
  ASSERT_EQ(sh(pair() + "--model version=vmaf_v0.6.1:name=v-1.x_2 --json -o " + path("o.json")).status, 0);
  EXPECT_TRUE(json::parse(slurp(path("o.json")))["pooled_metrics"].contains("v-1.x_2"));
}

TEST_F(Hardened, UntrustedBytesAreQuotedAndBounded) {
  // A 3000-character colour tag.
  const std::string long_tag = write("tag.y4m", "YUV4MPEG2 W64 H48 C" + std::string(3000, 'x') + "\nFRAME\n");
  Outcome o = sh("-r " + long_tag + " -d " + in_ + " --feature psnr -n");
  expect_one_error(o, "unsupported y4m colour space Cxxxx");
  EXPECT_LT(o.err.size(), 400u) << o.err.size();
  EXPECT_NE(o.err.find("(3000 bytes)"), std::string::npos) << o.err;
  // A terminal escape sequence and non-UTF-8 bytes in a header tag.
  const std::string esc = write("esc.y4m", "YUV4MPEG2 W64 H48 Z\x1b]0;owned\x07\xff\xfe\nFRAME\n");
  o = sh("-r " + esc + " -d " + in_ + " --feature psnr -n");
  expect_one_error(o, "unknown y4m header tag 'Z\\x1b]0;owned\\x07\\xff\\xfe'");
  EXPECT_FALSE(has_control_bytes(o.err));
  // A 100 KB option key.
  o = sh(pair() + "--feature psnr=" + std::string(100000, 'k') + "=1 -n");
  expect_one_error(o, "psnr: unknown option 'kkkk");
  EXPECT_LT(o.err.size(), 600u) << o.err.size();
  // Control bytes in a model file's feature name.
  const std::string m = write("esc.json", model_with({"VMAF_\x1b[2J\x1b[31m_score"}, 1));
  o = sh(pair() + "--model path=" + m);
  expect_one_error(o, "unknown feature 'VMAF_\\x1b[2J\\x1b[31m_score'");
  EXPECT_FALSE(has_control_bytes(o.err));
  // A control byte in a path.
  o = sh("-r \"$(printf 'no\\033[1mfile')\" -d " + in_ + " --feature psnr -n");
  expect_one_error(o, "no\\x1b[1mfile: cannot open");
  EXPECT_FALSE(has_control_bytes(o.err));
}

TEST_F(Hardened, DuplicateFeaturesAndModels) {
  // The same feature twice is computed once.
  ASSERT_EQ(sh(pair() + "--feature psnr --feature psnr -n --json -o " + path("o.json")).status, 0);
  EXPECT_EQ(json::parse(slurp(path("o.json")))["frames"][0]["metrics"].size(), 3u);
  // Two models with the same output name: an error before any work.
  expect_one_error(sh(pair() + "--model version=vmaf_v0.6.1 --model version=vmaf_v0.6.1"), "two models write the score 'vmaf'");
}

}  // namespace
}  // namespace vqtwin::cli_test
