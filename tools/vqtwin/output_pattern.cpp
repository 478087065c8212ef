#include "output_pattern.hpp"

#include "core/quote.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin_cli {

bool is_pattern(const std::string& text) { return text.find('{') != std::string::npos; }

std::string expand_pattern(const std::string& pattern, const std::map<std::string, std::string>& values,
                           const std::string& option) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size();) {
    if (pattern[i] != '{') {
      out += pattern[i++];
      continue;
    }
    const std::size_t close = pattern.find('}', i);
    if (close == std::string::npos)
      throw vqtwin::Error(option + ": " + vqtwin::quote(pattern) + " has a '{' without its '}'");
    const std::string name = pattern.substr(i + 1, close - i - 1);
    const auto it = values.find(name);
    if (it == values.end()) {
      std::string known;
      for (const auto& [k, v] : values) known += (known.empty() ? "{" : ", {") + k + "}";
      throw vqtwin::Error(option + ": unknown placeholder " + vqtwin::quote("{" + name + "}") + " (known: " + known + ")");
    }
    out += it->second;
    i = close + 1;
  }
  return out;
}

}  // namespace vqtwin_cli
