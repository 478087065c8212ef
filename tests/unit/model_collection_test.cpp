// Bootstrap model collections and the v1.0.16 models (chroma_correction_parameter), fed the goldens'
// own feature values: every score libvmaf 3.2 wrote (vmaf, vmaf_0001.., bagging, stddev, interval)
// bit for bit, independently of the extractors; plus hand-computed statistics and bad files.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "core/registry.hpp"
#include "models/bootstrap.hpp"
#include "vmaf_model_support.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

using nlohmann::json;

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

bool is_score(const std::string& name) { return name == "vmaf" || name.rfind("vmaf_", 0) == 0; }

// Feeds the golden's features (not the scores) to a model built with the real extractors' schemas,
// then compares every score of every frame and the pooled means. Returns the scores checked.
int check_model_against_golden(const std::string& version, const std::string& pair) {
  const auto golden = nlohmann::ordered_json::parse(slurp(shared_path("golden/" + pair + "/" + version + ".max.json")));
  const auto model = models::make_model(model_bytes(version), version, {}, [](std::string_view n) {
    return find_extractor(n);
  });
  Results r;
  unsigned frames = 0;
  for (const auto& f : golden["frames"]) {
    const unsigned i = f["frameNum"].get<unsigned>();
    for (auto it = f["metrics"].begin(); it != f["metrics"].end(); ++it)
      if (!is_score(it.key())) r.put(it.key(), i, it.value().get<double>());
    frames = std::max(frames, i + 1);
  }
  model->predict(r, frames, 1);
  int checked = 0;
  for (const auto& f : golden["frames"]) {
    const unsigned i = f["frameNum"].get<unsigned>();
    for (auto it = f["metrics"].begin(); it != f["metrics"].end(); ++it) {
      if (!is_score(it.key())) continue;
      const auto got = r.value(it.key(), i);
      EXPECT_TRUE(got.has_value()) << version << " " << pair << " frame " << i << " " << it.key();
      if (got) {
        EXPECT_EQ(bits(*got), bits(it.value().get<double>()))
            << version << " " << pair << " frame " << i << " " << it.key() << ": " << *got;
      }
      ++checked;
    }
  }
  for (auto it = golden["pooled_metrics"].begin(); it != golden["pooled_metrics"].end(); ++it) {
    if (is_score(it.key())) {
      EXPECT_EQ(bits(*r.pooled(it.key(), *Pooling::parse("mean"))), bits(it.value()["mean"].get<double>()))
          << version << " " << pair << " pooled " << it.key();
    }
  }
  // Names: the model's scores in libvmaf's order.
  std::vector<std::string> want, got;
  for (auto it = golden["frames"][0]["metrics"].begin(); it != golden["frames"][0]["metrics"].end(); ++it)
    if (is_score(it.key())) want.push_back(it.key());
  for (const std::string& n : r.names())
    if (is_score(n)) got.push_back(n);
  EXPECT_EQ(got, want) << version << " " << pair;
  return checked;
}

TEST(ModelCollection, BootstrapScoresFromGoldenFeatures) {
  int checked = 0;
  for (const char* version : {"vmaf_b_v0.6.3", "vmaf_float_b_v0.6.3"})
    for (const std::string& pair : golden_pairs()) checked += check_model_against_golden(version, pair);
  ASSERT_FALSE(golden_pairs().empty());
  EXPECT_EQ(checked, 2 * int(golden_pairs().size()) * 12 * 25);  // 25 scores, 12 frames, each pair
}

// The v1.0.16 models (chroma correction) and the other single models of the added golden runs.
TEST(ModelCollection, AddedModelScoresFromGoldenFeatures) {
  int checked = 0;
  for (const char* version : {"vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_1d5h_2160",
                              "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_hfr_3d0h", "vmaf_4k_v0.6.1neg",
                              "vmaf_float_4k_v0.6.1", "vmaf_float_v0.6.1neg"})
    for (const std::string& pair : golden_pairs()) checked += check_model_against_golden(version, pair);
  ASSERT_FALSE(golden_pairs().empty());
  EXPECT_EQ(checked, 8 * int(golden_pairs().size()) * 12);
}

TEST(ModelCollection, StatisticsByHand) {
  const double s[] = {4, 1, 3, 2};  // sorted 1 2 3 4
  const auto st = models::bootstrap_stats(s);
  EXPECT_EQ(st.mean, 2.5);
  EXPECT_EQ(st.stddev, std::sqrt(1.25));  // (2.25 + 0.25 + 0.25 + 2.25) / 4
  // 2.5th percentile: p = 2.5 * 3 / 100 = 0.075, between the first two sorted scores.
  const double p_lo = 2.5 * 3 / 100.;
  EXPECT_EQ(st.lo, 1 * (1 - p_lo) + 2 * (p_lo - 0));
  const double p_hi = 97.5 * 3 / 100.;
  EXPECT_EQ(st.hi, 3 * (3 - p_hi) + 4 * (p_hi - 2));
  const double one[] = {7, 7};
  EXPECT_EQ(models::bootstrap_stats(one).stddev, 0.0);
  const double exact[] = {1, 2, 3, 4, 5};  // p = 2.5 * 4 / 100 = 0.1: not an index
  EXPECT_NE(models::percentile(exact, 2.5), 1.0);
  EXPECT_EQ(models::percentile(exact, 50), 3.0);  // p = 2: exactly an index
}

// vmaf_b_v0.6.3 with one edit, its models kept in file order.
std::string collection_with(const std::function<void(nlohmann::ordered_json&)>& edit) {
  auto doc = nlohmann::ordered_json::parse(model_bytes("vmaf_b_v0.6.3"));
  edit(doc);
  return doc.dump();
}

std::string error_of(const std::string& bytes) {
  try {
    models::make_model(bytes, "bad.json", {}, [](std::string_view n) { return find_extractor(n); });
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ModelCollection, NamesFollowTheModelName) {
  models::ModelSettings settings;
  settings.name = "q";
  const auto model = models::make_model(model_bytes("vmaf_b_v0.6.3"), "b", settings, [](std::string_view n) {
    return find_extractor(n);
  });
  Results r;
  for (const char* f : {"integer_adm2", "integer_motion2", "integer_vif_scale0", "integer_vif_scale1",
                        "integer_vif_scale2", "integer_vif_scale3"})
    r.put(f, 0, 0.5);
  model->predict(r, 1, 1);
  std::vector<std::string> want = {"integer_adm2", "integer_motion2", "integer_vif_scale0", "integer_vif_scale1",
                                   "integer_vif_scale2", "integer_vif_scale3", "q"};
  for (int i = 1; i <= 20; ++i) want.push_back("q_" + std::string(i < 10 ? "000" : "00") + std::to_string(i));
  for (const char* s : {"q_bagging", "q_stddev", "q_ci_p95_lo", "q_ci_p95_hi"}) want.push_back(s);
  std::vector<std::string> got = r.names();
  std::sort(want.begin(), want.begin() + 6);
  EXPECT_EQ(got, want);
}

TEST(ModelCollection, BadCollectionsAndCorrections) {
  EXPECT_EQ(error_of(collection_with([](nlohmann::ordered_json&) {})), "");
  // Keys out of order (libvmaf would silently skip the misplaced model).
  const std::string swapped = [] {
    json doc = json::parse(model_bytes("vmaf_b_v0.6.3"));
    nlohmann::ordered_json out;
    out["1"] = doc["1"];
    out["0"] = doc["0"];
    return out.dump();
  }();
  EXPECT_NE(error_of(swapped).find("key '1' where model '0' is expected"), std::string::npos) << error_of(swapped);
  EXPECT_NE(error_of("{\"0\": " + json::parse(model_bytes("vmaf_v0.6.1")).dump() + "}").find("at least two"),
            std::string::npos);
  EXPECT_NE(error_of(collection_with([](nlohmann::ordered_json& d) { d["3"]["model_dict"]["model_type"] = "LIBSVMNUSVR"; }))
                .find("model '3' is not a bootstrap model"),
            std::string::npos);
  EXPECT_NE(error_of(collection_with([](nlohmann::ordered_json& d) { d["2"]["model_dict"]["model_type"] = "RESIDUEBOOTSTRAP_LIBSVMNUSVR"; }))
                .find("not of model '1''s type"),
            std::string::npos);
  // chroma_correction_parameter: 0 writes no score in libvmaf; the two features must exist once each.
  auto v1016 = [](const std::function<void(json&)>& edit) {
    json doc = json::parse(model_bytes("vmaf_v1.0.16_3d0h"));
    edit(doc["model_dict"]);
    return doc.dump();
  };
  EXPECT_EQ(error_of(v1016([](json&) {})), "");
  EXPECT_NE(error_of(v1016([](json& md) { md["chroma_correction_parameter"] = 0; })).find("is 0"), std::string::npos);
  EXPECT_NE(error_of(v1016([](json& md) { md["feature_names"][2] = "VMAF_integer_feature_adm2_score"; }))
                .find("contains 'adm3'"),
            std::string::npos);
}

}  // namespace
}  // namespace vqtwin::test
