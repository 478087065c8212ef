#include "golden_support.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "vqtwin/backend.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/output.hpp"

namespace fs = std::filesystem;

namespace vqtwin::test {

std::string shared_dir() {
  if (const char* e = std::getenv("VQTWIN_SHARED_DIR")) return e;
  return VQTWIN_SHARED_DIR;
}

std::string fixtures_dir() {
  if (const char* e = std::getenv("VQTWIN_FIXTURES_DIR")) return e;
  return VQTWIN_FIXTURES_DIR;
}

std::vector<std::string> golden_backends() {
  const char* e = std::getenv("VQTWIN_GOLDEN_BACKENDS");
  std::istringstream in(e && *e ? e : "cpu");
  std::vector<std::string> out;
  for (std::string b; in >> b;) out.push_back(b);
  return out;
}

Backend backend_of(const std::string& name) {
  const auto b = parse_backend(name);
  if (!b) throw Error("VQTWIN_GOLDEN_BACKENDS: unknown backend '" + name + "'");
  return *b;
}

std::string name_part(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return text;
}

namespace {

std::vector<std::string> golden_pairs() {
  std::vector<std::string> pairs;
  if (!fs::is_directory(shared_dir() + "/golden")) return pairs;
  for (const auto& e : fs::directory_iterator(shared_dir() + "/golden"))
    if (e.is_directory()) pairs.push_back(e.path().filename().string());
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

std::vector<std::string> with_suffix(const std::vector<std::string>& names, const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& n : names) out.push_back(n + suffix);
  return out;
}

}  // namespace

std::optional<Rcpss> golden_rcpss(const std::string& run) {
  static const std::vector<std::pair<std::string, Rcpss>> table = [] {
    std::vector<std::pair<std::string, Rcpss>> t;
    std::ifstream tsv(VQTWIN_GOLDEN_RCPSS);
    if (!tsv) throw Error(std::string("cannot read ") + VQTWIN_GOLDEN_RCPSS);
    std::string line;
    while (std::getline(tsv, line)) {
      if (line.empty() || line[0] == '#') continue;
      const auto tab = line.find('\t');
      const auto cpu = tab == std::string::npos ? std::nullopt : parse_rcpss(line.substr(tab + 1));
      if (!cpu || *cpu == Rcpss::kNative) throw Error(std::string(VQTWIN_GOLDEN_RCPSS) + ": bad line '" + line + "'");
      t.emplace_back(line.substr(0, tab), *cpu);
    }
    return t;
  }();
  for (const auto& [name, cpu] : table)
    if (name == run) return cpu;
  return std::nullopt;
}

std::vector<SliceRun> slice_runs() {
  const std::vector<std::string> vif = {"integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
                                        "integer_vif_scale3"};
  const std::vector<std::string> adm = {"integer_adm2",       "integer_aim",        "integer_adm3",
                                        "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
                                        "integer_adm_scale3"};
  const std::vector<std::string> motion = {"VMAF_integer_feature_motion_sad_score", "integer_motion2",
                                           "integer_motion3"};
  struct Slice {
    const char* run;
    const char* feature;
    std::vector<std::string> names;
    unsigned frame_cnt = 0;  // the run's --frame_cnt (runs.tsv)
  };
  // The model runs' features with the options the models give them (vmaf_v0.6.1neg: gain limit 1).
  const Slice slices[] = {
      {"vmaf_v0.6.1", "vif", vif},
      {"vmaf_v0.6.1neg", "vif=vif_enhn_gain_limit=1", with_suffix(vif, "_egl_1")},
      {"vmaf_v0.6.1", "adm", adm},
      {"vmaf_4k_v0.6.1", "adm", adm},
      {"vmaf_v0.6.1neg", "adm=adm_enhn_gain_limit=1", with_suffix(adm, "_egl_1")},
      {"vmaf_v0.6.1", "motion", motion},
      {"vmaf_v0.6.1neg", "motion", motion},
      {"vmaf_4k_v0.6.1", "motion", motion},
      {"vmaf_float_v0.6.1", "float_vif", {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"}},
      {"vmaf_float_v0.6.1",
       "float_adm",
       {"adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"}},
      // An added (Intel) run: float ADM with the Intel rcpss table and the model's gain limit.
      {"vmaf_float_v0.6.1neg",
       "float_adm=adm_enhn_gain_limit=1",
       with_suffix({"adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"}, "_egl_1"),
       12},
  };
  std::vector<SliceRun> out;
  for (const auto& backend : golden_backends())
    for (const auto& pair : golden_pairs())
      for (const Slice& s : slices) {
        const std::string file = shared_dir() + "/golden/" + pair + "/" + s.run + ".max.json";
        if (fs::exists(file))
          out.push_back({pair, file, s.feature, s.names, backend, s.frame_cnt, golden_rcpss(s.run)});
      }
  return out;
}

std::vector<GoldenRun> golden_runs() {
  std::vector<std::pair<std::string, std::string>> runs;
  std::ifstream tsv(shared_dir() + "/golden/runs.tsv");
  std::string line;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    runs.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  std::vector<GoldenRun> out;
  for (const auto& backend : golden_backends())
    for (const auto& pair : golden_pairs())
      for (const auto& [run, args] : runs) {
        const std::string dir = shared_dir() + "/golden/" + pair + "/";
        const std::string file = run == "ssim" ? dir + "fork_ssim.json" : dir + run + ".max.json";
        if (fs::exists(file)) out.push_back({pair, run, args, file, backend, golden_rcpss(run)});
      }
  return out;
}

std::pair<std::string, std::string> inputs_of(const std::string& pair) {
  const std::string dir = fixtures_dir() + "/";
  if (pair.rfind("identical_", 0) == 0) {
    // identical_<size>_<rest> compares the ref of the fixture pair with the same <size>_<rest>.
    const std::string tail = pair.substr(std::strlen("identical_"));
    for (const auto& e : fs::directory_iterator(shared_dir() + "/fixtures")) {
      const std::string n = e.path().filename().string();
      if (n.size() > tail.size() + 8 && n.ends_with("_ref.mkv")) {
        const std::string base = n.substr(0, n.size() - std::strlen("_ref.mkv"));
        if (base.size() >= tail.size() && base.compare(base.size() - tail.size(), tail.size(), tail) == 0 &&
            base[base.size() - tail.size() - 1] == '_')
          return {dir + base + "_ref.y4m", dir + base + "_ref.y4m"};
      }
    }
    throw Error("no fixture for " + pair);
  }
  return {dir + pair + "_ref.y4m", dir + pair + "_dist.y4m"};
}

void apply_args(const std::string& args, RunConfig& cfg) {
  std::istringstream in(args);
  std::string tok;
  auto value = [&](const std::string& flag) {
    std::string v;
    if (!(in >> v)) throw Error("golden args: " + flag + " without a value");
    return v;
  };
  while (in >> tok) {
    if (tok == "--no_prediction") cfg.no_prediction = true;
    else if (tok == "--feature") cfg.features.push_back(value(tok));
    else if (tok == "--model") cfg.models.push_back(value(tok));
    else if (tok == "--frame_cnt") cfg.frame_cnt = unsigned(std::stoul(value(tok)));
    else if (tok == "--aom_ctc" || tok == "--nflx_ctc") apply_preset(tok.substr(2), value(tok), cfg);
    else throw Error("golden args: unexpected '" + tok + "'");
  }
}

nlohmann::ordered_json results_to_json(const Results& results, unsigned subsample) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* mem = open_memstream(&buf, &len);
  OutputOptions o;
  o.format = OutputFormat::kJson;
  o.precision = OutputOptions::kMaxPrecision;
  o.subsample = subsample;
  write_output(mem, results, o);
  std::fclose(mem);
  std::string text(buf, len);
  std::free(buf);
  return nlohmann::ordered_json::parse(text);
}

nlohmann::ordered_json run_to_json(const RunConfig& cfg) {
  Results results;
  run(cfg, results);
  return results_to_json(results, cfg.subsample);
}

nlohmann::ordered_json load_json(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Error("cannot read " + path);
  return nlohmann::ordered_json::parse(f);
}

namespace {

std::string show(const nlohmann::ordered_json& v) { return v.is_null() ? "null" : v.dump(17); }

// Exact equality of two numbers as written with %.17g (null = a non-finite value).
bool same_value(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (!a.is_number() || !b.is_number()) return a == b;
  const double x = a.get<double>(), y = b.get<double>();
  return std::memcmp(&x, &y, sizeof x) == 0 || (x == 0 && y == 0);
}

void compare_objects(const std::string& where, const nlohmann::ordered_json& ours, const nlohmann::ordered_json& gold,
                     const std::vector<std::pair<std::string, std::string>>& rename, std::vector<std::string>& diffs,
                     std::size_t max_reports) {
  auto mapped = [&](const std::string& k) {
    for (const auto& [a, b] : rename)
      if (a == k) return b;
    return k;
  };
  std::vector<std::string> our_keys, gold_keys;
  for (auto it = ours.begin(); it != ours.end(); ++it) our_keys.push_back(mapped(it.key()));
  for (auto it = gold.begin(); it != gold.end(); ++it) gold_keys.push_back(it.key());
  if (our_keys != gold_keys && diffs.size() < max_reports) {
    std::string a, b;
    for (auto& k : our_keys) a += k + " ";
    for (auto& k : gold_keys) b += k + " ";
    diffs.push_back(where + ": names [" + a + "] != golden [" + b + "]");
  }
  for (auto it = ours.begin(); it != ours.end(); ++it) {
    const std::string k = mapped(it.key());
    if (!gold.contains(k)) continue;
    const auto& g = gold[k];
    if (it->is_object() && g.is_object()) {
      compare_objects(where + "." + k, *it, g, rename, diffs, max_reports);
    } else if (!same_value(*it, g) && diffs.size() < max_reports) {
      diffs.push_back(where + "." + k + ": " + show(*it) + " != golden " + show(g));
    }
  }
}

}  // namespace

std::vector<std::string> compare_outputs(const nlohmann::ordered_json& ours, const nlohmann::ordered_json& golden,
                                         const std::vector<std::pair<std::string, std::string>>& rename,
                                         std::size_t max_reports) {
  std::vector<std::string> diffs;
  const auto& fo = ours["frames"];
  const auto& fg = golden["frames"];
  if (fo.size() != fg.size())
    diffs.push_back("frames: " + std::to_string(fo.size()) + " != golden " + std::to_string(fg.size()));
  for (std::size_t i = 0; i < std::min(fo.size(), fg.size()); ++i) {
    if (fo[i]["frameNum"] != fg[i]["frameNum"]) diffs.push_back("frame " + std::to_string(i) + ": frameNum differs");
    compare_objects("frame " + std::to_string(i), fo[i]["metrics"], fg[i]["metrics"], rename, diffs, max_reports);
  }
  compare_objects("pooled_metrics", ours["pooled_metrics"], golden["pooled_metrics"], rename, diffs, max_reports);
  compare_objects("aggregate_metrics", ours["aggregate_metrics"], golden["aggregate_metrics"], rename, diffs,
                  max_reports);
  return diffs;
}

std::vector<std::string> compare_slice(const nlohmann::ordered_json& ours, const nlohmann::ordered_json& golden,
                                       const std::vector<std::string>& names, std::size_t max_reports) {
  std::vector<std::string> diffs;
  auto report = [&](std::string d) {
    if (diffs.size() < max_reports) diffs.push_back(std::move(d));
  };
  const auto& fo = ours["frames"];
  const auto& fg = golden["frames"];
  if (fo.size() != fg.size())
    report("frames: " + std::to_string(fo.size()) + " != golden " + std::to_string(fg.size()));
  for (std::size_t i = 0; i < std::min(fo.size(), fg.size()); ++i) {
    const auto& mo = fo[i]["metrics"];
    const auto& mg = fg[i]["metrics"];
    std::vector<std::string> order;
    for (auto it = mo.begin(); it != mo.end(); ++it) order.push_back(it.key());
    if (order != names) report("frame " + std::to_string(i) + ": our names differ from the expected ones");
    for (const auto& n : names) {
      if (!mg.contains(n) || !mo.contains(n)) {
        report("frame " + std::to_string(i) + ": " + n + " missing" + (mg.contains(n) ? "" : " in the golden"));
        continue;
      }
      if (!same_value(mo[n], mg[n]))
        report("frame " + std::to_string(i) + " " + n + ": " + show(mo[n]) + " != golden " + show(mg[n]));
    }
  }
  for (const auto& n : names) {
    const auto& pg = golden["pooled_metrics"];
    if (!pg.contains(n)) continue;
    for (auto it = pg[n].begin(); it != pg[n].end(); ++it) {
      const auto& po = ours["pooled_metrics"];
      if (!po.contains(n) || !po[n].contains(it.key()) || !same_value(po[n][it.key()], *it))
        report("pooled " + n + " " + it.key() + ": " +
               (po.contains(n) && po[n].contains(it.key()) ? show(po[n][it.key()]) : std::string("missing")) +
               " != golden " + show(*it));
    }
  }
  return diffs;
}

}  // namespace vqtwin::test
