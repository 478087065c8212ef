#pragma once
// Option schemas as data (one table per extractor, shared by its CPU reference and its twins) and the
// parsed values of one context. Parsing is strict: an unknown key, a value that does not parse or a
// value out of range is an error at context creation, before any picture is read.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vqtwin {

enum class OptionType { kBool, kInt, kDouble, kString };

struct OptionSpec {
  std::string_view name;
  std::string_view alias;  // short name: accepted on input, used in output-name suffixes
  OptionType type;
  double default_value;  // bool: 0 or 1
  std::string_view default_string;
  double min;
  double max;
  std::string_view help;
  bool feature_param;  // a non-default value becomes part of the output names (libvmaf FEATURE_PARAM)
};

constexpr OptionSpec opt_bool(std::string_view name, std::string_view alias, bool def,
                              std::string_view help, bool feature_param = false) {
  return {name, alias, OptionType::kBool, def ? 1.0 : 0.0, {}, 0, 1, help, feature_param};
}
constexpr OptionSpec opt_int(std::string_view name, std::string_view alias, int def, int min, int max,
                             std::string_view help, bool feature_param = false) {
  return {name, alias, OptionType::kInt, double(def), {}, double(min), double(max), help, feature_param};
}
constexpr OptionSpec opt_double(std::string_view name, std::string_view alias, double def, double min,
                                double max, std::string_view help, bool feature_param = false) {
  return {name, alias, OptionType::kDouble, def, {}, min, max, help, feature_param};
}
constexpr OptionSpec opt_string(std::string_view name, std::string_view alias, std::string_view def,
                                std::string_view help, bool feature_param = false) {
  return {name, alias, OptionType::kString, 0, def, 0, 0, help, feature_param};
}

using OptionSchema = std::span<const OptionSpec>;
using OptionPairs = std::vector<std::pair<std::string, std::string>>;

// The values of one context: every option of the schema, the default where not given.
class OptionValues {
 public:
  OptionValues() = default;
  // Throws vqtwin::Error naming `owner` (the extractor) and the offending key or value. Numbers are
  // taken as libvmaf takes them (libvmaf_normalised_value).
  OptionValues(OptionSchema schema, const OptionPairs& given, std::string_view owner);

  bool get_bool(std::string_view name) const;
  int get_int(std::string_view name) const;
  double get_double(std::string_view name) const;
  const std::string& get_string(std::string_view name) const;
  bool is_default(std::string_view name) const;

  OptionSchema schema() const { return schema_; }
  // The options as given (canonical names), to rebuild the same context elsewhere (CPU fallback).
  const OptionPairs& given() const { return given_; }
  // `base` with the suffixes of the non-default FEATURE_PARAM options, in alphabetical order of
  // option name: "_alias" for a bool, "_alias_value" otherwise (%d, %g, or the string).
  std::string output_name(std::string_view base) const;
  // A stable text of all values, to tell two contexts of the same extractor apart.
  std::string key() const;

 private:
  struct Value {
    double number = 0;
    std::string text;
    bool is_default = true;
  };
  std::size_t index_of(std::string_view name) const;
  OptionSchema schema_;
  std::vector<Value> values_;
  OptionPairs given_;
};

// libvmaf rewrites every option value that reads as one number (`--feature`, `--model` overloads, model
// files) before its extractor parses it: the text read as a float (strtof), printed with "%g". So an
// extractor computes with 6 significant digits of the float ("1.2345678" -> "1.23457", "2.0000001" ->
// "2"), and a value equal to the default after this names no output. OptionValues applies it to every
// non-boolean value; other texts are returned unchanged.
std::string libvmaf_normalised_value(const std::string& text);

// "a=1:b=true" → {{"a","1"},{"b","true"}}; throws on an item without '='.
OptionPairs split_option_string(std::string_view text, std::string_view owner);

}  // namespace vqtwin
