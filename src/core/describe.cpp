// The CLI's --list: the registry, printed from the same tables the extractors parse with.
#include <cstdio>
#include <string>

#include "backends/device.hpp"
#include "core/registry.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin {
namespace {

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string describe_option(const OptionSpec& o) {
  std::string line = "    " + std::string(o.name);
  if (!o.alias.empty()) line += " (" + std::string(o.alias) + ")";
  switch (o.type) {
    case OptionType::kBool: line += ": bool, default " + std::string(o.default_value ? "true" : "false"); break;
    case OptionType::kInt:
    case OptionType::kDouble:
      line += std::string(o.type == OptionType::kInt ? ": int" : ": double") + ", default " + number(o.default_value) +
              ", range [" + number(o.min) + ", " + number(o.max) + "]";
      break;
    case OptionType::kString: line += ": string, default '" + std::string(o.default_string) + "'"; break;
  }
  if (o.feature_param) line += ", names the output";
  return line + "\n      " + std::string(o.help) + "\n";
}

}  // namespace

std::string describe_extractors() {
  std::string out;
  for (const ExtractorInfo* e : all_extractors()) {
    out += std::string(e->name);
    for (auto n : e->spec->other_names) out += " / " + std::string(n);
    out += "  [" + std::string(to_string(e->backend)) + (e->spec->temporal ? ", temporal" : "") + "]\n";
    const auto outputs = e->spec->outputs.empty() ? e->spec->provided : e->spec->outputs;
    if (!outputs.empty()) {
      out += "  outputs:";
      for (auto p : outputs) out += " " + std::string(p);
      out += "\n";
    }
    if (!e->spec->outputs.empty()) {
      out += "  a model requests it as:";
      for (auto p : e->spec->provided) out += " " + std::string(p);
      out += "\n";
    }
    if (e->spec->options.empty()) out += "  no options\n";
    for (const OptionSpec& o : e->spec->options) out += describe_option(o);
  }
  return out;
}

std::string describe_devices() {
  std::string out;
  std::string why;
  const int cuda = cuda_device_count(&why);
  out += cuda > 0 ? "CUDA: " + std::to_string(cuda) + " device" + (cuda > 1 ? "s" : "") + " (--backend cuda --gpu 0.." +
                        std::to_string(cuda - 1) + ")\n"
                  : "CUDA: " + why + "\n";
  out += vulkan_device_listing();
  return out;
}

}  // namespace vqtwin
