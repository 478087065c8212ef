// VMAF models for the engine: --model texts -> model files -> the contexts they need and the
// per-frame score written after the last frame.
#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <optional>

#include "core/quote.hpp"
#include "core/registry.hpp"
#include "models/bootstrap.hpp"
#include "models/builtin_models.hpp"
#include "models/feature_table.hpp"
#include "models/vmaf_model.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::models {
namespace {

// One feature of a model, bound to the extractor context that computes it.
struct BoundFeature {
  std::string output;  // where the extractor writes it: "integer_adm2_egl_1"
  const ExtractorInfo* info = nullptr;
  OptionValues options;
};

class VmafModel final : public Model {
 public:
  VmafModel(ModelFile file, std::string source, ModelSettings settings, std::vector<BoundFeature> bound)
      : file_(std::move(file)), source_(std::move(source)), settings_(std::move(settings)), bound_(std::move(bound)) {}

  const std::string& name() const override { return settings_.name; }

  std::vector<FeatureUse> features() const override {
    std::vector<FeatureUse> uses;
    std::vector<std::string> seen;
    for (const BoundFeature& b : bound_) {
      std::string key = std::string(b.info->name) + "|" + b.options.key();
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
      seen.push_back(std::move(key));
      uses.push_back({std::string(b.info->name), b.options.given()});
    }
    return uses;
  }

  void predict(Results& results, unsigned frames, unsigned subsample) const override {
    std::vector<double> raw(bound_.size()), scratch;
    // After every context's flush: the model scores come last, in model order (libvmaf's collector
    // order, which the writers follow).
    const Results::Order order{~std::uint64_t(0), ~std::uint32_t(0), settings_.rank};
    for (unsigned i = 0; i < frames; ++i) {
      if (subsample > 1 && i % subsample != 0) continue;
      for (std::size_t k = 0; k < bound_.size(); ++k) {
        auto v = results.value(bound_[k].output, i);
        if (!v)
          throw Error("model '" + settings_.name + "' (" + printable_path(source_) + "): no value of feature '" + bound_[k].output +
                      "' at frame " + std::to_string(i));
        raw[k] = *v;
      }
      results.put(settings_.name, i, predict_score(file_, raw, settings_.flags, scratch), order);
    }
  }

 private:
  ModelFile file_;
  std::string source_;
  ModelSettings settings_;
  std::vector<BoundFeature> bound_;
};

bool parse_flag(std::string_view key, std::string_view value, std::string_view text) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  throw Error("--model " + quote(text) + ": " + std::string(key) + " must be true or false, not " + quote(value));
}

// A model file: a regular file of at most kMaxModelBytes, read once (no /dev/zero, FIFO or
// multi-gigabyte file is read without end).
std::string read_file(const std::string& path) {
  const std::string where = "model " + quote(path, 240);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO must not block the open
  if (fd < 0) throw Error(where + ": cannot open (" + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st{};
  if (::fstat(fd, &st) != 0) throw Error(where + ": cannot open (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) throw Error(where + ": is a folder, not a model file");
  if (!S_ISREG(st.st_mode)) throw Error(where + ": is not a regular file (a model is read from a file)");
  if (std::uint64_t(st.st_size) > kMaxModelBytes)
    throw Error(where + ": is " + std::to_string(st.st_size) + " bytes (a model is at most " +
                std::to_string(kMaxModelBytes) + ")");
  std::string bytes(std::size_t(st.st_size) + 1, '\0');  // one more: a file that grew is seen
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t r = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw Error(where + ": read error (" + std::strerror(errno) + ")");
    if (r == 0) break;
    got += std::size_t(r);
  }
  if (got > kMaxModelBytes) throw Error(where + ": is over " + std::to_string(kMaxModelBytes) + " bytes");
  bytes.resize(got);
  return bytes;
}

// name=OUTPUT becomes a key in JSON, an attribute name in XML, a CSV column and a subtitle label:
// letters, digits, '_', '-' and '.', starting with a letter or '_' (what every writer accepts as is).
bool valid_output_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(name[0])) return false;
  for (char c : name)
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '-' && c != '.') return false;
  return true;
}

bool valid_version(std::string_view v) {
  return !v.empty() && v != "." && v != ".." && v.find('/') == std::string_view::npos &&
         v.find('\0') == std::string_view::npos;
}

}  // namespace

ModelRequest parse_model_text(std::string_view text) {
  ModelRequest req;
  bool have_name = false;
  auto fail = [&](const std::string& what) -> void { throw Error("--model " + quote(text) + ": " + what); };
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find(':', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = text.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    const bool has_value = eq != std::string_view::npos;
    const std::string_view value = has_value ? item.substr(eq + 1) : std::string_view{};
    if (key == "enable_transform") {
      req.settings.flags.enable_transform = !has_value || parse_flag(key, value, text);
    } else if (key == "disable_clip") {
      req.settings.flags.disable_clip = !has_value || parse_flag(key, value, text);
    } else if (!has_value) {
      fail(quote(item) + " is not of the form key=value");
    } else if (key == "path" || key == "version" || key == "name") {
      std::string& slot = key == "path" ? req.path : key == "version" ? req.version : req.settings.name;
      if ((key == "name" && have_name) || (key != "name" && !slot.empty())) fail(std::string(key) + " given twice");
      if (value.empty()) fail(std::string(key) + " is empty");
      if (key == "name" && !valid_output_name(value))
        fail("name " + quote(value) + " must be 1 to 64 letters, digits, '_', '-' or '.', starting with a letter or '_'");
      slot = std::string(value);
      if (key == "name") have_name = true;
    } else if (const std::size_t dot = key.find('.'); dot != std::string_view::npos && dot > 0 && dot + 1 < key.size()) {
      const std::string extractor(key.substr(0, dot));
      auto it = std::find_if(req.settings.overloads.begin(), req.settings.overloads.end(),
                             [&](const auto& o) { return o.first == extractor; });
      if (it == req.settings.overloads.end()) it = req.settings.overloads.insert(it, {extractor, {}});
      it->second.emplace_back(std::string(key.substr(dot + 1)), std::string(value));
    } else {
      fail("unknown key " + quote(key) +
           " (known: path, version, name, enable_transform, disable_clip, EXTRACTOR.OPTION)");
    }
  }
  if (req.path.empty() == req.version.empty()) fail("give exactly one of path=FILE or version=NAME");
  return req;
}

namespace {

// The extractor output behind a model's feature name: {output, extractor}.
std::optional<std::pair<std::string, std::string>> feature_output(const std::string& name) {
  if (auto src = feature_source(name)) return std::make_pair(std::string(src->output), std::string(src->extractor));
  if (const ExtractorInfo* p = find_provider(name)) return std::make_pair(name, std::string(p->name));  // a short name
  return std::nullopt;
}

// Each feature of `file` bound to its extractor context and output name, with the --model
// overloads applied (each overload must be used).
std::vector<BoundFeature> bind_features(const ModelFile& file, const std::string& where, const ModelSettings& settings,
                                        const ExtractorLookup& lookup) {
  std::vector<BoundFeature> bound;
  std::vector<bool> overload_used(settings.overloads.size(), false);
  for (std::size_t i = 0; i < file.features.size(); ++i) {
    const ModelFeature& f = file.features[i];
    const auto found = feature_output(f.name);
    if (!found) throw Error(where + ": unknown feature " + quote(f.name) + " (feature_names[" + std::to_string(i) + "])");
    const auto& [output, extractor] = *found;
    const ExtractorInfo* info = lookup(extractor);
    if (!info)
      throw Error(where + ": feature " + quote(f.name) + " needs the extractor '" + extractor +
                  "', which this build does not have");
    OptionPairs options = f.options;
    for (std::size_t o = 0; o < settings.overloads.size(); ++o) {
      const ExtractorInfo* target = lookup(settings.overloads[o].first);
      if (!target)
        throw Error(where + ": --model option for unknown extractor " + quote(settings.overloads[o].first));
      if (target != info) continue;
      overload_used[o] = true;
      options.insert(options.end(), settings.overloads[o].second.begin(), settings.overloads[o].second.end());
    }
    OptionValues values;
    try {
      values = OptionValues(info->spec->options, options, info->name);
    } catch (const Error& e) {
      throw Error(where + ": options of feature " + quote(f.name) + ": " + e.what());
    }
    bound.push_back({values.output_name(output), info, std::move(values)});
  }
  for (std::size_t o = 0; o < settings.overloads.size(); ++o)
    if (!overload_used[o])
      throw Error(where + ": --model option for extractor " + quote(settings.overloads[o].first) +
                  ", which this model does not use");
  return bound;
}

// The name of a collection's bootstrap model i (1-based): libvmaf's "%s_%04d".
std::string member_name(const std::string& name, std::size_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "_%04u", unsigned(i % 100000));
  return name + buf;
}

// A bootstrap model collection: model 0 writes the score under the model's name like any model;
// models 1..n write name_0001.., and the statistics of their raw scores give name_bagging,
// name_stddev, name_ci_p95_lo and name_ci_p95_hi (libvmaf's outputs, in its order, after every
// single model's score).
class BootstrapCollection final : public Model {
 public:
  BootstrapCollection(std::unique_ptr<Model> main, std::vector<ModelFile> members,
                      std::vector<std::vector<BoundFeature>> bound, std::string source, ModelSettings settings)
      : main_(std::move(main)),
        members_(std::move(members)),
        bound_(std::move(bound)),
        source_(std::move(source)),
        settings_(std::move(settings)) {}

  const std::string& name() const override { return settings_.name; }

  std::vector<FeatureUse> features() const override {
    std::vector<FeatureUse> uses = main_->features();
    for (const auto& bound : bound_)
      for (const BoundFeature& b : bound) {
        FeatureUse use{std::string(b.info->name), b.options.given()};
        const bool seen = std::any_of(uses.begin(), uses.end(), [&](const FeatureUse& u) {
          return u.extractor == use.extractor && OptionValues(b.info->spec->options, u.options, b.info->name).key() ==
                                                     b.options.key();
        });
        if (!seen) uses.push_back(std::move(use));
      }
    return uses;
  }

  void predict(Results& results, unsigned frames, unsigned subsample) const override {
    main_->predict(results, frames, subsample);
    const std::size_t n = members_.size();
    std::vector<std::string> names;
    for (std::size_t m = 0; m < n; ++m) names.push_back(member_name(settings_.name, m + 1));
    for (const char* suffix : {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"}) names.push_back(settings_.name + suffix);
    auto order = [&](std::size_t k) {
      return Results::Order{~std::uint64_t(0), ~std::uint32_t(0), kCollectionRank + settings_.rank * 256 + std::uint32_t(k)};
    };
    std::vector<double> raw, scratch, scores(n);
    const ModelFile& first = members_[0];
    const ScoreFlags raw_flags{false, false, true};
    for (unsigned i = 0; i < frames; ++i) {
      if (subsample > 1 && i % subsample != 0) continue;
      for (std::size_t m = 0; m < n; ++m) {
        raw.resize(bound_[m].size());
        for (std::size_t k = 0; k < bound_[m].size(); ++k) {
          auto v = results.value(bound_[m][k].output, i);
          if (!v)
            throw Error("model '" + names[m] + "' (" + source_ + "): no value of feature '" + bound_[m][k].output +
                        "' at frame " + std::to_string(i));
          raw[k] = *v;
        }
        // The statistics use the raw scores; each model's own score is transformed and clipped.
        scores[m] = predict_score(members_[m], raw, raw_flags, scratch);
        results.put(names[m], i, predict_score(members_[m], raw, settings_.flags, scratch), order(m));
      }
      const BootstrapStats st = bootstrap_stats(scores);
      // The mean and the interval through model 1's transform and clip; the deviation scaled by
      // that transform's slope around the mean (central difference, delta 0.01).
      const double delta = 0.01;
      const double plus = finish_score(first, st.mean + delta, settings_.flags);
      const double minus = finish_score(first, st.mean - delta, settings_.flags);
      const double slope = (plus - minus) / (2.0 * delta);
      results.put(names[n], i, finish_score(first, st.mean, settings_.flags), order(n));
      results.put(names[n + 1], i, st.stddev * slope, order(n + 1));
      results.put(names[n + 2], i, finish_score(first, st.lo, settings_.flags), order(n + 2));
      results.put(names[n + 3], i, finish_score(first, st.hi, settings_.flags), order(n + 3));
    }
  }

 private:
  // Collections write after every single model (libvmaf predicts them last).
  static constexpr std::uint32_t kCollectionRank = 1u << 24;
  std::unique_ptr<Model> main_;
  std::vector<ModelFile> members_;
  std::vector<std::vector<BoundFeature>> bound_;
  std::string source_;
  ModelSettings settings_;
};

}  // namespace

std::unique_ptr<Model> make_model(std::string_view bytes, std::string_view source, const ModelSettings& settings,
                                  const ExtractorLookup& lookup) {
  const std::string where = "model " + quote(source, 240);
  if (is_model_collection(bytes)) {
    std::vector<ModelFile> files = parse_model_collection(bytes, source);
    std::vector<std::vector<BoundFeature>> bound;
    for (std::size_t m = 1; m < files.size(); ++m)
      bound.push_back(bind_features(files[m], where + " (model " + std::to_string(m) + ")", settings, lookup));
    std::vector<BoundFeature> main_bound = bind_features(files[0], where, settings, lookup);
    auto main = std::make_unique<VmafModel>(std::move(files[0]), std::string(source), settings, std::move(main_bound));
    files.erase(files.begin());
    return std::make_unique<BootstrapCollection>(std::move(main), std::move(files), std::move(bound), std::string(source),
                                                 settings);
  }
  ModelFile file = parse_model_file(bytes, source, [&](std::size_t i, const std::string& name) {
    if (!feature_output(name))
      throw Error(where + ": unknown feature " + quote(name) + " (feature_names[" + std::to_string(i) + "])");
  });
  std::vector<BoundFeature> bound = bind_features(file, where, settings, lookup);
  return std::make_unique<VmafModel>(std::move(file), std::string(source), settings, std::move(bound));
}

std::vector<std::unique_ptr<Model>> load_models(const std::vector<std::string>& texts) {
  // All texts first: a typo or a name clash is reported before any file is read.
  std::vector<ModelRequest> requests;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    requests.push_back(parse_model_text(texts[i]));
    requests.back().settings.rank = std::uint32_t(i);
    for (std::size_t j = 0; j < i; ++j)
      if (requests[j].settings.name == requests[i].settings.name)
        throw Error("--model: two models write the score '" + requests[i].settings.name +
                    "'; give each its own name=");
  }
  std::vector<std::unique_ptr<Model>> models;
  for (const ModelRequest& req : requests) {
    std::string path = req.path;
    if (!req.version.empty()) {
      if (!valid_version(req.version))
        throw Error("--model version=" + printable(req.version) + ": a version is a model name, not a path (use path=FILE)");
      if (auto builtin = find_builtin_model(req.version)) {
        models.push_back(make_model(std::string(*builtin), "built-in model " + req.version, req.settings,
                                    [](std::string_view n) { return find_extractor(n); }));
        continue;
      }
      auto found = find_model_file(req.version);
      if (!found) {
        std::string folders;
        for (const std::string& d : model_search_path()) folders += (folders.empty() ? "" : ", ") + d;
        throw Error("--model version=" + printable(req.version) + ": no " + printable(req.version) +
                    ".json in the model search path (" + printable(folders, 600) +
                    "); set VQTWIN_MODEL_PATH to its folder or give path=FILE");
      }
      path = *found;
    }
    const std::string bytes = read_file(path);
    models.push_back(make_model(bytes, path, req.settings, [](std::string_view n) { return find_extractor(n); }));
  }
  return models;
}

}  // namespace vqtwin::models
