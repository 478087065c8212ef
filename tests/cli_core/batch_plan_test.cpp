// The batch's pieces on their own: manifest parsing (CSV quoting, comments, JSON Lines), the shell-like
// splitting of a row's options, shard assignment (deterministic, a reference's rows together,
// balanced), --shard from Slurm's variables, and summaries (values read back to the same bits; merges
// refuse conflicting rows).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "batch/manifest.hpp"
#include "batch/plan.hpp"
#include "batch/summary.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin_cli::batch {
namespace {

using Words = std::vector<std::string>;

TEST(SplitWords, AsAShellSplitsThem) {
  EXPECT_EQ(split_words(""), Words{});
  EXPECT_EQ(split_words("  --feature psnr\t-n "), (Words{"--feature", "psnr", "-n"}));
  EXPECT_EQ(split_words("--model 'path=my model.json:name=a b'"), (Words{"--model", "path=my model.json:name=a b"}));
  EXPECT_EQ(split_words(R"(--x "a \"q\" \\ b" c\ d '')"), (Words{"--x", R"(a "q" \ b)", "c d", ""}));
  EXPECT_EQ(split_words("a'b'\"c\"d"), (Words{"abcd"}));
  EXPECT_THROW(split_words("--model 'open"), vqtwin::Error);
  EXPECT_THROW(split_words("--model \"open"), vqtwin::Error);
}

TEST(Manifest, CsvQuotingCommentsAndBom) {
  const Manifest m = parse_manifest(
      "\xEF\xBB\xBFReference, Distorted ,output,options\n"
      "# a comment line\n"
      "\n"
      "a.y4m,b.y4m,out/b.json,--feature psnr\n"
      "\"with, comma.y4m\",\"two\nlines.y4m\",\"x\"\"y\".json,\"--feature 'float_ssim=enable_db=true'\"\r\n"
      "c.y4m,d.y4m\n",
      "dir/m.csv", false);
  ASSERT_EQ(m.rows.size(), 3u);
  EXPECT_EQ(m.name, "m.csv");
  EXPECT_EQ(m.folder, "dir");
  EXPECT_EQ(m.rows[0].reference, "a.y4m");
  EXPECT_EQ(m.rows[0].line, 4u);
  EXPECT_EQ(m.rows[0].options, (Words{"--feature", "psnr"}));
  EXPECT_EQ(m.rows[1].reference, "with, comma.y4m");
  EXPECT_EQ(m.rows[1].distorted, "two\nlines.y4m");
  EXPECT_EQ(m.rows[1].output, "x\"y.json");
  EXPECT_EQ(m.rows[1].options, (Words{"--feature", "float_ssim=enable_db=true"}));
  EXPECT_EQ(m.rows[2].number, 3u);
  EXPECT_EQ(m.rows[2].line, 7u);
  EXPECT_EQ(m.rows[2].output, "");
  // The hash is of the bytes: any change is another manifest.
  EXPECT_NE(parse_manifest("reference,distorted\na,b\n", "m.csv", false).hash,
            parse_manifest("reference,distorted\na,c\n", "m.csv", false).hash);
}

TEST(Manifest, JsonLines) {
  const Manifest m = parse_manifest(
      R"({"reference": "r.y4m", "distorted": "d.mp4", "model": ["version=a", "version=b"], "options": "-n --feature psnr"})"
      "\n\n"
      R"({"reference": "r.y4m", "distorted": "e.mp4", "output": "e.xml", "options": ["--feature", "a b"]})"
      "\n",
      "m.jsonl", true);
  ASSERT_EQ(m.rows.size(), 2u);
  EXPECT_EQ(m.rows[0].models, (Words{"version=a", "version=b"}));
  EXPECT_EQ(m.rows[0].options, (Words{"-n", "--feature", "psnr"}));
  EXPECT_EQ(m.rows[1].options, (Words{"--feature", "a b"}));
  EXPECT_EQ(m.rows[1].line, 3u);
  auto error_of = [](const std::string& text) {
    try {
      parse_manifest(text, "m.jsonl", true);
    } catch (const vqtwin::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("[1]\n"), "m.jsonl:1: not a JSON object (JSON Lines: one object per line)");
  EXPECT_EQ(error_of("{\"reference\": \"a\", \"distorted\": \"b\", \"outptu\": \"c\"}\n"),
            "m.jsonl:1: unknown key 'outptu' (known: reference, distorted, output, model, options)");
  EXPECT_EQ(error_of("{\"reference\": \"a\"}\n"), "m.jsonl:1: the row has no distorted");
  EXPECT_EQ(error_of("{\"reference\": \"a\", \"distorted\": 3}\n"), "m.jsonl:1: distorted: a string was expected");
  EXPECT_EQ(error_of(""), "m.jsonl: the manifest has no rows");
}

Manifest ladder_manifest(const std::vector<std::pair<std::string, int>>& refs) {
  std::string text = "reference,distorted,output\n";
  int n = 0;
  for (const auto& [ref, rows] : refs)
    for (int i = 0; i < rows; ++i, ++n) text += ref + ",d" + std::to_string(n) + ".y4m,o" + std::to_string(n) + ".json\n";
  return parse_manifest(text, "/data/m.csv", false);
}

TEST(Shards, DeterministicBalancedAndAReferencesRowsTogether) {
  const Manifest m = ladder_manifest({{"a.y4m", 8}, {"b.y4m", 3}, {"c.y4m", 3}, {"./a.y4m", 0}, {"d.y4m", 2},
                                      {"e.y4m", 1}, {"sub/../b.y4m", 2}, {"f.y4m", 1}});
  const std::vector<Job> jobs = plan_jobs(m, {}, "");
  for (const unsigned n : {1u, 2u, 3u, 5u, 30u}) {
    std::map<std::string, unsigned> shard_of_ref;
    std::size_t total = 0, largest = 0, smallest = ~std::size_t(0);
    for (unsigned k = 0; k < n; ++k) {
      const auto mine = shard_jobs(jobs, k, n);
      EXPECT_EQ(mine, shard_jobs(plan_jobs(m, {}, ""), k, n)) << "not deterministic";
      EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end()));
      total += mine.size();
      largest = std::max(largest, mine.size());
      smallest = std::min(smallest, mine.size());
      for (const std::size_t j : mine) {
        const auto [at, fresh] = shard_of_ref.emplace(jobs[j].shard_key, k);
        EXPECT_EQ(at->second, k) << jobs[j].row->reference << " is in shards " << at->second << " and " << k;
      }
    }
    EXPECT_EQ(total, jobs.size()) << n << " shards";
    if (n == 2) {
      EXPECT_EQ(largest, 10u);  // a (8) + d (2); b (3 + 2) + c (3) + e (1) + f (1)
      EXPECT_EQ(smallest, 10u);
    }
  }
  // "sub/../b.y4m" is b.y4m: one reference, one shard group.
  EXPECT_EQ(jobs[8].shard_key, jobs[17].shard_key);
}

TEST(Shards, ParseShard) {
  std::map<std::string, std::string> env;
  auto get = [&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  EXPECT_EQ(parse_shard("2/5", get).k, 2u);
  EXPECT_EQ(parse_shard("2/5", get).n, 5u);
  EXPECT_THROW(parse_shard("5/5", get), vqtwin::Error);
  EXPECT_THROW(parse_shard("1", get), vqtwin::Error);
  EXPECT_THROW(parse_shard("-1/4", get), vqtwin::Error);
  EXPECT_THROW(parse_shard("slurm", get), vqtwin::Error);
  env = {{"SLURM_ARRAY_TASK_ID", "7"}, {"SLURM_ARRAY_TASK_COUNT", "8"}};
  EXPECT_EQ(parse_shard("slurm", get).k, 7u);
  env = {{"SLURM_ARRAY_TASK_ID", "13"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "10"}};
  EXPECT_EQ(parse_shard("slurm", get).k, 3u);  // --array=10-13
  env = {{"SLURM_ARRAY_TASK_ID", "6"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "0"},
         {"SLURM_ARRAY_TASK_STEP", "2"}};
  EXPECT_EQ(parse_shard("slurm", get).k, 3u);  // --array=0-7:2
  env["SLURM_ARRAY_TASK_ID"] = "5";
  EXPECT_THROW(parse_shard("slurm", get), vqtwin::Error);
}

TEST(Plan, RowsAreRunArgumentsWithPathsFromTheManifestsFolder) {
  const Manifest m = parse_manifest(
      "reference,distorted,output,model,options\n"
      "r.y4m,d.mp4,out/{dist_stem}.json,version=vmaf_v0.6.1neg,--feature psnr --subsample 2\n"
      "/abs/r.y4m,d.mp4,out/d.csv,,--threads 2\n"
      "r.y4m,e.mp4,,,--bogus\n"
      "r.y4m,f.mp4,,,\n",
      "/data/m.csv", false);
  const std::vector<Job> jobs = plan_jobs(m, {"--precision", "max"}, "res/{row}-{ref_stem}.xml");
  ASSERT_EQ(jobs.size(), 4u);
  EXPECT_EQ(jobs[0].error, "");
  EXPECT_EQ(jobs[0].args.run.reference, "/data/r.y4m");
  EXPECT_EQ(jobs[0].args.run.distorted, "/data/d.mp4");
  EXPECT_EQ(jobs[0].output, "/data/out/d.json");
  EXPECT_EQ(jobs[0].args.out.format, vqtwin::OutputFormat::kJson);  // from the name
  EXPECT_EQ(jobs[0].args.out.precision, vqtwin::OutputOptions::kMaxPrecision);
  EXPECT_EQ(jobs[0].args.run.subsample, 2u);
  EXPECT_EQ(jobs[0].args.run.models, Words{"version=vmaf_v0.6.1neg"});
  EXPECT_EQ(jobs[0].key, (Words{"--precision", "max", "--model", "version=vmaf_v0.6.1neg", "--feature", "psnr",
                                "--subsample", "2", "-r", "r.y4m", "-d", "d.mp4", "-o", "out/d.json"}));
  EXPECT_NE(jobs[1].error.find("--threads is set by vqtwin batch"), std::string::npos) << jobs[1].error;
  EXPECT_NE(jobs[2].error.find("--bogus"), std::string::npos) << jobs[2].error;
  EXPECT_EQ(jobs[3].output, "/data/res/4-r.xml");
  EXPECT_EQ(jobs[3].args.out.format, vqtwin::OutputFormat::kXml);
  EXPECT_NE(jobs[0].pass_key, jobs[1].pass_key);
  EXPECT_EQ(jobs[0].pass_key, jobs[3].pass_key);
  // Two rows on one output: the manifest's error.
  const Manifest dup = parse_manifest("reference,distorted,output\nr,a,x.json\nr,b,sub/../x.json\n", "/d/m.csv", false);
  EXPECT_THROW(plan_jobs(dup, {}, ""), vqtwin::Error);
}

// Summary values are the doubles the run pooled: written and read back, they are the same bits; values
// JSON has no number for are strings.
TEST(Summary, ValuesRoundTripAndMergesRefuseConflicts) {
  const Manifest m = parse_manifest("reference,distorted,output\nr,a,a.json\nr,b,b.json\n", "m.csv", false);
  const std::vector<Job> jobs = plan_jobs(m, {}, "");
  vqtwin::Results r;
  const double values[] = {0.1 + 0.2, 1.0 / 3.0, 5e-324, 1.7976931348623157e308, 83.12345678901234};
  for (unsigned f = 0; f < 5; ++f) {
    r.put("x", f, values[f]);
    r.put("inf", f, INFINITY);
  }
  r.aggregate("agg", 2.0 / 3.0);
  vqtwin::OutputOptions o;
  o.pools = {*vqtwin::Pooling::parse("mean"), *vqtwin::Pooling::parse("min"), *vqtwin::Pooling::parse("max")};
  const Json entry = scored_entry(jobs[0], r, o);
  const Json back = Json::parse(entry.dump());
  const double min = back["pooled"]["x"]["min"].get<double>(), max = back["pooled"]["x"]["max"].get<double>();
  EXPECT_EQ(std::memcmp(&min, &values[2], sizeof min), 0);
  EXPECT_EQ(std::memcmp(&max, &values[3], sizeof max), 0);
  const double mean = back["pooled"]["x"]["mean"].get<double>(), want = *r.pooled("x", o.pools[0]);
  EXPECT_EQ(std::memcmp(&mean, &want, sizeof mean), 0);
  ASSERT_TRUE(back["pooled"].contains("inf"));
  EXPECT_EQ(back["pooled"]["inf"]["mean"], "inf");
  EXPECT_EQ(back["aggregates"]["agg"].get<double>(), 2.0 / 3.0);
  EXPECT_EQ(back.dump(), entry.dump());

  const auto dir = std::filesystem::temp_directory_path() / ("vqtwin_summary_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, std::vector<Json> entries, const std::string& shard) {
    const std::string p = (dir / name).string();
    write_atomically(p, summary_text(summary(m, shard, std::move(entries)), p));
    return p;
  };
  const std::string s0 = write("s0.json", {entry}, "0/2");
  const std::string s1 = write("s1.json", {failed_entry(jobs[1], "b.json: broken")}, "1/2");
  std::vector<unsigned> missing;
  const Json merged = merge_summaries({s1, s0, s0}, missing);  // a summary twice: the same rows, fine
  EXPECT_TRUE(missing.empty());
  EXPECT_EQ(merged.dump(), summary(m, "", {entry, failed_entry(jobs[1], "b.json: broken")}).dump());
  merge_summaries({s0}, missing);
  EXPECT_EQ(missing, std::vector<unsigned>{2});
  Json other = entry;
  other["frames"] = 4;
  const std::string s2 = write("s2.json", {other}, "0/2");
  EXPECT_THROW(merge_summaries({s0, s2}, missing), vqtwin::Error);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vqtwin_cli::batch
