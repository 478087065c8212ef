// The twin harness (checkasm's spirit, for device twins): every twin in the registry against its
// CPU reference, found through the feature spec they share, so a new twin is covered with no new
// test code. Generated planes of 8/10/12/16 bits, 4:2:0/4:2:2/4:4:4/4:0:0, sizes from tiny and odd
// to 8K, every option of the schema (booleans both ways, integers of small ranges at every value,
// other numbers at min/default/max and a random value, every pair of options both off their default,
// then random combinations), flat / identical /
// extreme / random / textured content and any 16-bit word at 10/12 bits,
// multi-frame sequences with a scene cut and a static run (for temporal twins), and the shared
// fixtures when given; 10/12-bit planes also get samples of 2^bpc or more ("wild": libvmaf accepts them).
// Pass = every value bit-identical, the same names, the same refusals. Cases the twin's capability
// check leaves to the CPU (-ENOTSUP: a model falls back there) are counted ("to CPU"), not compared.
//
//   twin_harness [--backend cuda|vulkan] [--quick] [--only NAME[,NAME...]] [--skip NAME[,NAME...]] [--fixtures DIR] [--frames N] [--shard K/N]
//                [--first-difference] [--fixtures-only] [--phases small,options,pairs,large,deep] [--sanitizer]
//                (--sanitizer: --quick --phases sanitizer-sizes,sanitizer-sets)
//                [--case WxH:BPC:CHROMA:CONTENT[:k=v,...] [--repeat N]]   (one case, every value printed)
// --backend picks the device backend whose twins run (default cuda): the same matrix for each.
// Exit 0 all identical, 1 a difference, 77 no device of that backend (CTest: skipped). $VQTWIN_PLANT=name
// plants a bug in a twin: the run must then fail (backends/cuda/twin.hpp, backends/vulkan/twin.hpp).
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "backends/device.hpp"
#include "core/registry.hpp"
#include "io/picture_source.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

class RecordingSink final : public FeatureSink {
 public:
  void put(std::string_view name, unsigned frame, double value) override {
    std::lock_guard lock(mutex_);
    values[std::string(name) + "#" + std::to_string(frame)] = value;
  }
  void aggregate(std::string_view name, double value) override {
    std::lock_guard lock(mutex_);
    values["aggregate:" + std::string(name)] = value;
  }
  std::map<std::string, double> values;

 private:
  std::mutex mutex_;
};

// What one implementation did on one case: its values, or the error it refused with.
struct Outcome {
  std::map<std::string, double> values;
  std::optional<std::string> refused;
};

Outcome run_implementation(const ExtractorInfo& info, const OptionValues& options, const std::vector<Picture>& refs,
                           const std::vector<Picture>& dists) {
  Outcome o;
  try {
    auto ex = info.create(options);
    ex->init(refs[0].format());
    RecordingSink sink;
    for (std::size_t i = 0; i < refs.size(); ++i) ex->extract(refs[i], dists[i], unsigned(i), sink);
    ex->flush(sink);
    o.values = std::move(sink.values);
  } catch (const Error& e) {
    o.refused = e.what();
  }
  return o;
}

// ---- content ----------------------------------------------------------------------------------

// kWild: any 16-bit word at 10 and 12 bits (libvmaf accepts words of 2^bpc or more there,
// core/sample_range.hpp), random samples at 8 and 16.
enum class Content { kFlat, kIdentical, kExtreme, kRandom, kTexture, kWild };
const char* to_string(Content c) {
  switch (c) {
    case Content::kFlat: return "flat";
    case Content::kIdentical: return "identical";
    case Content::kExtreme: return "extreme";
    case Content::kRandom: return "random";
    case Content::kTexture: return "texture";
    case Content::kWild: return "wild";
  }
  return "?";
}

void set_sample(Picture& pic, int p, int x, int y, unsigned v) {
  if (pic.format().bitdepth > 8) pic.row<std::uint16_t>(p, y)[x] = std::uint16_t(v);
  else pic.row<std::uint8_t>(p, y)[x] = std::uint8_t(v);
}

// Frame `frame` of a sequence: a texture that moves, with a scene cut at frame 3 and a static run
// after it (frames 4 and 5 equal), so temporal twins meet motion, a cut and stillness.
void fill(Picture& ref, Picture& dist, Content content, unsigned frame, std::mt19937& rng) {
  const PictureFormat& f = ref.format();
  const unsigned max = (1u << f.bitdepth) - 1;
  const unsigned scene = frame >= 3 ? 1 : 0;
  const unsigned t = frame >= 4 ? 4 : frame;
  std::uniform_int_distribution<unsigned> any(0, max);
  const unsigned word_max = f.bitdepth > 8 ? 65535u : 255u;
  std::uniform_int_distribution<unsigned> word(0, word_max);
  std::uniform_int_distribution<int> noise(-3, 3);
  for (int p = 0; p < f.num_planes(); ++p)
    for (int y = 0; y < ref.height(p); ++y)
      for (int x = 0; x < ref.width(p); ++x) {
        unsigned r = 0, d = 0;
        switch (content) {
          case Content::kFlat: r = d = (max + 1) / 3 + p; break;
          case Content::kIdentical:
          case Content::kTexture: {
            const double phase = 0.07 * (x + 3.0 * t) + 0.05 * y * (scene ? -1.3 : 1.0) + p;
            const double v = (0.5 + 0.35 * std::sin(phase) + 0.1 * std::sin(0.31 * x * (p + 1) - 0.17 * y)) * max;
            r = unsigned(std::lround(std::clamp(v, 0.0, double(max))));
            d = content == Content::kIdentical
                    ? r
                    : unsigned(std::clamp(int(r) + noise(rng) * int(1u << (f.bitdepth - 8)), 0, int(max)));
            break;
          }
          case Content::kExtreme: r = ((x / 7 + y / 5 + frame) & 1) ? max : 0; d = max - r; break;
          case Content::kRandom: r = any(rng); d = any(rng); break;
          case Content::kWild:
            // Runs of the largest word (windows full of it) beside random words.
            r = ((x / 5 + y / 4 + frame) % 3) == 0 ? word_max : word(rng);
            d = ((x / 4 + y / 5) % 3) == 0 ? word_max : word(rng);
            break;
        }
        set_sample(ref, p, x, y, r);
        set_sample(dist, p, x, y, d);
      }
}

// ---- options ----------------------------------------------------------------------------------

std::string number_text(const OptionSpec& o, double v) {
  char buf[64];
  if (o.type == OptionType::kInt) std::snprintf(buf, sizeof buf, "%lld", (long long)std::llround(v));
  else std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Option sets: defaults; each option alone at its interesting values; every boolean on; random
// combinations. Values a CPU context refuses at creation are dropped (they cannot reach a twin).
std::vector<OptionPairs> option_sets(const FeatureSpec& spec, std::mt19937& rng, bool quick) {
  std::vector<OptionPairs> sets{{}};
  std::vector<std::vector<std::string>> choices(spec.options.size());
  for (std::size_t i = 0; i < spec.options.size(); ++i) {
    const OptionSpec& o = spec.options[i];
    auto& c = choices[i];
    switch (o.type) {
      case OptionType::kBool: c = {"true", "false"}; break;
      case OptionType::kString: break;  // the default only: string values name files or modes
      case OptionType::kInt:
        if (o.max - o.min <= 16) {  // small ranges (scale, filter sizes): every value
          for (long long v = (long long)o.min; v <= (long long)o.max; ++v) c.push_back(number_text(o, double(v)));
          break;
        }
        [[fallthrough]];
      case OptionType::kDouble: {
        const double hi = std::min(o.max, o.min + 1e6);  // no 1e308 pictures of work
        c = {number_text(o, o.min), number_text(o, o.default_value), number_text(o, hi)};
        std::uniform_real_distribution<double> u(o.min, hi);
        c.push_back(number_text(o, u(rng)));
        break;
      }
    }
    for (const auto& v : c) sets.push_back({{std::string(o.name), v}});
  }
  OptionPairs all_on;
  for (const OptionSpec& o : spec.options)
    if (o.type == OptionType::kBool) all_on.push_back({std::string(o.name), "true"});
  if (!all_on.empty()) sets.push_back(all_on);
  for (int k = 0; k < (quick ? 2 : 6); ++k) {
    OptionPairs mix;
    for (std::size_t i = 0; i < spec.options.size(); ++i)
      if (!choices[i].empty() && rng() % 2)
        mix.push_back({std::string(spec.options[i].name), choices[i][rng() % choices[i].size()]});
    sets.push_back(mix);
  }
  return sets;
}

// Every pair of options, both at a value other than their default: the options' interplay (a bug
// can live between two options that are each right alone). Booleans take their other value; small
// integer ranges a non-default value that rotates from pair to pair; wider ranges a random value
// inside the range (the range's ends are covered alone, and often zero the whole score).
std::vector<OptionPairs> option_pairs(const FeatureSpec& spec, std::mt19937& rng) {
  const std::size_t n = spec.options.size();
  std::vector<std::vector<std::string>> other(n);  // the non-default values each option can take here
  for (std::size_t i = 0; i < n; ++i) {
    const OptionSpec& o = spec.options[i];
    switch (o.type) {
      case OptionType::kBool: other[i] = {o.default_value != 0 ? "false" : "true"}; break;
      case OptionType::kString: break;
      case OptionType::kInt:
        if (o.max - o.min <= 16) {
          for (long long v = (long long)o.min; v <= (long long)o.max; ++v)
            if (double(v) != o.default_value) other[i].push_back(number_text(o, double(v)));
          break;
        }
        [[fallthrough]];
      case OptionType::kDouble: {
        const double hi = std::min(o.max, o.min + 1e6);
        std::uniform_real_distribution<double> u(o.min, hi);
        for (int k = 0; k < 4 && other[i].empty(); ++k) {
          const std::string v = number_text(o, u(rng));
          if (v != number_text(o, o.default_value)) other[i].push_back(v);
        }
        break;
      }
    }
  }
  std::vector<OptionPairs> sets;
  std::size_t turn = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      if (other[i].empty() || other[j].empty()) continue;
      ++turn;
      sets.push_back({{std::string(spec.options[i].name), other[i][turn % other[i].size()]},
                      {std::string(spec.options[j].name), other[j][turn % other[j].size()]}});
    }
  return sets;
}

std::string describe(const OptionPairs& pairs) {
  std::string s;
  for (const auto& [k, v] : pairs) s += (s.empty() ? "" : ":") + k + "=" + v;
  return s.empty() ? "defaults" : s;
}

// ---- comparison -------------------------------------------------------------------------------

struct Tally {
  unsigned long cases = 0, refused_both = 0, unsupported = 0, values = 0, identical = 0, failures = 0;
  double max_delta = 0;
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void compare(const std::string& twin, const std::string& what, const Outcome& cpu, const Outcome& dev, Tally& t) {
  ++t.cases;
  if (cpu.refused || dev.refused) {
    if (cpu.refused && dev.refused) {
      ++t.refused_both;
      return;
    }
    ++t.failures;
    std::printf("  DIFF %s %s: %s\n", twin.c_str(), what.c_str(),
                cpu.refused ? ("CPU refused (" + *cpu.refused + "), twin computed").c_str()
                            : ("twin refused (" + *dev.refused + "), CPU computed").c_str());
    return;
  }
  bool reported = false;
  for (const auto& [name, v] : cpu.values) {
    ++t.values;
    auto it = dev.values.find(name);
    if (it == dev.values.end()) {
      ++t.failures;
      if (!reported) std::printf("  DIFF %s %s: %s missing from the twin\n", twin.c_str(), what.c_str(), name.c_str());
      reported = true;
      continue;
    }
    if (same_bits(v, it->second)) {
      ++t.identical;
      continue;
    }
    ++t.failures;
    const double d = std::fabs(v - it->second);
    if (std::isfinite(d)) t.max_delta = std::max(t.max_delta, d);
    if (!reported)
      std::printf("  DIFF %s %s: %s cpu %.17g twin %.17g\n", twin.c_str(), what.c_str(), name.c_str(), v, it->second);
    reported = true;
  }
  for (const auto& [name, v] : dev.values)
    if (!cpu.values.count(name)) {
      ++t.failures;
      std::printf("  DIFF %s %s: the twin writes %s, the CPU does not\n", twin.c_str(), what.c_str(), name.c_str());
    }
}

struct Geometry {
  int w, h;
};

struct Args {
  bool quick = false;
  std::string only;
  std::string skip;  // --skip: twins left out (CI runs them in their own reduced test)
  std::string fixtures;
  unsigned fixture_frames = 4;
  bool stop_at_first = false;      // --first-difference: stop at the first differing case (plants)
  unsigned shard = 0, shards = 1;  // --shard K/N: cases K, K+N, K+2N, ... (parallel runs)
  // Whether case number `index` belongs to this run (cases are numbered in a fixed order, and each
  // case's content comes from its own seed, so every shard computes the same cases as a whole run).
  bool mine(unsigned long index) const { return index % shards == shard; }
  bool generated = true;                       // --fixtures-only: false
  std::string phases = "small,options,pairs,large";  // --phases: which parts of the generated matrix run (deep: when named)
  std::string one_case;  // --case WxH:BPC:CHROMA:CONTENT[:OPTIONS]: that case alone, --repeat times
  unsigned repeat = 1;
  Backend backend = Backend::kCuda;  // --backend: whose twins
};

// --case: one generated case (as run_generated makes it), run `repeat` times; every value of both
// sides printed where they differ. For chasing a difference the full run reported.
bool run_one_case(const ExtractorInfo& twin, const ExtractorInfo& cpu, const Args& a, Tally& t) {
  int w = 0, h = 0, bd = 8;
  char chroma[8] = {}, content[16] = {};
  char opts[512] = {};
  if (std::sscanf(a.one_case.c_str(), "%dx%d:%d:%7[0-9]:%15[a-z]:%511s", &w, &h, &bd, chroma, content, opts) < 5) {
    std::fprintf(stderr, "twin_harness: --case WxH:BPC:420|422|444|400:CONTENT[:k=v,k=v]\n");
    return false;
  }
  const std::string ch = chroma;
  const ChromaFormat cf = ch == "444" ? ChromaFormat::k444 : ch == "422" ? ChromaFormat::k422 : ch == "400" ? ChromaFormat::k400 : ChromaFormat::k420;
  Content c = Content::kTexture;
  for (Content k : {Content::kFlat, Content::kIdentical, Content::kExtreme, Content::kRandom, Content::kTexture, Content::kWild})
    if (std::string(to_string(k)) == content) c = k;
  OptionPairs pairs;
  std::string rest = opts;
  for (std::size_t at = 0; at < rest.size();) {
    const std::size_t end = std::min(rest.find(',', at), rest.size());
    const std::string kv = rest.substr(at, end - at);
    const std::size_t eq = kv.find('=');
    if (eq != std::string::npos) pairs.push_back({kv.substr(0, eq), kv.substr(eq + 1)});
    at = end + 1;
  }
  const OptionValues options(twin.spec->options, pairs, twin.name);
  const PictureFormat f{w, h, bd, cf};
  const unsigned frames = twin.spec->temporal ? 6 : 2;
  for (unsigned r = 0; r < a.repeat; ++r) {
    std::mt19937 rng(20261202);
    std::vector<Picture> refs, dists;
    for (unsigned i = 0; i < frames; ++i) {
      refs.emplace_back(f);
      dists.emplace_back(f);
      fill(refs.back(), dists.back(), c, i, rng);
    }
    const Outcome cpu_out = run_implementation(cpu, options, refs, dists);
    const Outcome dev_out = run_implementation(twin, options, refs, dists);
    const unsigned long before = t.failures;
    compare(std::string(twin.name), "run " + std::to_string(r) + " " + f.describe() + " " + to_string(c) + " " +
                                        describe(pairs),
            cpu_out, dev_out, t);
    if (t.failures != before)
      for (const auto& [name, v] : cpu_out.values) {
        const auto it = dev_out.values.find(name);
        const double d = it == dev_out.values.end() ? NAN : it->second;
        std::printf("    %-40s cpu %.17g twin %.17g%s\n", name.c_str(), v, d, same_bits(v, d) ? "" : "  <-");
      }
  }
  return true;
}

void run_generated(const ExtractorInfo& twin, const ExtractorInfo& cpu, const Args& a, Tally& t) {
  std::mt19937 rng(20261202);
  const unsigned frames = twin.spec->temporal ? 6 : 2;
  const std::vector<Geometry> small = {{1, 1},    {2, 3},     {16, 16},   {33, 35},  {40, 40},
                                      {161, 91}, {176, 144}, {320, 240}, {383, 383}, {384, 384}};
  const std::vector<Geometry> large = {{853, 481}, {960, 540}, {1920, 1080}, {3840, 2160}};
  const int depths[] = {8, 10, 12, 16};
  const ChromaFormat chromas[] = {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::k400};
  const Content contents[] = {Content::kTexture, Content::kIdentical, Content::kFlat,
                              Content::kExtreme, Content::kRandom,    Content::kWild};
  const auto sets = option_sets(*twin.spec, rng, a.quick);

  unsigned long index = 0;
  auto one = [&](const PictureFormat& f, Content c, const OptionPairs& pairs) {
    const unsigned long n = index++;
    if (!a.mine(n) || (a.stop_at_first && t.failures)) return;
    std::mt19937 case_rng(20261202u + unsigned(n) * 7919u);
    std::optional<OptionValues> options;
    try {
      options.emplace(twin.spec->options, pairs, twin.name);
    } catch (const Error&) {
      return;  // refused at context creation on every backend: not a twin question
    }
    // Pictures and options the twin's capability check leaves to the CPU (a model falls back there).
    if (twin.check_context && twin.check_context(*options, f) == -ENOTSUP) {
      ++t.unsupported;
      return;
    }
    std::vector<Picture> refs, dists;
    for (unsigned i = 0; i < frames; ++i) {
      refs.emplace_back(f);
      dists.emplace_back(f);
      fill(refs.back(), dists.back(), c, i, case_rng);
    }
    const Outcome cpu_out = run_implementation(cpu, *options, refs, dists);
    const Outcome dev_out = run_implementation(twin, *options, refs, dists);
    compare(std::string(twin.name), f.describe() + " " + to_string(c) + " " + describe(pairs), cpu_out, dev_out, t);
  };

  // Progress per phase (a run cut short by a time limit still says how far it got).
  auto phase = [&](const char* what) {
    std::printf("  %s %s: %lu cases, %lu values, %lu failures so far\n", std::string(twin.name).c_str(), what, t.cases,
                t.values, t.failures);
    std::fflush(stdout);
  };
  auto wanted = [&](const char* p) { return a.phases.find(p) != std::string::npos; };
  // --sanitizer: a matrix small enough for compute-sanitizer's tools (kernels 10-100x slower) that
  // still reaches every twin's code paths. sanitizer-sizes: the smallest and odd sizes and one size
  // every twin computes (177x177: float_ms_ssim needs 176 each way; odd), each size in every chroma format and at
  // every depth once (k walks sizes mod 5 and chroma formats mod 4). sanitizer-sets: the option
  // sets that change what a twin computes (booleans on, small integer ranges, the combinations) at
  // 177x177, 8 bits.
  if (wanted("sanitizer-sizes")) {
    const std::vector<Geometry> sizes = {{1, 1}, {2, 3}, {33, 35}, {161, 91}, {177, 177}};
    for (int k = 0; k < 20; ++k)
      one({sizes[std::size_t(k % 5)].w, sizes[std::size_t(k % 5)].h, depths[k / 5], chromas[k % 4]}, Content::kTexture, {});
    phase("sanitizer matrix (sizes)");
  }
  if (wanted("sanitizer-sets")) {
    for (const auto& pairs : sets) {
      if (pairs.size() == 1) {
        const OptionSpec* o = nullptr;
        for (const OptionSpec& x : twin.spec->options)
          if (x.name == pairs[0].first) o = &x;
        if (!o || o->type == OptionType::kDouble || pairs[0].second == "false") continue;
      }
      one({177, 177, 8, ChromaFormat::k420}, Content::kWild, pairs);
    }
    phase("sanitizer matrix (options)");
  }
  // Every depth x chroma x small size x content with default options.
  if (wanted("small")) {
    for (int bd : depths)
      for (ChromaFormat ch : chromas)
        for (const Geometry& g : small)
          for (Content c : contents) one({g.w, g.h, bd, ch}, c, {});
    phase("small sizes");
  }
  // Every option set on a mid size at every depth: texture, identical and wild content at 4:2:0,
  // texture at the other chroma formats (options that read chroma planes).
  const int mid_w = a.quick ? 176 : 853, mid_h = a.quick ? 144 : 481;
  if (wanted("options")) {
    for (const auto& pairs : sets)
      for (int bd : depths) {
        for (Content c : {Content::kTexture, Content::kIdentical, Content::kWild}) one({mid_w, mid_h, bd, ChromaFormat::k420}, c, pairs);
        for (ChromaFormat ch : {ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::k400})
          one({mid_w, mid_h, bd, ch}, Content::kTexture, pairs);
      }
    phase("option sets");
  }
  // Every pair of non-default options, on a subsampled and a 4:2:2 picture at two depths.
  if (wanted("pairs")) {
    for (const auto& pairs : option_pairs(*twin.spec, rng)) {
      one({mid_w, mid_h, 8, ChromaFormat::k420}, Content::kTexture, pairs);
      one({mid_w + 1, mid_h + 1, 10, ChromaFormat::k422}, Content::kWild, pairs);
      one({mid_w, mid_h, 12, ChromaFormat::k444}, Content::kTexture, pairs);
    }
    phase("option pairs");
  }
  // Deep sums: a 16-bit 8K pair of full-range noise, whose sums of squares pass 2^53 units of the
  // smallest square (float_psnr's fp64-free path then rounds its integer sums as a double would).
  if (wanted("deep")) {
    one({7680, 4320, 16, ChromaFormat::k420}, Content::kRandom, {});
    phase("deep sums");
  }
  if (!wanted("large")) return;
  // Large sizes: 8 and 10 bits, 4:2:0 and 4:4:4, default options.
  for (const Geometry& g : large)
    for (int bd : {8, 10})
      for (ChromaFormat ch : {ChromaFormat::k420, ChromaFormat::k444}) {
        if (a.quick && g.w > 1920) continue;
        one({g.w, g.h, bd, ch}, Content::kTexture, {});
      }
  if (!a.quick) one({7680, 4320, 8, ChromaFormat::k420}, Content::kTexture, {});
  phase("large sizes");
}

// The shared fixtures (decoded y4m pairs NAME_ref.y4m / NAME_dist.y4m in `dir`), every option set.
void run_fixtures(const ExtractorInfo& twin, const ExtractorInfo& cpu, const Args& a, Tally& t) {
  namespace fs = std::filesystem;
  std::mt19937 rng(7);
  const auto sets = option_sets(*twin.spec, rng, true);
  unsigned long index = 0;
  for (const auto& entry : fs::directory_iterator(a.fixtures)) {
    const std::string name = entry.path().filename().string();
    const std::string suffix = "_ref.y4m";
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix)) continue;
    const std::string stem = name.substr(0, name.size() - suffix.size());
    const fs::path dist_path = entry.path().parent_path() / (stem + "_dist.y4m");
    if (!fs::exists(dist_path)) continue;
    if (!a.mine(index++) || (a.stop_at_first && t.failures)) continue;  // one shard per fixture pair
    auto rs = open_picture_source(entry.path().string(), SourceOptions{});
    auto ds = open_picture_source(dist_path.string(), SourceOptions{});
    std::vector<Picture> refs, dists;
    for (unsigned i = 0; i < a.fixture_frames; ++i) {
      Picture r(rs->format()), d(ds->format());
      if (!rs->read(r) || !ds->read(d)) break;
      refs.push_back(std::move(r));
      dists.push_back(std::move(d));
    }
    if (refs.empty()) continue;
    for (const auto& pairs : sets) {
      std::optional<OptionValues> options;
      try {
        options.emplace(twin.spec->options, pairs, twin.name);
      } catch (const Error&) {
        continue;
      }
      if (twin.check_context && twin.check_context(*options, rs->format()) == -ENOTSUP) {
        ++t.unsupported;
        continue;
      }
      compare(std::string(twin.name), "fixture " + stem + " " + describe(pairs),
              run_implementation(cpu, *options, refs, dists), run_implementation(twin, *options, refs, dists), t);
    }
  }
}

int harness(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    if (s == "--quick") a.quick = true;
    else if (s == "--sanitizer") a.quick = true, a.phases = "sanitizer-sizes,sanitizer-sets";
    else if (s == "--only" && i + 1 < argc) a.only = argv[++i];
    else if (s == "--skip" && i + 1 < argc) a.skip = argv[++i];
    else if (s == "--fixtures" && i + 1 < argc) a.fixtures = argv[++i];
    else if (s == "--first-difference") a.stop_at_first = true;
    else if (s == "--frames" && i + 1 < argc) a.fixture_frames = unsigned(std::stoul(argv[++i]));
    else if (s == "--shard" && i + 1 < argc && std::sscanf(argv[i + 1], "%u/%u", &a.shard, &a.shards) == 2 &&
             a.shards > 0 && a.shard < a.shards)
      ++i;
    else if (s == "--fixtures-only") a.generated = false;
    else if (s == "--phases" && i + 1 < argc) a.phases = argv[++i];
    else if (s == "--case" && i + 1 < argc) a.one_case = argv[++i];
    else if (s == "--repeat" && i + 1 < argc) a.repeat = unsigned(std::stoul(argv[++i]));
    else if (s == "--backend" && i + 1 < argc && (std::string(argv[i + 1]) == "cuda" || std::string(argv[i + 1]) == "vulkan"))
      a.backend = std::string(argv[++i]) == "vulkan" ? Backend::kVulkan : Backend::kCuda;
    else {
      std::fprintf(stderr, "usage: twin_harness [--backend cuda|vulkan] [--quick] [--only NAME[,NAME...]] [--skip NAME[,NAME...]] [--fixtures DIR] [--frames N] [--shard K/N]\n"
                           "                    [--first-difference] [--fixtures-only] [--phases small,options,pairs,large,deep]\n"
                           "                    [--sanitizer]   (the reduced matrix for compute-sanitizer)\n"
                           "                    [--case WxH:BPC:CHROMA:CONTENT[:k=v,...] [--repeat N]]\n");
      return 2;
    }
  }
  const bool vulkan = a.backend == Backend::kVulkan;
  const auto twins = vulkan ? vulkan_twins() : cuda_twins();
  const char* backend_name = vulkan ? "Vulkan" : "CUDA";
  if (twins.empty()) {
    std::printf("twin_harness: skipped: this build has no %s twins\n", backend_name);
    return 77;
  }
  std::string why;
  if (!device_usable(a.backend, 0, &why)) {
    std::printf("twin_harness: skipped: no %s device (%s)\n", backend_name, why.c_str());
    return 77;
  }
  if (vulkan) {  // which device the values come from (the listing's first line: device 0)
    const std::string list = vulkan_device_listing();
    std::printf("twin_harness: %s\n", list.substr(0, list.find('\n')).c_str());
    const auto at = list.find("float twins: ");  // which path its float twins take (VQTWIN_VULKAN_NO_FP64=1: fp64-free)
    if (at != std::string::npos)
      std::printf("twin_harness: Vulkan device 0: %s\n", list.substr(at, list.find('\n', at) - at).c_str());
  }
  bool all_ok = true;
  std::printf("%-22s %8s %8s %8s %10s %10s %12s\n", "twin", "cases", "refused", "to CPU", "values", "identical",
              "max |delta|");
  for (const ExtractorInfo* twin : twins) {
    if (!a.only.empty() && ("," + a.only + ",").find("," + std::string(twin->name) + ",") == std::string::npos) continue;
    if (!a.skip.empty() && ("," + a.skip + ",").find("," + std::string(twin->name) + ",") != std::string::npos) continue;
    const ExtractorInfo* cpu = find_implementation(*twin->spec, Backend::kCpu);
    if (!cpu) {
      std::printf("%s: no CPU reference for its spec\n", std::string(twin->name).c_str());
      all_ok = false;
      continue;
    }
    Tally t;
    if (!a.one_case.empty()) {
      if (!run_one_case(*twin, *cpu, a, t)) return 2;
    } else {
      if (a.generated) run_generated(*twin, *cpu, a, t);
      if (!a.fixtures.empty()) run_fixtures(*twin, *cpu, a, t);
    }
    std::printf("%-22s %8lu %8lu %8lu %10lu %10lu %12.3g%s\n", std::string(twin->name).c_str(), t.cases,
                t.refused_both, t.unsupported, t.values, t.identical, t.max_delta, t.failures ? "  FAIL" : "");
    // A twin must have computed something; in one shard of several it may get no case it accepts.
    all_ok = all_ok && t.failures == 0 && (t.values > 0 || a.shards > 1);
  }
  std::printf("twin_harness: %s\n", all_ok ? "every value bit-identical" : "DIFFERENCES FOUND");
  return all_ok ? 0 : 1;
}

}  // namespace
}  // namespace vqtwin

int main(int argc, char** argv) {
  try {
    return vqtwin::harness(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "twin_harness: error: %s\n", e.what());
    return 1;
  }
}
