// The CLI's --list-models: every model version=NAME can find, where it comes from, and what it needs.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "core/registry.hpp"
#include "models/builtin_models.hpp"
#include "models/vmaf_model.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin {
namespace {

// "adm, motion, vif(vif_enhn_gain_limit=1)": the extractors a model registers, with its options.
std::string needs_of(std::string_view bytes, const std::string& source) {
  try {
    auto model = models::make_model(bytes, source, models::ModelSettings{},
                                    [](std::string_view n) { return find_extractor(n); });
    std::vector<std::string> uses;
    for (const auto& use : model->features()) {
      std::string text = use.extractor;
      if (!use.options.empty()) {
        text += "(";
        for (std::size_t i = 0; i < use.options.size(); ++i)
          text += (i ? ", " : "") + use.options[i].first + "=" + use.options[i].second;
        text += ")";
      }
      if (std::find(uses.begin(), uses.end(), text) == uses.end()) uses.push_back(text);
    }
    std::string out;
    for (const auto& u : uses) out += (out.empty() ? "" : ", ") + u;
    return out;
  } catch (const Error& e) {
    // The reason, without the "model '<source>': " the message starts with (the line names it).
    std::string why = e.what();
    const std::size_t cut = why.find("': ");
    if (why.rfind("model '", 0) == 0 && cut != std::string::npos) why = why.substr(cut + 3);
    return "not usable: " + why;
  }
}

void line(std::ostringstream& out, const std::string& name, const std::string& needs) {
  out << "  " << name;
  for (std::size_t n = name.size(); n < 28; ++n) out << ' ';
  out << ' ' << needs << '\n';
}

}  // namespace

std::string describe_models() {
  namespace fs = std::filesystem;
  std::ostringstream out;
  std::set<std::string> seen;
  out << "Built-in models (--model version=NAME; compiled into vqtwin, found first):\n";
  for (const auto& m : models::builtin_models()) {
    line(out, std::string(m.version), needs_of(m.json, "built-in model " + std::string(m.version)));
    seen.insert(std::string(m.version));
  }
  out << "Model files on the search path (version=NAME loads NAME.json from the first folder that has it):\n";
  for (const std::string& folder : models::model_search_path()) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
      out << "  " << folder << ": no such folder\n";
      continue;
    }
    std::vector<fs::path> files;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".json" && it->is_regular_file(ec)) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    out << "  " << folder << ": " << (files.empty() ? "no .json files" : std::to_string(files.size()) + " file(s)") << "\n";
    for (const fs::path& file : files) {
      const std::string name = file.stem().string();
      if (seen.count(name)) {
        line(out, "  " + name, "(hidden: version=" + name + " finds the one listed before)");
        continue;
      }
      seen.insert(name);
      constexpr std::uintmax_t kMaxModelBytes = std::uintmax_t(64) << 20;
      if (fs::file_size(file, ec) > kMaxModelBytes) {
        line(out, "  " + name, "not usable: larger than 64 MiB");
        continue;
      }
      std::ifstream in(file, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      line(out, "  " + name, needs_of(bytes, file.string()));
    }
  }
  out << "Any other model file: --model path=FILE.\n";
  return out.str();
}

}  // namespace vqtwin
