// VMAF models: the prediction against libvmaf's goldens bit for bit (fed the goldens' own feature
// values, so the SVM is proven independently of the extractors), the options of --model, the search
// path, several models at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "core/registry.hpp"
#include "vmaf_model_support.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

using nlohmann::json;

json load(const std::string& path) { return json::parse(slurp(path)); }

// The golden's per-frame features (everything but `score_name`) into `r`.
unsigned feed_features(const json& golden, Results& r, const std::string& score_name = "vmaf") {
  unsigned frames = 0;
  for (const auto& f : golden["frames"]) {
    const unsigned i = f["frameNum"].get<unsigned>();
    for (auto it = f["metrics"].begin(); it != f["metrics"].end(); ++it)
      if (it.key() != score_name) r.put(it.key(), i, it.value().get<double>());
    frames = std::max(frames, i + 1);
  }
  return frames;
}

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

const char* const kGoldenModels[] = {"vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_float_v0.6.1"};

TEST(VmafModelGolden, EveryFrameBitExactOnEveryPair) {
  const auto pairs = golden_pairs();
  ASSERT_GE(pairs.size(), 6u);
  int checked = 0, clipped = 0;
  for (const char* version : kGoldenModels) {
    const auto model = stand_in_model(model_bytes(version), version);
    for (const std::string& pair : pairs) {
      const json golden = load(shared_path("golden/" + pair + "/" + version + ".max.json"));
      Results r;
      const unsigned frames = feed_features(golden, r);
      model->predict(r, frames, 1);
      for (const auto& f : golden["frames"]) {
        const unsigned i = f["frameNum"].get<unsigned>();
        const double want = f["metrics"]["vmaf"].get<double>();
        const auto got = r.value("vmaf", i);
        ASSERT_TRUE(got.has_value()) << version << " " << pair << " frame " << i;
        EXPECT_EQ(bits(*got), bits(want)) << version << " " << pair << " frame " << i << ": got " << *got
                                          << " want " << want;
        ++checked;
        clipped += want == 100.0;
      }
      // Pooled like any feature (the writer pools the same way).
      const auto& pooled = golden["pooled_metrics"]["vmaf"];
      for (const char* how : {"min", "max", "mean", "harmonic_mean"})
        EXPECT_EQ(bits(*r.pooled("vmaf", *Pooling::parse(how))), bits(pooled[how].get<double>()))
            << version << " " << pair << " pooled " << how;
    }
  }
  EXPECT_GT(checked, 600);
  EXPECT_GT(clipped, 0);  // the clip at 100 is exercised
}

// The neg model's options rename its features exactly as the goldens name them.
TEST(VmafModelGolden, NegModelReadsEglFeatures) {
  const auto model = stand_in_model(model_bytes("vmaf_v0.6.1neg"), "neg");
  const auto uses = model->features();
  ASSERT_EQ(uses.size(), 3u);  // adm with egl, motion, vif with egl (one context for four scales)
  EXPECT_EQ(uses[0].extractor, "adm");
  EXPECT_EQ(uses[0].options, (OptionPairs{{"adm_enhn_gain_limit", "1"}}));
  EXPECT_EQ(uses[1].extractor, "motion");
  EXPECT_TRUE(uses[1].options.empty());
  EXPECT_EQ(uses[2].extractor, "vif");
  EXPECT_EQ(uses[2].options, (OptionPairs{{"vif_enhn_gain_limit", "1"}}));
  // Without integer_adm2_egl_1 the model cannot predict: the error names the missing feature.
  Results r;
  r.put("integer_adm2", 0, 1.0);
  try {
    model->predict(r, 1, 1);
    FAIL() << "predicted without its features";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("integer_adm2_egl_1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("frame 0"), std::string::npos) << e.what();
  }
}

// Once the real extractors are registered, their schemas must name the features as the stand-ins do.
TEST(VmafModelGolden, RealExtractorsNameFeaturesAsGoldens) {
  for (const char* version : kGoldenModels) {
    std::unique_ptr<models::Model> model;
    try {
      model = models::make_model(model_bytes(version), version, {}, find_extractor);
    } catch (const Error& e) {
      GTEST_SKIP() << "extractors not registered yet: " << e.what();
    }
    const json golden = load(shared_path(std::string("golden/sd_576x324_8bit_420/") + version + ".max.json"));
    Results r;
    const unsigned frames = feed_features(golden, r);
    model->predict(r, frames, 1);
    EXPECT_EQ(bits(*r.value("vmaf", 3)), bits(golden["frames"][3]["metrics"]["vmaf"].get<double>())) << version;
  }
}

TEST(VmafModel, SubsampleSkipsFrames) {
  const auto model = stand_in_model(model_bytes("vmaf_v0.6.1"), "v061");
  const json golden = load(shared_path("golden/sd_576x324_8bit_420/vmaf_v0.6.1.max.json"));
  Results r;
  const unsigned frames = feed_features(golden, r);
  model->predict(r, frames, 3);
  for (unsigned i = 0; i < frames; ++i) EXPECT_EQ(r.value("vmaf", i).has_value(), i % 3 == 0) << i;
}

// --- enable_transform, disable_clip: checked against the formula applied to the plain score. ---

std::vector<double> unclipped_scores(const std::string& version, const json& golden, bool transform) {
  models::ModelSettings s;
  s.flags.disable_clip = true;
  s.flags.enable_transform = transform;
  const auto model = stand_in_model(model_bytes(version), version, s);
  Results r;
  const unsigned frames = feed_features(golden, r);
  model->predict(r, frames, 1);
  std::vector<double> out;
  for (unsigned i = 0; i < frames; ++i) out.push_back(*r.value("vmaf", i));
  return out;
}

TEST(VmafModel, DisableClipKeepsScoresAbove100) {
  const json golden = load(shared_path("golden/identical_576x324_8bit_420/vmaf_v0.6.1.max.json"));
  const auto raw = unclipped_scores("vmaf_v0.6.1", golden, false);
  int above = 0;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const double want = golden["frames"][i]["metrics"]["vmaf"].get<double>();
    if (raw[i] > 100) {
      ++above;
      EXPECT_EQ(want, 100.0);
    } else {
      EXPECT_EQ(bits(raw[i]), bits(want)) << i;
    }
  }
  EXPECT_GT(above, 0);
}

TEST(VmafModel, EnableTransformAppliesPolynomialAndRectification) {
  const json golden = load(shared_path("golden/sd_576x324_8bit_420/vmaf_v0.6.1.max.json"));
  const auto plain = unclipped_scores("vmaf_v0.6.1", golden, false);
  models::ModelSettings s;
  s.flags.enable_transform = true;
  s.name = "vmaf_t";
  const auto model = stand_in_model(model_bytes("vmaf_v0.6.1"), "v061", s);
  Results r;
  const unsigned frames = feed_features(golden, r);
  model->predict(r, frames, 1);
  int moved = 0;
  for (unsigned i = 0; i < frames; ++i) {
    const double y = plain[i];
    // score_transform of vmaf_v0.6.1: p0 + p1·y + p2·y², then out_gte_in, then the clip [0, 100].
    double t = 0.;
    t += 1.70674692;
    t += 1.72643844 * y;
    t += -0.00705305 * y * y;
    if (t < y) t = y;
    t = std::min(std::max(t, 0.0), 100.0);
    EXPECT_EQ(bits(*r.value("vmaf_t", i)), bits(t)) << i;
    moved += *r.value("vmaf_t", i) != golden["frames"][i]["metrics"]["vmaf"].get<double>();
  }
  EXPECT_GT(moved, 0);
  EXPECT_FALSE(r.has("vmaf"));  // name= renames the output
}

TEST(VmafModel, EnableTransformWithoutTransformChangesNothing) {
  const json golden = load(shared_path("golden/sd_576x324_8bit_420/vmaf_4k_v0.6.1.max.json"));
  EXPECT_EQ(unclipped_scores("vmaf_4k_v0.6.1", golden, true), unclipped_scores("vmaf_4k_v0.6.1", golden, false));
}

TEST(VmafModel, TransformEnabledInTheFile) {
  auto doc = json::parse(model_bytes("vmaf_v0.6.1"));
  doc["model_dict"]["score_transform"]["enabled"] = true;
  const json golden = load(shared_path("golden/sd_576x324_8bit_420/vmaf_v0.6.1.max.json"));
  models::ModelSettings with_flag;
  with_flag.flags.enable_transform = true;
  const auto a = stand_in_model(doc.dump(), "enabled");
  const auto b = stand_in_model(model_bytes("vmaf_v0.6.1"), "flag", with_flag);
  Results ra, rb;
  const unsigned frames = feed_features(golden, ra);
  feed_features(golden, rb);
  a->predict(ra, frames, 1);
  b->predict(rb, frames, 1);
  for (unsigned i = 0; i < frames; ++i) EXPECT_EQ(bits(*ra.value("vmaf", i)), bits(*rb.value("vmaf", i))) << i;
}

// A one-feature model small enough to compute by hand: norm none, one SV at 0 with coefficient 2,
// gamma 0.5, rho 1: f(x) = 2·exp(−0.5·x²) − 1.
std::string tiny_model(const json& transform, const json& clip = nullptr) {
  json m = {{"model_dict",
             {{"model_type", "LIBSVMNUSVR"},
              {"feature_names", {"psnr_y"}},
              {"norm_type", "none"},
              {"model", "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 1\nrho 1\nSV\n2 1:0 \n"}}}};
  if (!transform.is_null()) m["model_dict"]["score_transform"] = transform;
  if (!clip.is_null()) m["model_dict"]["score_clip"] = clip;
  return m.dump();
}

double tiny_score(const std::string& bytes, double x, bool enable_transform = false) {
  models::ModelSettings s;
  s.flags.enable_transform = enable_transform;
  const auto model = models::make_model(bytes, "tiny", s, [](std::string_view n) {
    static constexpr FeatureSpec spec{.name = "psnr"};
    static const ExtractorInfo psnr{&spec, Backend::kCpu, "psnr"};
    return n == "psnr" ? &psnr : nullptr;
  });
  Results r;
  r.put("psnr_y", 0, x);
  model->predict(r, 1, 1);
  return *r.value("vmaf", 0);
}

TEST(VmafModel, HandComputedTinyModel) {
  if (!find_provider("psnr_y")) GTEST_SKIP() << "psnr not registered";
  EXPECT_EQ(tiny_score(tiny_model(nullptr), 0.0), 1.0);  // 2·exp(0) − 1
  EXPECT_EQ(tiny_score(tiny_model(nullptr), 2.0), 2 * std::exp(-0.5 * 4.0) - 1);
  // Clip.
  EXPECT_EQ(tiny_score(tiny_model(nullptr, {0.0, 0.5}), 0.0), 0.5);
  EXPECT_EQ(tiny_score(tiny_model(nullptr, {0.0, 0.5}), 10.0), 0.0);
  // Polynomial: 1 + 2y + 3y² at y = 1 → 6; off unless enabled.
  const json poly = {{"p0", 1.0}, {"p1", 2.0}, {"p2", 3.0}};
  EXPECT_EQ(tiny_score(tiny_model(poly), 0.0), 1.0);
  EXPECT_EQ(tiny_score(tiny_model(poly), 0.0, true), 6.0);
  // Rectification: out_lte_in keeps min(6, 1).
  json lte = poly;
  lte["out_lte_in"] = "true";
  EXPECT_EQ(tiny_score(tiny_model(lte), 0.0, true), 1.0);
  // Knots: y = 1 lies on the segment (0,0)-(2,4) → 2 (first knot at x = 0: offset = 0, slope = 4/2).
  const json knots = {{"knots", {{0.0, 0.0}, {2.0, 4.0}, {4.0, 5.0}}}};
  EXPECT_EQ(tiny_score(tiny_model(knots), 0.0, true), 2.0);
  json knots_poly = knots;
  knots_poly["p0"] = 5.0;  // 5 after the polynomial, above the knots: the last segment (2,4)-(4,5) extended
  EXPECT_EQ(tiny_score(tiny_model(knots_poly), 0.0, true), 0.5 * 5.0 + (4.0 - 2.0 * 0.5));
  // A horizontal segment maps to its y.
  const json flat = {{"knots", {{0.0, 3.0}, {2.0, 3.0}}}};
  EXPECT_EQ(tiny_score(tiny_model(flat), 0.0, true), 3.0);
}

// --- --model texts ---

TEST(VmafModelText, KeysOfLibvmaf) {
  auto r = models::parse_model_text("version=vmaf_v0.6.1:name=foo:enable_transform:disable_clip=true");
  EXPECT_EQ(r.version, "vmaf_v0.6.1");
  EXPECT_TRUE(r.path.empty());
  EXPECT_EQ(r.settings.name, "foo");
  EXPECT_TRUE(r.settings.flags.enable_transform);
  EXPECT_TRUE(r.settings.flags.disable_clip);
  r = models::parse_model_text("path=/x/y.json:enable_transform=false:adm.adm_enhn_gain_limit=1.0");
  EXPECT_EQ(r.path, "/x/y.json");
  EXPECT_EQ(r.settings.name, "vmaf");
  EXPECT_FALSE(r.settings.flags.enable_transform);
  ASSERT_EQ(r.settings.overloads.size(), 1u);
  EXPECT_EQ(r.settings.overloads[0].first, "adm");
  EXPECT_EQ(r.settings.overloads[0].second, (OptionPairs{{"adm_enhn_gain_limit", "1.0"}}));
}

void expect_text_error(const std::string& text, const std::string& part) {
  try {
    models::parse_model_text(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << text << " -> " << e.what();
  }
}

TEST(VmafModelText, Errors) {
  expect_text_error("name=x", "exactly one of path=FILE or version=NAME");
  expect_text_error("path=a:version=b", "exactly one of");
  expect_text_error("version=a:version=b", "given twice");
  expect_text_error("version=a:bogus=1", "unknown key 'bogus'");
  expect_text_error("version=a:bogus", "not of the form key=value");
  expect_text_error("version=a:enable_transform=yes", "must be true or false");
  expect_text_error("version=a:name=", "name is empty");
}

TEST(VmafModelText, OverloadChangesTheFeatureNames) {
  models::ModelSettings s;
  s.overloads.push_back({"adm", {{"adm_enhn_gain_limit", "1"}}});
  s.overloads.push_back({"vif", {{"egl", "1"}}});
  // vmaf_v0.6.1 with the neg model's options = the neg model.
  const auto model = stand_in_model(model_bytes("vmaf_v0.6.1"), "v061", s);
  const json golden = load(shared_path("golden/hd_1280x720_8bit_444/vmaf_v0.6.1neg.max.json"));
  Results r;
  const unsigned frames = feed_features(golden, r);
  model->predict(r, frames, 1);
  for (unsigned i = 0; i < frames; ++i)
    EXPECT_EQ(bits(*r.value("vmaf", i)), bits(golden["frames"][i]["metrics"]["vmaf"].get<double>())) << i;
  models::ModelSettings unused;
  unused.overloads.push_back({"float_vif", {{"egl", "1"}}});
  EXPECT_THROW(stand_in_model(model_bytes("vmaf_v0.6.1"), "v061", unused), Error);
}

// --- several models at once ---

TEST(VmafModel, TwoModelsAtOnceEachItsOwnOutputInModelOrder) {
  for (bool neg_first : {false, true}) {
    auto a = models::parse_model_text("path=" + shared_path("models/vmaf_v0.6.1.json"));
    auto b = models::parse_model_text("path=" + shared_path("models/vmaf_v0.6.1neg.json") + ":name=neg");
    a.settings.rank = neg_first ? 1 : 0;
    b.settings.rank = neg_first ? 0 : 1;
    const auto ma = stand_in_model(slurp(a.path), a.path, a.settings);
    const auto mb = stand_in_model(slurp(b.path), b.path, b.settings);
    const json ga = load(shared_path("golden/odd_853x480_8bit_444/vmaf_v0.6.1.max.json"));
    const json gb = load(shared_path("golden/odd_853x480_8bit_444/vmaf_v0.6.1neg.max.json"));
    Results r;
    const unsigned frames = feed_features(ga, r);
    feed_features(gb, r);
    ma->predict(r, frames, 1);
    mb->predict(r, frames, 1);
    for (unsigned i = 0; i < frames; ++i) {
      EXPECT_EQ(bits(*r.value("vmaf", i)), bits(ga["frames"][i]["metrics"]["vmaf"].get<double>()));
      EXPECT_EQ(bits(*r.value("neg", i)), bits(gb["frames"][i]["metrics"]["vmaf"].get<double>()));
    }
    const auto names = r.names();
    ASSERT_GE(names.size(), 2u);
    EXPECT_EQ(names[names.size() - 2], neg_first ? "neg" : "vmaf");
    EXPECT_EQ(names.back(), neg_first ? "vmaf" : "neg");
  }
}

TEST(VmafModel, TwoModelsWithOneNameRefused) {
  try {
    models::load_models({"version=a", "version=b"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("name="), std::string::npos) << e.what();
  }
}

// --- the search path ---

class EnvGuard {
 public:
  explicit EnvGuard(std::vector<const char*> names) {
    for (const char* n : names) {
      const char* v = std::getenv(n);
      saved_.push_back({n, v ? std::optional<std::string>(v) : std::nullopt});
      unsetenv(n);
    }
  }
  ~EnvGuard() {
    for (const auto& [n, v] : saved_) {
      if (v) setenv(n, v->c_str(), 1);
      else unsetenv(n);
    }
  }

 private:
  std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

std::string make_temp_dir() {
  std::string t = (std::filesystem::temp_directory_path() / "vqtwin_models_XXXXXX").string();
  if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
  return t;
}

void put_model(const std::string& dir, const std::string& file, const std::string& bytes) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/" + file, std::ios::binary) << bytes;
}

TEST(VmafModelPath, SeveralFoldersFirstWins) {
  EnvGuard env({"VQTWIN_MODEL_PATH", "XDG_DATA_HOME", "HOME"});
  const std::string root = make_temp_dir();
  const std::string a = root + "/a", b = root + "/b";
  put_model(a, "both.json", model_bytes("vmaf_v0.6.1"));
  put_model(b, "both.json", model_bytes("vmaf_4k_v0.6.1"));
  put_model(b, "only_b.json", model_bytes("vmaf_v0.6.1neg"));
  std::filesystem::create_directories(a + "/only_b.json.d");
  setenv("VQTWIN_MODEL_PATH", (root + "/missing::" + a + ":" + b + "/").c_str(), 1);
  EXPECT_EQ(models::find_model_file("both"), a + "/both.json");
  EXPECT_EQ(models::find_model_file("only_b"), b + "/only_b.json");
  EXPECT_EQ(models::find_model_file("nowhere"), std::nullopt);
  EXPECT_EQ(models::find_model_file("../a/both"), std::nullopt);  // a name, never a path
  const auto folders = models::model_search_path();
  ASSERT_EQ(folders.size(), 5u);  // missing, a, b/, then the two system folders (no HOME, no XDG)
  EXPECT_EQ(folders[1], a);
  EXPECT_EQ(folders[3], "/usr/local/share/vqtwin/models");
  EXPECT_EQ(folders[4], "/usr/share/vqtwin/models");
  // The search path is read at each call.
  setenv("VQTWIN_MODEL_PATH", b.c_str(), 1);
  EXPECT_EQ(models::find_model_file("both"), b + "/both.json");
  std::filesystem::remove_all(root);
}

TEST(VmafModelPath, XdgDataHomeThenHome) {
  EnvGuard env({"VQTWIN_MODEL_PATH", "XDG_DATA_HOME", "HOME"});
  const std::string root = make_temp_dir();
  put_model(root + "/xdg/vqtwin/models", "x.json", "{}");
  put_model(root + "/home/.local/share/vqtwin/models", "h.json", "{}");
  setenv("HOME", (root + "/home").c_str(), 1);
  EXPECT_EQ(models::find_model_file("h"), root + "/home/.local/share/vqtwin/models/h.json");
  EXPECT_EQ(models::find_model_file("x"), std::nullopt);
  setenv("XDG_DATA_HOME", (root + "/xdg").c_str(), 1);
  EXPECT_EQ(models::find_model_file("x"), root + "/xdg/vqtwin/models/x.json");
  EXPECT_EQ(models::find_model_file("h"), std::nullopt);  // XDG_DATA_HOME replaces ~/.local/share
  setenv("XDG_DATA_HOME", "relative/path", 1);             // invalid per the XDG spec: ignored
  EXPECT_EQ(models::find_model_file("h"), root + "/home/.local/share/vqtwin/models/h.json");
  std::filesystem::remove_all(root);
}

TEST(VmafModelPath, MissingModelIsAClearError) {
  EnvGuard env({"VQTWIN_MODEL_PATH", "XDG_DATA_HOME", "HOME"});
  setenv("VQTWIN_MODEL_PATH", "/nonexistent/one:/nonexistent/two", 1);
  try {
    models::load_models({"version=vmaf_v9"});
    FAIL();
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("vmaf_v9.json"), std::string::npos) << m;
    EXPECT_NE(m.find("/nonexistent/one, /nonexistent/two"), std::string::npos) << m;
    EXPECT_NE(m.find("VQTWIN_MODEL_PATH"), std::string::npos) << m;
  }
  EXPECT_THROW(models::load_models({"version=../models/vmaf_v0.6.1"}), Error);
  try {
    models::load_models({"path=/nonexistent/m.json"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/m.json"), std::string::npos) << e.what();
  }
}

// Through the search path to a prediction, with the real registry (once the extractors exist).
TEST(VmafModelPath, VersionLoadsThroughTheSearchPath) {
  EnvGuard env({"VQTWIN_MODEL_PATH", "XDG_DATA_HOME", "HOME"});
  setenv("VQTWIN_MODEL_PATH", shared_path("models").c_str(), 1);
  std::vector<std::unique_ptr<models::Model>> m;
  try {
    m = models::load_models({"version=vmaf_v0.6.1", "version=vmaf_v0.6.1neg:name=neg"});
  } catch (const Error& e) {
    if (std::string(e.what()).find("this build does not have") != std::string::npos)
      GTEST_SKIP() << "extractors not registered yet: " << e.what();
    throw;
  }
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0]->name(), "vmaf");
  EXPECT_EQ(m[1]->name(), "neg");
}

}  // namespace
}  // namespace vqtwin::test
