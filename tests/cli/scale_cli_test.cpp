// Scale-out on the command line, each against an independent reference (the same pairs scored by
// separate `vqtwin -r R -d D` runs): a ladder (several -d) written to a pattern or one combined JSON,
// with renditions of other sizes, a reference read from a pipe (possible only if it is read once) and
// failing renditions; `vqtwin batch` (rows equal their separate runs, resumable after a deleted output,
// a changed row and a kill, a failing row reported and the others kept); shards chosen from Slurm's
// variables and merged into exactly the summary of one whole run; --gpu lists.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status = -1;
  std::string out, err;
};

std::uint8_t texture(int x, int y) {
  std::uint32_t h = std::uint32_t(x * 73856093u) ^ std::uint32_t(y * 19349663u);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  return std::uint8_t(h >> 24);
}

class Scale : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("vqtwin_scale_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // A moving texture, `count` frames, 8-bit 4:2:0; `noise` makes a distorted copy.
  std::string clip(const std::string& name, int w, int h, int count, int noise = 0) {
    std::string data = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 C420jpeg\n";
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    for (int f = 0; f < count; ++f) {
      data += "FRAME\n";
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          int v = texture((x + 3 * f) * 96 / w, y * 54 / h);
          if (noise) v = std::clamp(v + ((x * 7 + y * 3 + f) % 5 - 2) * noise, 0, 255);
          data.push_back(char(v));
        }
      for (int i = 0; i < 2 * cw * ch; ++i) data.push_back(char(128 + (i + f) % 7));
    }
    fs::create_directories(fs::path(path(name)).parent_path());
    std::ofstream(path(name), std::ios::binary) << data;
    return path(name);
  }

  Outcome run(const std::string& args, const std::string& env = "") {
    Outcome o;
    const std::string cmd = "cd " + dir_.string() + " && " + env + " " + std::string(VQTWIN_CLI) + " " + args + " >" +
                            path("stdout.txt") + " 2>" + path("stderr.txt");
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

  // An output without the lines that say how fast it ran (JSON "fps", XML <fyi fps>).
  static std::string without_fps(const std::string& text) {
    static const std::regex fps(R"(\n[^\n]*fps[^\n]*)");
    return std::regex_replace(text, fps, "");
  }

  static std::string count_of(const std::string& err, const std::string& what) {
    const std::regex re("(\\d+) " + what);
    std::smatch m;
    return std::regex_search(err, m, re) ? m[1].str() : "?";
  }

  fs::path dir_;
};

TEST_F(Scale, LadderFilesAreThoseOfSeparateRuns) {
  const auto r = clip("ref.y4m", 96, 54, 6);
  const std::vector<std::string> d = {clip("a.y4m", 96, 54, 6, 3), clip("b.y4m", 96, 54, 6, 9),
                                      clip("c_small.y4m", 64, 36, 6, 2)};
  for (const std::string format : {"json", "xml", "csv"}) {
    const std::string common = " --scale auto --feature psnr --precision max --" + format;
    Outcome o = run("-q -r ref.y4m -d a.y4m -d b.y4m -d c_small.y4m" + common + " -o 'lad_{dist_stem}." + format + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    for (const std::string name : {"a", "b", "c_small"}) {
      o = run("-q -r ref.y4m -d " + name + ".y4m" + common + " -o alone_" + name + "." + format);
      ASSERT_EQ(o.status, 0) << o.err;
      const std::string ladder = read(path("lad_" + name + "." + format)), alone = read(path("alone_" + name + "." + format));
      ASSERT_GT(alone.size(), 200u);
      EXPECT_EQ(without_fps(ladder), without_fps(alone)) << name << "." << format;
    }
  }
  // The summary: each rendition's means under its name.
  Outcome o = run("-q -r ref.y4m -d a.y4m -d b.y4m");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out.rfind("a.y4m:\n  vmaf: ", 0), 0u) << o.out;
  EXPECT_NE(o.out.find("\nb.y4m:\n  vmaf: "), std::string::npos) << o.out;
}

// --report with a ladder: one page holding every rendition that scored (each under its file name), beside
// the ladder's own outputs; the report may not be the output file.
TEST_F(Scale, LadderReportHoldsEveryRendition) {
  clip("ref.y4m", 96, 54, 5);
  clip("a.y4m", 96, 54, 5, 4);
  clip("b.y4m", 96, 54, 5, 8);
  Outcome o = run("-q -r ref.y4m -d a.y4m -d b.y4m -d missing.y4m --feature psnr --json -o 'lad_{dist_stem}.json' "
                  "--report lad.html");
  EXPECT_EQ(o.status, 1) << o.err;  // missing.y4m
  const std::string page = read(path("lad.html"));
  EXPECT_NE(page.find("\"label\":\"a.y4m\""), std::string::npos);
  EXPECT_NE(page.find("\"label\":\"b.y4m\""), std::string::npos);
  EXPECT_EQ(page.find("\"label\":\"missing.y4m\""), std::string::npos);
  EXPECT_TRUE(fs::exists(path("lad_a.json")));
  o = run("-q -r ref.y4m -d a.y4m --report one.html");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(read(path("one.html")).find("\"label\":\"a.y4m\""), std::string::npos);
  EXPECT_EQ(o.out.rfind("VMAF ", 0), 0u) << o.out;  // the single run's summary leads with the headline
  o = run("-q -r ref.y4m -d a.y4m -d b.y4m --json -o same.json --report same.json");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("--report and --output name the same file"), std::string::npos) << o.err;
}

TEST_F(Scale, LadderCombinedJsonHoldsEachRunsOutput) {
  clip("ref.y4m", 96, 54, 5);
  clip("a.y4m", 96, 54, 5, 4);
  clip("b.y4m", 96, 54, 5, 8);
  Outcome o = run("-q -r ref.y4m -d a.y4m -d b.y4m -d missing.y4m --json -o all.json --precision max");
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.err, "vqtwin: error: missing.y4m: cannot open (No such file or directory)\n");
  const auto all = nlohmann::json::parse(read(path("all.json")));
  ASSERT_EQ(all["renditions"].size(), 3u);
  for (int i = 0; i < 2; ++i) {
    const std::string name = i ? "b.y4m" : "a.y4m";
    ASSERT_EQ(run("-q -r ref.y4m -d " + name + " --json -o one.json --precision max").status, 0);
    auto alone = nlohmann::json::parse(read(path("one.json")));
    auto in_all = all["renditions"][i]["result"];
    EXPECT_EQ(all["renditions"][i]["distorted"], name);
    alone.erase("fps");
    in_all.erase("fps");
    EXPECT_EQ(in_all, alone) << name;
  }
  EXPECT_EQ(all["renditions"][2]["error"], "missing.y4m: cannot open (No such file or directory)");
  EXPECT_FALSE(all["renditions"][2].contains("result"));
}

// A reference on a pipe can be read once only: every rendition gets it from that one read.
TEST_F(Scale, LadderReadsAPipedReferenceOnce) {
  clip("ref.y4m", 96, 54, 6);
  clip("a.y4m", 96, 54, 6, 4);
  clip("b.y4m", 96, 54, 6, 8);
  Outcome o = run("-q -r - -d a.y4m -d b.y4m -d a.y4m --threads 3 --json --precision max -o 'p_{index}.json' < ref.y4m");
  ASSERT_EQ(o.status, 0) << o.err;
  for (const auto& [index, name] : {std::pair{1, "a"}, {2, "b"}, {3, "a"}}) {
    ASSERT_EQ(run(std::string("-q -r ref.y4m -d ") + name + ".y4m --json --precision max -o one.json").status, 0);
    EXPECT_EQ(without_fps(read(path("p_" + std::to_string(index) + ".json"))), without_fps(read(path("one.json"))));
  }
}

TEST_F(Scale, LadderMisuse) {
  clip("ref.y4m", 96, 54, 3);
  clip("a.y4m", 96, 54, 3, 4);
  clip("sub/a.y4m", 96, 54, 3, 5);
  Outcome o = run("-q -r ref.y4m -d a.y4m -d sub/a.y4m -o out.xml");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("give -o a pattern such as 'out/{dist_stem}.xml'"), std::string::npos) << o.err;
  o = run("-q -r ref.y4m -d a.y4m -d sub/a.y4m -o '{dist_stem}.xml'");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("to two distorted inputs; add {index}"), std::string::npos) << o.err;
  o = run("-q -r ref.y4m -d a.y4m -d sub/a.y4m -o '{stem}.xml'");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("unknown placeholder '{stem}'"), std::string::npos) << o.err;
  EXPECT_FALSE(fs::exists(path("a.xml")));
  o = run("-q -r ref.y4m -d a.y4m --gpu 0,x");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("--gpu must be a device index"), std::string::npos) << o.err;
  // A list is accepted on the CPU (it says where device work would go) and changes nothing.
  o = run("-q -r ref.y4m -d a.y4m -d sub/a.y4m --gpu 0,0 --json --precision max -o 'g_{index}.json'");
  ASSERT_EQ(o.status, 0) << o.err;
  ASSERT_EQ(run("-q -r ref.y4m -d sub/a.y4m --gpu all --json --precision max -o one.json").status, 0);
  EXPECT_EQ(without_fps(read(path("g_2.json"))), without_fps(read(path("one.json"))));
}

// The manifest of the batch tests: two references, rows with their own options, one output per row.
class Batch : public Scale {
 protected:
  void make_inputs(int frames = 5, int w = 96, int h = 54) {
    clip("src/r1.y4m", w, h, frames);
    clip("src/r2.y4m", w, h, frames, 1);
    clip("src/a.y4m", w, h, frames, 4);
    clip("src/b.y4m", w, h, frames, 9);
    clip("src/c_small.y4m", w * 2 / 3, h * 2 / 3, frames, 2);
  }
  std::string manifest(const std::string& name = "m.csv") {
    std::ofstream(path(name)) << "reference,distorted,output,model,options\n"
                                 "src/r1.y4m,src/a.y4m,out/r1_a.json,,--feature psnr\n"
                                 "src/r2.y4m,src/a.y4m,out/r2_a.xml,version=vmaf_v0.6.1neg,\n"
                                 "# a comment\n"
                                 "src/r1.y4m,src/b.y4m,out/r1_b.csv,,\"--feature 'float_ssim=enable_db=true' --subsample 2\"\n"
                                 "src/r1.y4m,src/c_small.y4m,out/r1_c.json,,--scale auto\n"
                                 "src/r2.y4m,src/b.y4m,,,-n --feature float_psnr\n";
    return name;
  }
  // Each row's output against `vqtwin ARGS` for the same row.
  void expect_rows_equal_separate_runs(const std::string& extra) {
    const std::vector<std::pair<std::string, std::string>> rows = {
        {"out/r1_a.json", "--feature psnr -r src/r1.y4m -d src/a.y4m --json"},
        {"out/r2_a.xml", "--model version=vmaf_v0.6.1neg -r src/r2.y4m -d src/a.y4m --xml"},
        {"out/r1_b.csv", "--feature float_ssim=enable_db=true --subsample 2 -r src/r1.y4m -d src/b.y4m --csv"},
        {"out/r1_c.json", "--scale auto -r src/r1.y4m -d src/c_small.y4m --json"},
        {"pattern/r2-b.json", "-n --feature float_psnr -r src/r2.y4m -d src/b.y4m --json"}};
    for (const auto& [output, args] : rows) {
      const Outcome o = run("-q " + extra + " " + args + " -o alone.out");
      ASSERT_EQ(o.status, 0) << args << ": " << o.err;
      EXPECT_EQ(without_fps(read(path(output))), without_fps(read(path("alone.out")))) << output;
    }
  }
};

TEST_F(Batch, RowsAreTheirSeparateRuns) {
  make_inputs();
  Outcome o = run("batch " + manifest() + " -o 'pattern/{ref_stem}-{dist_stem}.json' --precision max --threads 2");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(count_of(o.err, "scored"), "5") << o.err;
  expect_rows_equal_separate_runs("--precision max");
  // The summary: every row, in manifest order, with the pooled values the outputs hold.
  const auto s = nlohmann::json::parse(read(path("m.summary.json")));
  ASSERT_EQ(s["results"].size(), 5u);
  EXPECT_EQ(s["rows"], 5);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(s["results"][i]["row"], i + 1);
    EXPECT_EQ(s["results"][i]["status"], "ok");
  }
  const auto one = nlohmann::json::parse(read(path("out/r1_a.json")));
  EXPECT_EQ(s["results"][0]["pooled"]["vmaf"]["mean"].get<double>(), one["pooled_metrics"]["vmaf"]["mean"].get<double>());
  const auto ordered = nlohmann::ordered_json::parse(read(path("m.summary.json")));
  EXPECT_EQ(ordered["results"][0]["pooled"].begin().key(), "vmaf");  // the headline first
  // JSON Lines: the same rows, the same results.
  std::ofstream(path("m.jsonl"))
      << R"({"reference": "src/r1.y4m", "distorted": "src/a.y4m", "output": "j/r1_a.json", "options": ["--feature", "psnr"]})" "\n"
      << R"({"reference": "src/r2.y4m", "distorted": "src/a.y4m", "output": "j/r2_a.xml", "model": "version=vmaf_v0.6.1neg"})" "\n\n"
      << R"({"reference": "src/r1.y4m", "distorted": "src/b.y4m", "output": "j/r1_b.csv", "options": "--feature 'float_ssim=enable_db=true' --subsample 2"})" "\n"
      << R"({"reference": "src/r1.y4m", "distorted": "src/c_small.y4m", "output": "j/r1_c.json", "options": "--scale auto"})" "\n"
      << R"({"reference": "src/r2.y4m", "distorted": "src/b.y4m", "options": "-n --feature float_psnr"})" "\n";
  o = run("batch m.jsonl -q -o 'j/{ref_stem}-{dist_stem}.json' --precision max --jobs 1 --summary j.csv");
  ASSERT_EQ(o.status, 0) << o.err;
  for (const std::string f : {"r1_a.json", "r2_a.xml", "r1_b.csv", "r1_c.json", "r2-b.json"})
    EXPECT_EQ(without_fps(read(path("j/" + f))), without_fps(read(path((f == "r2-b.json" ? "pattern/" : "out/") + f)))) << f;
  const std::string csv = read(path("j.csv"));
  EXPECT_EQ(csv.substr(0, csv.find('\n')).rfind("row,status,reference,distorted,output,frames,error,vmaf,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\n1,ok,src/r1.y4m,src/a.y4m,j/r1_a.json,5,,"), std::string::npos) << csv;
}

TEST_F(Batch, ResumesOnlyWhatIsMissingOrChanged) {
  make_inputs();
  const std::string args = "batch " + manifest() + " -o 'pattern/{ref_stem}-{dist_stem}.json' --precision max";
  ASSERT_EQ(run(args).status, 0);
  const std::string first = read(path("m.summary.json"));
  Outcome o = run(args);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(count_of(o.err, "scored"), "0") << o.err;
  EXPECT_EQ(count_of(o.err, "done before"), "5") << o.err;
  EXPECT_EQ(read(path("m.summary.json")), first);
  // A deleted output: that row alone runs again; the summary is the same, byte for byte.
  fs::remove(path("out/r2_a.xml"));
  o = run(args);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(count_of(o.err, "scored"), "1") << o.err;
  EXPECT_NE(o.err.find("row 2 (src/a.y4m)"), std::string::npos) << o.err;
  EXPECT_EQ(read(path("m.summary.json")), first);
  // Other batch-wide flags change every row's arguments: all run again.
  o = run(args + " --pool mean");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(count_of(o.err, "scored"), "5") << o.err;
}

TEST_F(Batch, AFailingRowIsReportedAndTheOthersAreKept) {
  make_inputs();
  std::ofstream(path("bad.csv")) << "reference,distorted,output,options\n"
                                    "src/r1.y4m,src/a.y4m,o/1.json,\n"
                                    "src/r1.y4m,src/missing.y4m,o/2.json,\n"
                                    "src/r1.y4m,src/b.y4m,o/3.json,--feature nope\n"
                                    "src/r1.y4m,src/b.y4m,o/4.json,--threads 3\n"
                                    "src/r2.y4m,src/b.y4m,,\n"
                                    "src/r2.y4m,src/c_small.y4m,o/6.json,\n"
                                    "src/r2.y4m,src/b.y4m,o/7.json,\n";
  Outcome o = run("batch bad.csv");
  EXPECT_EQ(o.status, 1) << o.err;
  EXPECT_NE(o.err.find("vqtwin: error: row 2 (src/missing.y4m): src/missing.y4m: cannot open"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("vqtwin: error: row 3 (src/b.y4m): --feature: unknown feature 'nope'"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("vqtwin: error: row 4 (src/b.y4m): options: --threads is set by vqtwin batch"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("vqtwin: error: row 5 (src/b.y4m): no output"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("vqtwin: error: row 6 (src/c_small.y4m): reference 96x54 8-bit 4:2:0 and distorted 64x36"), std::string::npos) << o.err;
  EXPECT_EQ(count_of(o.err, "scored"), "2") << o.err;
  EXPECT_EQ(count_of(o.err, "failed"), "5") << o.err;
  EXPECT_TRUE(fs::exists(path("o/1.json")));
  EXPECT_TRUE(fs::exists(path("o/7.json")));
  for (const std::string f : {"o/2.json", "o/3.json", "o/4.json", "o/6.json"}) EXPECT_FALSE(fs::exists(path(f))) << f;
  const auto s = nlohmann::json::parse(read(path("bad.summary.json")));
  ASSERT_EQ(s["results"].size(), 7u);
  EXPECT_EQ(s["results"][1]["status"], "failed");
  EXPECT_EQ(s["results"][1]["error"], "src/missing.y4m: cannot open (No such file or directory)");
  EXPECT_EQ(s["results"][6]["status"], "ok");
  // A rerun runs the failed rows again (and only them).
  o = run("batch bad.csv");
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(count_of(o.err, "done before"), "2") << o.err;
}

TEST_F(Batch, ManifestErrorsStopBeforeAnyRow) {
  make_inputs(2);
  auto expect_usage = [&](const std::string& content, const std::string& args, const std::string& needle) {
    fs::remove(path("e.summary.json"));
    std::ofstream(path("e.csv")) << content;
    const Outcome o = run("batch e.csv " + args);
    EXPECT_EQ(o.status, 2) << content;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find(needle), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(path("e.summary.json")));
  };
  expect_usage("reference,distorted,outptu\nsrc/r1.y4m,src/a.y4m,x.json\n", "", "e.csv:1: unknown column 'outptu'");
  expect_usage("reference,distorted,output\nsrc/r1.y4m,src/a.y4m,x.json\nsrc/r2.y4m,src/b.y4m,./x.json\n", "",
               "rows 1 and 2 write the same output");
  expect_usage("reference,distorted,output\nsrc/r1.y4m,src/a.y4m,x.json,extra\n", "", "e.csv:2: 4 fields, the header has 3");
  expect_usage("reference,output\nsrc/r1.y4m,x.json\n", "", "no distorted column");
  expect_usage("reference,distorted,output\n\"src/r1.y4m,src/a.y4m,x.json\n", "", "a quoted field is not closed");
  expect_usage("reference,distorted,output\nsrc/r1.y4m,src/a.y4m,x.json\n", "--shard 3/3", "does not exist");
  expect_usage("reference,distorted,output\nsrc/r1.y4m,src/a.y4m,x.json\n", "--shard slurm", "SLURM_ARRAY_TASK_ID");
  expect_usage("reference,distorted,output\nsrc/r1.y4m,src/a.y4m,x.json\n", "--subsample x", "--subsample must be");
  expect_usage("reference,distorted,output\nsrc/r1.y4m,src/a.y4m,x.json\n", "-r src/r1.y4m", "-r is not a flag of vqtwin batch");
  expect_usage("reference,distorted\nsrc/r1.y4m,src/a.y4m\n", "-o '{bad}.json'", "unknown placeholder '{bad}'");
}

// Shards as a Slurm array's tasks choose them (from the environment), merged: exactly the summary of one
// run over the whole manifest; a reference's rows stay in one shard.
TEST_F(Batch, SlurmShardsMergeIntoTheWholeRunsSummary) {
  make_inputs();
  manifest();
  const std::string common = " -q -o 'pattern/{ref_stem}-{dist_stem}.json' --precision max";
  ASSERT_EQ(run("batch m.csv" + common + " --summary whole.json").status, 0);
  fs::rename(path("out"), path("out_whole"));
  fs::rename(path("pattern"), path("pattern_whole"));
  std::vector<std::string> summaries;
  std::set<std::string> refs_seen;
  for (int task = 1; task <= 3; ++task) {  // --array=1-3: SLURM_ARRAY_TASK_MIN=1
    const std::string env = "SLURM_ARRAY_TASK_ID=" + std::to_string(task) + " SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3";
    const Outcome o = run("batch m.csv --shard slurm" + common, env);
    ASSERT_EQ(o.status, 0) << o.err;
    const std::string s = "m.shard-" + std::to_string(task - 1) + "-of-3.summary.json";
    summaries.push_back(s);
    const auto j = nlohmann::json::parse(read(path(s)));
    EXPECT_EQ(j["shard"], std::to_string(task - 1) + "/3");
    std::set<std::string> refs;
    for (const auto& e : j["results"]) refs.insert(e["reference"].get<std::string>());
    for (const auto& ref : refs) EXPECT_TRUE(refs_seen.insert(ref).second) << ref << " is in two shards";
  }
  EXPECT_EQ(refs_seen.size(), 2u);
  Outcome o = run("batch-merge -o merged.json " + summaries[0] + " " + summaries[1] + " " + summaries[2]);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(read(path("merged.json")), read(path("whole.json")));
  for (const std::string f : {"out/r1_a.json", "out/r2_a.xml", "out/r1_b.csv", "out/r1_c.json"})
    EXPECT_EQ(without_fps(read(path(f))), without_fps(read(path("out_whole/" + f.substr(4))))) << f;
  // A shard missing: the rows it held are named, exit 1.
  o = run("batch-merge -o partial.json " + summaries[0] + " " + summaries[1]);
  const auto whole = nlohmann::json::parse(read(path("whole.json")));
  const auto s2 = nlohmann::json::parse(read(path(summaries[2])));
  if (!s2["results"].empty()) {
    EXPECT_EQ(o.status, 1);
    EXPECT_NE(o.err.find("rows missing from the summaries: "), std::string::npos) << o.err;
  }
  // A summary of another manifest does not merge.
  std::ofstream(path("m2.csv")) << "reference,distorted,output\nsrc/r1.y4m,src/a.y4m,x.json\n";
  ASSERT_EQ(run("batch m2.csv -q").status, 0);
  o = run("batch-merge " + summaries[0] + " m2.summary.json");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("a summary of another manifest"), std::string::npos) << o.err;
  // K/N by hand gives the same shards as the Slurm variables.
  o = run("batch m.csv --shard 1/3 --dry-run" + common);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("shard 1/3:"), std::string::npos) << o.out;
}

// A batch killed mid-run (as a Slurm task can be): whatever it left never looks complete, and the rerun
// scores only the rows not finished, ending with the summary of an uninterrupted run.
TEST_F(Batch, AKilledRunResumesWithTheMissingRowsOnly) {
  make_inputs(40, 320, 180);
  std::string rows = "reference,distorted,output\n";
  for (int i = 0; i < 10; ++i)
    rows += std::string(i % 2 ? "src/r1.y4m" : "src/r2.y4m") + "," + (i % 3 ? "src/a.y4m" : "src/b.y4m") + ",out/" +
            std::to_string(i) + ".json\n";
  std::ofstream(path("k.csv")) << rows;
  ASSERT_EQ(run("batch k.csv -q --jobs 1 --threads 1 --summary whole.json").status, 0);
  fs::rename(path("out"), path("out_whole"));

  const pid_t pid = ::fork();
  if (pid == 0) {
    ::chdir(dir_.c_str());
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 2);
    ::execl(VQTWIN_CLI, VQTWIN_CLI, "batch", "k.csv", "-q", "--jobs", "1", "--threads", "1", nullptr);
    ::_exit(127);
  }
  // Killed once a few rows are recorded.
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    int records = 0;
    if (fs::exists(path("out")))
      for (const auto& e : fs::directory_iterator(path("out"))) records += e.path().string().ends_with(".row.json");
    if (records >= 2 || std::chrono::steady_clock::now() - t0 > std::chrono::seconds(60)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  // Every output there is whole (a partial one has only a temporary name).
  int kept = 0;
  for (int i = 0; i < 10; ++i) {
    const std::string out = "out/" + std::to_string(i) + ".json";
    if (!fs::exists(path(out))) continue;
    ++kept;
    EXPECT_EQ(without_fps(read(path(out))), without_fps(read(path("out_whole/" + std::to_string(i) + ".json"))));
  }
  EXPECT_GE(kept, 2);
  EXPECT_LT(kept, 10) << "the batch finished before it was killed: make it longer";
  const Outcome o = run("batch k.csv --jobs 1 --threads 1");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(std::stoi(count_of(o.err, "scored")) + std::stoi(count_of(o.err, "done before")), 10) << o.err;
  EXPECT_GE(std::stoi(count_of(o.err, "done before")), 2) << o.err;
  EXPECT_EQ(read(path("k.summary.json")), read(path("whole.json")));
}

}  // namespace
