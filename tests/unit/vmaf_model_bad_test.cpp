// Bad VMAF model files: every defect is one vqtwin::Error naming the file and the problem, and no
// input, however mangled, crashes the parser (fuzz-style: truncations and mutations).
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "vmaf_model_support.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

using nlohmann::json;

const std::string kSource = "bad/model_under_test.json";

// The model's error message, or "" when it loaded.
std::string error_of(const std::string& bytes) {
  try {
    stand_in_model(bytes, kSource);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

void expect_bad(const std::string& bytes, const std::string& problem) {
  const std::string m = error_of(bytes);
  ASSERT_FALSE(m.empty()) << "accepted a model that should fail with: " << problem;
  EXPECT_NE(m.find(kSource), std::string::npos) << "message does not name the file: " << m;
  EXPECT_NE(m.find(problem), std::string::npos) << "message does not say '" << problem << "': " << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << "not one line: " << m;
}

// vmaf_v0.6.1 with one edit made to its model_dict.
std::string edited(const std::function<void(json&)>& edit) {
  json doc = json::parse(model_bytes("vmaf_v0.6.1"));
  edit(doc["model_dict"]);
  return doc.dump();
}

std::string with_svm_text(const std::function<void(std::string&)>& edit) {
  return edited([&](json& md) {
    std::string text = md["model"].get<std::string>();
    edit(text);
    md["model"] = text;
  });
}

void replace_once(std::string& s, const std::string& from, const std::string& to) {
  const auto p = s.find(from);
  ASSERT_NE(p, std::string::npos) << from;
  s.replace(p, from.size(), to);
}

TEST(VmafModelBad, TheUneditedModelLoads) { EXPECT_EQ(error_of(edited([](json&) {})), ""); }

TEST(VmafModelBad, NotJson) {
  expect_bad("", "not valid JSON");
  expect_bad("{\"model_dict\": ", "not valid JSON");
  expect_bad("model_dict = 1", "not valid JSON");
  expect_bad(std::string("{\"a\":\"\xff\"}"), "not valid JSON");
  expect_bad("[1, 2]", "not a VMAF model");
  expect_bad("{\"param_dict\": {}}", "no 'model_dict'");
  expect_bad("{\"0\": {}, \"1\": {}}", "model '0': not a VMAF model");  // a collection of non-models
  expect_bad("{\"model_dict\": 3}", "model_dict must be an object");
}

TEST(VmafModelBad, MissingKeys) {
  for (const char* key : {"model_type", "feature_names", "norm_type", "model"})
    expect_bad(edited([&](json& md) { md.erase(key); }), std::string("has no '") + key + "'");
  expect_bad(edited([](json& md) { md.erase("slopes"); }), "needs 'slopes'");
  expect_bad(edited([](json& md) { md.erase("intercepts"); }), "needs 'intercepts'");
}

TEST(VmafModelBad, WrongTypesAndValues) {
  expect_bad(edited([](json& md) { md["model_type"] = "SVM"; }), "unknown model_type");
  expect_bad(edited([](json& md) { md["norm_type"] = "clip_0to1"; }), "unknown norm_type");
  expect_bad(edited([](json& md) { md["feature_names"] = json::array(); }), "feature_names");
  expect_bad(edited([](json& md) { md["feature_names"][2] = 7; }), "feature_names[2]");
  expect_bad(edited([](json& md) { md["slopes"][3] = "x"; }), "slopes[3] must be a number");
  expect_bad(edited([](json& md) { md["slopes"][0] = 0; }), "slopes[0] is 0");
  expect_bad(edited([](json& md) { md["score_clip"] = {0.0}; }), "score_clip must be [min, max]");
  expect_bad(edited([](json& md) { md["score_clip"] = {100.0, 0.0}; }), "min > max");
  expect_bad(edited([](json& md) { md["model"] = 1; }), "libsvm model");
  expect_bad(edited([](json& md) { md["score_transform"]["p1"] = "a"; }), "score_transform.p1");
  expect_bad(edited([](json& md) { md["score_transform"]["enabled"] = "yes"; }), "score_transform.enabled");
  expect_bad(edited([](json& md) { md["score_transform"]["out_gte_in"] = true; }), "out_gte_in");
  expect_bad(edited([](json& md) { md["score_transform"]["knots"] = {{0.0, 0.0}}; }), "2 to 10");
  expect_bad(edited([](json& md) { md["score_transform"]["knots"] = {{0.0, 0.0}, {1.0}}; }), "knots[1]");
  expect_bad(edited([](json& md) { md["score_transform"]["knots"] = {{1.0, 0.0}, {0.0, 1.0}}; }), "increasing x");
  // vmaf_v0.6.1 has neither an adm3 nor a speed_chroma feature for the correction to use.
  expect_bad(edited([](json& md) { md["chroma_correction_parameter"] = 1.0; }), "contains 'adm3'");
  expect_bad(edited([](json& md) { md["chroma_correction_parameter"] = "a"; }), "must be a number");
  expect_bad("{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"slopes\": 1e999}}", "");  // inf or error, no crash
}

TEST(VmafModelBad, UnknownFeatureName) {
  expect_bad(edited([](json& md) { md["feature_names"][1] = "VMAF_feature_bogus_score"; }),
             "unknown feature 'VMAF_feature_bogus_score'");
}

TEST(VmafModelBad, ExtractorNotInThisBuild) {
  const std::string bytes = model_bytes("vmaf_v0.6.1");
  try {
    models::make_model(bytes, kSource, {}, [](std::string_view) -> const ExtractorInfo* { return nullptr; });
    FAIL();
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(kSource), std::string::npos) << m;
    EXPECT_NE(m.find("needs the extractor 'adm', which this build does not have"), std::string::npos) << m;
  }
}

TEST(VmafModelBad, FeatureOptions) {
  // json::array(...), not {x}: clang reads a one-element brace list as a copy of x.
  expect_bad(edited([](json& md) { md["feature_opts_dicts"] = json::array({json::object()}); }),
             "1 entries for 6 features");
  expect_bad(edited([](json& md) {
               md["feature_opts_dicts"] = json::array();
               for (int i = 0; i < 6; ++i) md["feature_opts_dicts"].push_back(json::object());
               md["feature_opts_dicts"][0]["adm_enhn_gain_limit"] = 1000.0;
             }),
             "out of range");
  expect_bad(edited([](json& md) {
               md["feature_opts_dicts"] = json::array();
               for (int i = 0; i < 6; ++i) md["feature_opts_dicts"].push_back(json::object());
               md["feature_opts_dicts"][2]["no_such_option"] = 1;
             }),
             "unknown option 'no_such_option'");
  expect_bad(edited([](json& md) {
               md["feature_opts_dicts"] = json::array();
               for (int i = 0; i < 6; ++i) md["feature_opts_dicts"].push_back(json::object());
               md["feature_opts_dicts"][0]["adm_enhn_gain_limit"] = json::array();
             }),
             "feature_opts_dicts[0].adm_enhn_gain_limit");
}

TEST(VmafModelBad, WrongVectorLengths) {
  expect_bad(edited([](json& md) { md["slopes"].erase(md["slopes"].size() - 1); }),
             "slopes has 6 entries, expected 7");
  expect_bad(edited([](json& md) { md["intercepts"].push_back(0.5); }), "intercepts has 8 entries, expected 7");
  expect_bad(edited([](json& md) { md["feature_names"].push_back("VMAF_integer_feature_motion2_score"); }),
             "slopes has 7 entries, expected 8");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "6:0.73495824", "7:0.73495824"); }),
             "index 7 is outside 1..6");
}

TEST(VmafModelBad, MalformedSvmText) {
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "1:0.65734273", "1:abc"); }), "support vector 1");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "1:0.65734273", "1;0.65734273"); }),
             "is not index:value");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "-4 1:0.65734273", "x 1:0.65734273"); }),
             "coefficient 'x' is not a number");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "2:0.34681232 3:", "3:0.34681232 2:"); }),
             "indices must increase");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "total_sv 211", "total_sv 212"); }),
             "only 211 support vectors follow");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "total_sv 211", "total_sv 210"); }),
             "more support vectors than total_sv");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "\n4 1:0.8727433", "\n\n4 1:0.8727433"); }),
             "support vector 2 (line 9) is empty");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "kernel_type rbf", "kernel_type linear"); }),
             "kernel_type 'linear' is not supported");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "svm_type nu_svr", "svm_type c_svc"); }),
             "svm_type 'c_svc' is not supported");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "gamma 0.04\n", ""); }), "missing 'gamma'");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "rho -1.33133", "rho"); }), "not a number");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "nr_class 2", "nr_class 3"); }), "nr_class must be 2");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "SV\n", "SV 1\n"); }), "text after 'SV'");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "SV\n", "XX\n"); }), "unknown header item 'XX'");
  expect_bad(with_svm_text([](std::string& t) { t = t.substr(0, t.find("SV\n")); }), "missing the 'SV' line");
  expect_bad(with_svm_text([](std::string& t) { replace_once(t, "gamma 0.04", "gamma inf"); }), "not a number");
}

// --- fuzz-style: never a crash, only vqtwin::Error (or a model that loads and predicts) ---

void must_not_crash(const std::string& bytes) {
  std::unique_ptr<models::Model> model;
  try {
    model = stand_in_model(bytes, kSource);
  } catch (const Error&) {
    return;
  } catch (const std::exception& e) {
    FAIL() << "not a vqtwin::Error: " << e.what();
  }
  // It loaded: predicting must not crash either (values or a clear error).
  Results r;
  for (const auto& use : model->features()) (void)use;
  for (const char* n : {"integer_adm2", "integer_motion2", "integer_vif_scale0", "integer_vif_scale1",
                        "integer_vif_scale2", "integer_vif_scale3"})
    r.put(n, 0, 0.5);
  try {
    model->predict(r, 1, 1);
  } catch (const Error&) {
  }
}

TEST(VmafModelFuzz, TruncationsNeverCrash) {
  const std::string bytes = model_bytes("vmaf_v0.6.1neg");
  for (std::size_t n = 0; n < bytes.size(); n += 37) must_not_crash(bytes.substr(0, n));
  // Truncations of the libsvm text inside valid JSON reach the SVM parser.
  json doc = json::parse(bytes);
  const std::string svm = doc["model_dict"]["model"].get<std::string>();
  for (std::size_t n = 0; n < svm.size(); n += 13) {
    doc["model_dict"]["model"] = svm.substr(0, n);
    must_not_crash(doc.dump());
  }
}

TEST(VmafModelFuzz, MutationsNeverCrash) {
  std::mt19937 rng(20240611);  // fixed: the same cases every run
  const std::string interesting = "0123456789:.-+eE \n\t{}[]\",xSV\0\xff";
  const std::string bytes = model_bytes("vmaf_v0.6.1neg");
  json doc = json::parse(bytes);
  const std::string svm = doc["model_dict"]["model"].get<std::string>();
  auto mutate = [&](std::string s) {
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 4) {
        case 0: s[at] = interesting[rng() % interesting.size()]; break;
        case 1: s.erase(at, 1 + rng() % 8); break;
        case 2: s.insert(at, 1, interesting[rng() % interesting.size()]); break;
        default: s.insert(at, s.substr(rng() % s.size(), 1 + rng() % 16)); break;
      }
    }
    return s;
  };
  for (int i = 0; i < 1500; ++i) must_not_crash(mutate(bytes));  // mostly JSON errors
  for (int i = 0; i < 3000; ++i) {                               // the SVM and model_dict layers
    json d = doc;
    d["model_dict"]["model"] = mutate(svm);
    must_not_crash(d.dump());
  }
  // Structural mutations of the model_dict values.
  const json odd[] = {nullptr, 0, -1, 1e308, "", "x", json::array(), json::object(), true, {1, 2, 3}};
  for (auto it = doc["model_dict"].begin(); it != doc["model_dict"].end(); ++it)
    for (const json& v : odd) {
      json d = doc;
      d["model_dict"][it.key()] = v;
      must_not_crash(d.dump());
    }
}

}  // namespace
}  // namespace vqtwin::test
