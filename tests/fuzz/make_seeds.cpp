// Writes the fuzz targets' seed corpora (nothing is committed): small valid inputs of every kind,
// made from the same tables the code uses (y4m colour tags, raw formats, every extractor's option
// schema with its bounds, the built-in models). Usage: make_seeds OUTPUT_FOLDER
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/registry.hpp"
#include "vqtwin/error.hpp"
#include "models/builtin_models.hpp"

namespace fs = std::filesystem;

namespace {

int written = 0;

void seed(const fs::path& dir, const std::string& name, const std::string& bytes) {
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << bytes;
  ++written;
}

std::string pattern(std::size_t n, int salt) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = char((i * 37 + std::size_t(salt) * 101 + i / 7) & 255);
  return s;
}

// Bytes of one frame: planes of (w x h) luma and the chroma of `chroma` (0: 4:2:0, 1: 4:2:2, 2: 4:4:4, 3: mono).
std::size_t frame_size(int w, int h, int chroma, int bytes_per_sample) {
  const std::size_t luma = std::size_t(w) * h;
  const std::size_t cw = chroma == 2 ? w : (w + 1) / 2, ch = chroma <= 0 ? (h + 1) / 2 : h;
  return (luma + (chroma == 3 ? 0 : 2 * cw * ch)) * std::size_t(bytes_per_sample);
}

void y4m_seeds(const fs::path& dir) {
  struct Tag {
    const char* name;
    int chroma, bytes;
  };
  const Tag tags[] = {{"420jpeg", 0, 1}, {"420mpeg2", 0, 1}, {"420paldv", 0, 1}, {"420", 0, 1}, {"420p10", 0, 2},
                      {"420p12", 0, 2},  {"420p16", 0, 2},   {"422", 1, 1},      {"422p10", 1, 2}, {"422p12", 1, 2},
                      {"422p16", 1, 2},  {"444", 2, 1},      {"444p10", 2, 2},   {"444p12", 2, 2}, {"444p16", 2, 2},
                      {"mono", 3, 1},    {"mono10", 3, 2},   {"mono12", 3, 2},   {"mono16", 3, 2}};
  int n = 0;
  for (const Tag& t : tags)
    for (int pipe = 0; pipe < 2; ++pipe) {
      const int w = 5 + n % 4, h = 3 + n % 3;
      std::string s(1, char(pipe));
      s += "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F30000:1001 Ip A1:1 C" + t.name +
           " XYSCSS=X\n";
      for (int f = 0; f < 3; ++f)
        s += std::string(f == 1 ? "FRAME Ixyz\n" : "FRAME\n") + pattern(frame_size(w, h, t.chroma, t.bytes), f + n);
      seed(dir, "y4m_" + std::to_string(n++), s);
    }
  seed(dir, "y4m_nocolour", std::string(1, '\0') + "YUV4MPEG2 W4 H2\nFRAME\n" + pattern(12, 1));
}

void raw_seeds(const fs::path& dir) {
  int n = 0;
  for (int chroma = 0; chroma < 4; ++chroma)
    for (int depth = 0; depth < 4; ++depth)
      for (int pipe = 0; pipe < 2; ++pipe) {
        const int w = 3 + n % 7, h = 2 + n % 5;
        std::string s;
        s += char(pipe | chroma << 1 | depth << 4);
        s += char(w);
        s += char(h);
        s += pattern(3 * frame_size(w, h, chroma, depth ? 2 : 1), n);
        seed(dir, "raw_" + std::to_string(n++), s);
      }
}

std::string g_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Whether the extractor, with the options of `text`, accepts a w x h picture of format byte `fmt`
// (as fuzz_options reads it).
bool init_ok(const vqtwin::ExtractorInfo& info, const std::string& text, int fmt, int w, int h) {
  static const vqtwin::ChromaFormat kChroma[] = {vqtwin::ChromaFormat::k420, vqtwin::ChromaFormat::k422,
                                                 vqtwin::ChromaFormat::k444, vqtwin::ChromaFormat::k400};
  static const int kDepths[] = {8, 10, 12, 16};
  try {
    const vqtwin::OptionValues values(info.spec->options, vqtwin::split_option_string(text, info.name), info.name);
    info.create(values)->init(vqtwin::PictureFormat{w, h, kDepths[(fmt >> 2) & 3], kChroma[fmt & 3]});
    return true;
  } catch (const vqtwin::Error&) {
    return false;
  }
}

void option_seeds(const fs::path& dir) {
  // The order fuzz_options picks from: the CPU extractors of the registry.
  std::vector<const vqtwin::ExtractorInfo*> all;
  for (const vqtwin::ExtractorInfo* e : vqtwin::all_extractors())
    if (e->backend == vqtwin::Backend::kCpu && e->make) all.push_back(e);
  int n = 0;
  for (std::size_t e = 0; e < all.size(); ++e) {
    std::vector<std::string> texts = {""};
    for (const auto& o : all[e]->spec->options) {
      const std::string name(o.name);
      switch (o.type) {
        case vqtwin::OptionType::kBool: texts.push_back(name + "=true"); break;
        case vqtwin::OptionType::kString: texts.push_back(name + "=" + std::string(o.default_string)); break;
        default:
          texts.push_back(name + "=" + g_text(o.min));
          texts.push_back(name + "=" + g_text(o.max));
          texts.push_back(name + "=" + g_text(o.default_value));
      }
    }
    for (std::size_t t = 0; t < texts.size(); ++t, ++n) {
      const int fmt = n % 16;  // chroma, depth (fuzz_options.cpp)
      // 40x33, and 176x176 (the large range) where the extractor refuses 40x33 with these options
      // and takes 176x176, and for each extractor's last text (paths that only large pictures
      // take, e.g. more scales): large pictures cost a hundred times more under the sanitizers, so
      // only these seeds have them (the fuzzer can still choose them for any extractor).
      const bool large = t + 1 == texts.size() ||
                         (!init_ok(*all[e], texts[t], fmt, 40, 33) && init_ok(*all[e], texts[t], fmt, 176, 176));
      std::string s;
      s += char(e);
      s += char(fmt);
      s += char(large ? 0xF0 : 40);
      s += char(large ? 0xF0 : 33);
      s += texts[t];
      s += '\0';
      s += pattern(512, n);
      seed(dir, "opt_" + std::to_string(n), s);
    }
  }
}

// A model's libsvm text cut to its first `keep` support vectors (total_sv changed to match): the
// parser's paths are the same, and a 20 KB seed would make every execution that mutates it parse
// 20 KB.
std::string trim_support_vectors(std::string json, int keep) {
  const std::string mark = "\\nSV\\n", nl = "\\n";  // as escaped in the JSON string
  const std::size_t sv = json.find(mark);
  if (sv == std::string::npos) return json;
  std::size_t end = sv + mark.size();
  for (int k = 0; k < keep; ++k) {
    const std::size_t next = json.find(nl, end);
    if (next == std::string::npos) return json;
    end = next + nl.size();
  }
  const std::size_t quote = json.find('"', end);
  if (quote == std::string::npos) return json;
  json.erase(end, quote - end);
  const std::size_t total = json.find("total_sv ");
  if (total != std::string::npos && total < sv)
    json.replace(total, json.find(nl, total) - total, "total_sv " + std::to_string(keep));
  return json;
}

void model_seeds(const fs::path& dir) {
  const char* texts[] = {"version=x", "path=x:name=vmaf2:enable_transform=true", "path=x:disable_clip",
                         "path=x:adm.adm_enhn_gain_limit=1.2"};
  int n = 0;
  for (const auto& m : vqtwin::models::builtin_models())
    if (m.json.size() < 60000)  // the bootstrap models (400 KB, refused) would only slow the fuzzer down
      seed(dir, "model_" + std::to_string(n), std::string(texts[n % 4]) + "\n" + trim_support_vectors(std::string(m.json), 16)),
          ++n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seeds OUTPUT_FOLDER\n");
    return 2;
  }
  const fs::path out = argv[1];
  y4m_seeds(out / "fuzz_y4m");
  raw_seeds(out / "fuzz_raw_yuv");
  option_seeds(out / "fuzz_options");
  model_seeds(out / "fuzz_model");
  std::printf("make_seeds: %d seeds in %s\n", written, out.c_str());
  return 0;
}
