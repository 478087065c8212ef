// libvmaf's JSON model format, read strictly: what libvmaf would reject, or would accept and then
// compute garbage from (wrong lengths, a zero output slope, unordered knots), is an error here.
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/quote.hpp"
#include "models/model_file.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::models {
namespace {

using Json = nlohmann::json;

class Reader {
 public:
  explicit Reader(std::string_view source) : source_(source) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw Error("model " + quote(source_, 240) + ": " + what);
  }

  const Json& member(const Json& obj, const char* key, const char* where) const {
    auto it = obj.find(key);
    if (it == obj.end()) fail(std::string(where) + " has no '" + key + "'");
    return *it;
  }

  double number(const Json& j, const std::string& what) const {
    if (!j.is_number()) fail(what + " must be a number");
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(what + " is not finite");
    return v;
  }

  std::vector<double> numbers(const Json& j, const std::string& what, std::size_t count) const {
    if (!j.is_array()) fail(what + " must be an array of numbers");
    if (j.size() != count)
      fail(what + " has " + std::to_string(j.size()) + " entries, expected " + std::to_string(count) +
           " (the output's, then one per feature)");
    std::vector<double> out;
    for (std::size_t i = 0; i < j.size(); ++i) out.push_back(number(j[i], what + "[" + std::to_string(i) + "]"));
    return out;
  }

 private:
  std::string_view source_;
};

// libvmaf stores a numeric option of a model as text: the number read as a float (strtof), then
// printed with "%g" (1.0 -> "1"). The JSON reader gives the double; narrowing it to float gives
// strtof's float except for literals within a hair of a float midpoint, which "%g" (6 digits)
// cannot show anyway.
std::string normalised_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", double(static_cast<float>(v)));
  return buf;
}

OptionPairs read_options(const Reader& r, const Json& dict, const std::string& where) {
  if (!dict.is_object()) r.fail(where + " must be an object of option: value");
  OptionPairs out;
  for (auto it = dict.begin(); it != dict.end(); ++it) {
    const Json& v = it.value();
    std::string text;
    if (v.is_boolean()) text = v.get<bool>() ? "true" : "false";
    else if (v.is_number()) text = normalised_number(r.number(v, where + "." + printable(it.key(), 40)));
    else if (v.is_string()) text = v.get<std::string>();
    else r.fail(where + "." + printable(it.key(), 40) + " must be a number, a boolean or a string");
    out.emplace_back(it.key(), std::move(text));
  }
  return out;
}

ScoreTransform read_transform(const Reader& r, const Json& t) {
  if (!t.is_object()) r.fail("score_transform must be an object");
  ScoreTransform out;
  out.present = true;
  if (auto it = t.find("enabled"); it != t.end()) {
    if (!it->is_boolean()) r.fail("score_transform.enabled must be true or false");
    out.enabled = it->get<bool>();
  }
  const std::pair<const char*, std::optional<double>*> poly[] = {{"p0", &out.p0}, {"p1", &out.p1}, {"p2", &out.p2}};
  for (auto [key, slot] : poly)
    if (auto it = t.find(key); it != t.end() && !it->is_null())
      *slot = r.number(*it, std::string("score_transform.") + key);
  if (auto it = t.find("knots"); it != t.end() && !it->is_null()) {
    if (!it->is_array()) r.fail("score_transform.knots must be an array of [x, y] pairs");
    constexpr std::size_t kMaxKnots = 10;  // libvmaf's limit
    if (it->size() < 2 || it->size() > kMaxKnots)
      r.fail("score_transform.knots must hold 2 to 10 [x, y] pairs, not " + std::to_string(it->size()));
    for (std::size_t i = 0; i < it->size(); ++i) {
      const Json& k = (*it)[i];
      const std::string where = "score_transform.knots[" + std::to_string(i) + "]";
      if (!k.is_array() || k.size() != 2) r.fail(where + " must be an [x, y] pair");
      out.knots.emplace_back(r.number(k[0], where), r.number(k[1], where));
    }
    // libvmaf's mapping assumes this and computes garbage otherwise.
    for (std::size_t i = 0; i + 1 < out.knots.size(); ++i)
      if (!(out.knots[i].first < out.knots[i + 1].first && out.knots[i].second <= out.knots[i + 1].second))
        r.fail("score_transform.knots must have increasing x and non-decreasing y (knot " + std::to_string(i + 1) +
               ")");
  }
  const std::pair<const char*, bool*> rect[] = {{"out_lte_in", &out.out_lte_in}, {"out_gte_in", &out.out_gte_in}};
  for (auto [key, slot] : rect)
    if (auto it = t.find(key); it != t.end()) {
      // libvmaf: a string, and only "true" switches it on.
      if (!it->is_string()) r.fail(std::string("score_transform.") + key + " must be the string \"true\" or \"false\"");
      *slot = it->get<std::string>() == "true";
    }
  return out;
}

// The index of the one feature whose name contains `part` (chroma_correction_parameter's lookup).
std::size_t feature_containing(const Reader& r, const ModelFile& m, const char* part) {
  std::size_t found = m.features.size();
  for (std::size_t i = 0; i < m.features.size(); ++i)
    if (m.features[i].name.find(part) != std::string::npos) {
      if (found != m.features.size())
        r.fail(std::string("chroma_correction_parameter: more than one feature name contains '") + part + "'");
      found = i;
    }
  if (found == m.features.size())
    r.fail(std::string("chroma_correction_parameter needs a feature whose name contains '") + part + "'");
  return found;
}

ModelFile read_model(const Reader& r, const Json& doc, const FeatureNameCheck& check = {}) {
  if (!doc.is_object()) r.fail("not a VMAF model (the JSON is not an object)");
  auto md = doc.find("model_dict");
  if (md == doc.end()) {
    if (doc.contains("0")) r.fail("a model collection (bootstrap models), not a single model");
    r.fail("not a VMAF model (no 'model_dict')");
  }
  if (!md->is_object()) r.fail("model_dict must be an object");
  ModelFile m;

  const Json& type = r.member(*md, "model_type", "model_dict");
  if (!type.is_string()) r.fail("model_type must be a string");
  const std::string type_name = type.get<std::string>();
  if (type_name == "BOOTSTRAP_LIBSVMNUSVR") m.type = ModelType::kBootstrap;
  else if (type_name == "RESIDUEBOOTSTRAP_LIBSVMNUSVR") m.type = ModelType::kResidueBootstrap;
  else if (type_name != "LIBSVMNUSVR")
    r.fail("unknown model_type " + quote(type_name) +
           " (expected LIBSVMNUSVR, BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR)");

  const Json& names = r.member(*md, "feature_names", "model_dict");
  if (!names.is_array() || names.empty()) r.fail("feature_names must be a non-empty array of names");
  // Sizes and names first: nothing is built from a list of 100000 made-up names.
  if (names.size() > kMaxModelFeatures)
    r.fail("feature_names has " + std::to_string(names.size()) + " entries (at most " +
           std::to_string(kMaxModelFeatures) + ")");
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!names[i].is_string() || names[i].get<std::string>().empty())
      r.fail("feature_names[" + std::to_string(i) + "] must be a non-empty string");
    if (check) check(i, names[i].get<std::string>());
    m.features.push_back({names[i].get<std::string>(), {}});
  }
  const std::size_t n = m.features.size();

  if (auto it = md->find("feature_opts_dicts"); it != md->end()) {
    if (!it->is_array()) r.fail("feature_opts_dicts must be an array of objects");
    if (it->size() != n)
      r.fail("feature_opts_dicts has " + std::to_string(it->size()) + " entries for " + std::to_string(n) +
             " features");
    for (std::size_t i = 0; i < n; ++i)
      m.features[i].options = read_options(r, (*it)[i], "feature_opts_dicts[" + std::to_string(i) + "]");
  }

  const Json& norm = r.member(*md, "norm_type", "model_dict");
  if (!norm.is_string()) r.fail("norm_type must be a string");
  if (norm.get<std::string>() == "linear_rescale") m.linear_rescale = true;
  else if (norm.get<std::string>() != "none")
    r.fail("unknown norm_type " + quote(norm.get<std::string>()) + " (expected linear_rescale or none)");

  auto slopes = md->find("slopes");
  auto intercepts = md->find("intercepts");
  if (m.linear_rescale && slopes == md->end()) r.fail("linear_rescale needs 'slopes'");
  if (m.linear_rescale && intercepts == md->end()) r.fail("linear_rescale needs 'intercepts'");
  if (slopes != md->end()) {
    auto v = r.numbers(*slopes, "slopes", n + 1);
    m.slope = v[0];
    m.slopes.assign(v.begin() + 1, v.end());
  }
  if (intercepts != md->end()) {
    auto v = r.numbers(*intercepts, "intercepts", n + 1);
    m.intercept = v[0];
    m.intercepts.assign(v.begin() + 1, v.end());
  }
  if (m.linear_rescale && m.slope == 0) r.fail("slopes[0] is 0 (the score would be a division by zero)");
  if (!m.linear_rescale) {
    m.slope = 1;
    m.intercept = 0;
  }

  if (auto it = md->find("score_clip"); it != md->end()) {
    if (!it->is_array() || it->size() != 2) r.fail("score_clip must be [min, max]");
    const double lo = r.number((*it)[0], "score_clip[0]");
    const double hi = r.number((*it)[1], "score_clip[1]");
    if (!(lo <= hi)) r.fail("score_clip has min > max");
    m.clip = std::make_pair(lo, hi);
  }

  if (auto it = md->find("score_transform"); it != md->end()) m.transform = read_transform(r, *it);

  if (auto it = md->find("chroma_correction_parameter"); it != md->end()) {
    ChromaCorrection c;
    c.param = r.number(*it, "chroma_correction_parameter");
    // libvmaf writes no score with 0, and reads uninitialised values without both features.
    if (c.param == 0) r.fail("chroma_correction_parameter is 0 (libvmaf writes no score)");
    c.guiding = feature_containing(r, m, "adm3");
    c.guided = feature_containing(r, m, "speed_chroma");
    m.chroma_correction = c;
  }

  const Json& svm = r.member(*md, "model", "model_dict");
  if (!svm.is_string()) r.fail("'model' must be a string holding the libsvm model");
  try {
    m.svm = SvmModel::parse(svm.get<std::string>(), n);
  } catch (const Error& e) {
    r.fail(e.what());
  }
  return m;
}

Json parse_json(const Reader& r, std::string_view bytes) {
  if (bytes.size() > kMaxModelBytes)
    r.fail("is " + std::to_string(bytes.size()) + " bytes (a model is at most " + std::to_string(kMaxModelBytes) + ")");
  bool too_deep = false;
  try {
    // Models nest 4 levels (collections 5); a document nested deeper is refused while it is parsed.
    return Json::parse(bytes.begin(), bytes.end(), [&](int depth, Json::parse_event_t, Json&) {
      if (depth > kMaxJsonDepth) {
        too_deep = true;
        throw Error("too deep");
      }
      return true;
    });
  } catch (const Json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 3, column 7: ..." -> from "parse error".
    // The text quotes the bytes read last: printable, bounded.
    std::string what = e.what();
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    r.fail("not valid JSON (" + printable(what, 160) + ")");
  } catch (const Error&) {
    if (!too_deep) throw;
    r.fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
}

}  // namespace

ModelFile parse_model_file(std::string_view bytes, std::string_view source, const FeatureNameCheck& check) {
  const Reader r(source);
  const Json doc = parse_json(r, bytes);
  try {
    return read_model(r, doc, check);
  } catch (const Json::exception& e) {
    r.fail("unexpected content (" + printable(e.what(), 160) + ")");  // a type check missed above
  }
}

bool is_model_collection(std::string_view bytes) {
  if (bytes.size() > kMaxModelBytes) return false;  // parse_model_file says why
  bool too_deep = false;
  const Json doc = Json::parse(
      bytes.begin(), bytes.end(),
      [&](int depth, Json::parse_event_t, Json&) { return !(too_deep = too_deep || depth > kMaxJsonDepth); }, false);
  if (too_deep) return false;
  return doc.is_object() && !doc.contains("model_dict") && doc.contains("0");
}

std::vector<ModelFile> parse_model_collection(std::string_view bytes, std::string_view source) {
  const Reader r(source);
  parse_json(r, bytes);  // reports invalid JSON
  // The keys in file order (nlohmann::json would sort them: "10" before "2").
  const auto doc = nlohmann::ordered_json::parse(bytes.begin(), bytes.end());
  if (!doc.is_object()) r.fail("not a model collection (the JSON is not an object)");
  // libvmaf reads the keys "0", "1", ... in this order and skips anything else; a model out of
  // order would be skipped silently, so every key must be the next index.
  std::vector<ModelFile> models;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const std::string expected = std::to_string(models.size());
    if (it.key() != expected)
      r.fail("model collection: key '" + it.key() + "' where model '" + expected + "' is expected (keys 0, 1, ... in order)");
    const std::string where = std::string(source) + "', model '" + expected;  // Reader keeps a view
    const Reader inner(where);
    try {
      models.push_back(read_model(inner, Json::parse(it.value().dump())));
    } catch (const Json::exception& e) {
      inner.fail(std::string("unexpected content (") + e.what() + ")");
    }
  }
  if (models.size() < 2) r.fail("a model collection needs at least two models (\"0\" and \"1\")");
  for (std::size_t i = 1; i < models.size(); ++i) {
    if (models[i].type == ModelType::kSvm)
      r.fail("model collection: model '" + std::to_string(i) +
             "' is not a bootstrap model (BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR)");
    if (models[i].type != models[1].type)
      r.fail("model collection: model '" + std::to_string(i) + "' is not of model '1''s type");
  }
  return models;
}

}  // namespace vqtwin::models
