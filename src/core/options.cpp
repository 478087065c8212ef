#include "core/options.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "core/quote.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

const char* type_name(OptionType t) {
  switch (t) {
    case OptionType::kBool: return "true or false";
    case OptionType::kInt: return "an integer";
    case OptionType::kDouble: return "a number";
    case OptionType::kString: return "a string";
  }
  return "?";
}

std::string fmt_g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

bool parse_number(const std::string& s, OptionType type, double& out) {
  if (s.empty()) return false;
  const char* begin = s.c_str();
  char* end = nullptr;
  errno = 0;
  if (type == OptionType::kInt) {
    long v = std::strtol(begin, &end, 10);
    if (errno || *end || v < -2147483647L - 1 || v > 2147483647L) return false;
    out = double(v);
    return true;
  }
  double v = std::strtod(begin, &end);
  if (errno == ERANGE || *end || !std::isfinite(v)) return false;
  out = v;
  return true;
}

}  // namespace

std::string libvmaf_normalised_value(const std::string& text) {
  float f = 0;
  char c = 0;
  if (std::sscanf(text.c_str(), "%f %c", &f, &c) != 1) return text;  // not one number alone
  return fmt_g(double(std::strtof(text.c_str(), nullptr)));
}

OptionValues::OptionValues(OptionSchema schema, const OptionPairs& given, std::string_view owner)
    : schema_(schema), values_(schema.size()) {
  for (std::size_t i = 0; i < schema.size(); ++i) {
    values_[i].number = schema[i].default_value;
    values_[i].text = std::string(schema[i].default_string);
  }
  for (const auto& [key, text] : given) {
    std::size_t i = 0;
    for (; i < schema.size(); ++i)
      if (schema[i].name == key || (!schema[i].alias.empty() && schema[i].alias == key)) break;
    if (i == schema.size()) {
      std::string known;
      for (const auto& s : schema) known += (known.empty() ? "" : ", ") + std::string(s.name);
      throw Error(std::string(owner) + ": unknown option " + quote(key) +
                  (known.empty() ? " (it takes no options)" : " (known: " + known + ")"));
    }
    const OptionSpec& spec = schema[i];
    // Booleans are only ever "true"/"false" in libvmaf (never numbers), so they are read as given.
    const std::string value = spec.type == OptionType::kBool ? text : libvmaf_normalised_value(text);
    const std::string as_read = value == text ? "" : " (libvmaf reads " + value + ")";
    Value v;
    v.is_default = false;
    switch (spec.type) {
      case OptionType::kBool:
        if (text == "true" || text == "1") v.number = 1;
        else if (text == "false" || text == "0") v.number = 0;
        else
          throw Error(std::string(owner) + ": option '" + std::string(spec.name) + "' must be " +
                      type_name(spec.type) + ", not " + quote(text));
        break;
      case OptionType::kInt:
      case OptionType::kDouble:
        if (!parse_number(value, spec.type, v.number)) {
          // An integer of more than 6 digits reaches libvmaf's extractor as "1.23457e+06", read as 1.
          if (spec.type == OptionType::kInt && parse_number(text, spec.type, v.number))
            throw Error(std::string(owner) + ": option '" + std::string(spec.name) + "' = " + text +
                        " has more than 6 significant digits, which libvmaf cannot pass to an integer option");
          throw Error(std::string(owner) + ": option '" + std::string(spec.name) + "' must be " +
                      type_name(spec.type) + ", not " + quote(text) + as_read);
        }
        if (v.number < spec.min || v.number > spec.max)
          throw Error(std::string(owner) + ": option '" + std::string(spec.name) + "' = " + printable(text, 40) + as_read +
                      " is out of range [" + fmt_g(spec.min) + ", " + fmt_g(spec.max) + "]");
        break;
      case OptionType::kString:
        v.text = value;
        break;
    }
    // libvmaf compares with the default to decide whether a value names the output.
    if (spec.type == OptionType::kString) v.is_default = v.text == spec.default_string;
    else v.is_default = v.number == spec.default_value;
    values_[i] = v;
    given_.erase(std::remove_if(given_.begin(), given_.end(),
                                [&](const auto& p) { return p.first == spec.name; }),
                 given_.end());
    given_.emplace_back(std::string(spec.name), text);
  }
}

std::size_t OptionValues::index_of(std::string_view name) const {
  for (std::size_t i = 0; i < schema_.size(); ++i)
    if (schema_[i].name == name) return i;
  throw std::logic_error("no option named " + std::string(name));
}

bool OptionValues::get_bool(std::string_view name) const { return values_[index_of(name)].number != 0; }
int OptionValues::get_int(std::string_view name) const { return int(values_[index_of(name)].number); }
double OptionValues::get_double(std::string_view name) const { return values_[index_of(name)].number; }
const std::string& OptionValues::get_string(std::string_view name) const {
  return values_[index_of(name)].text;
}
bool OptionValues::is_default(std::string_view name) const { return values_[index_of(name)].is_default; }

std::string OptionValues::output_name(std::string_view base) const {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < schema_.size(); ++i)
    if (schema_[i].feature_param && !values_[i].is_default) order.push_back(i);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return schema_[a].name < schema_[b].name; });
  std::string out(base);
  for (std::size_t i : order) {
    const OptionSpec& s = schema_[i];
    const std::string_view key = s.alias.empty() ? s.name : s.alias;
    out += "_";
    out += key;
    switch (s.type) {
      case OptionType::kBool: break;
      case OptionType::kInt: out += "_" + std::to_string(int(values_[i].number)); break;
      case OptionType::kDouble: out += "_" + fmt_g(values_[i].number); break;
      case OptionType::kString: out += "_" + values_[i].text; break;
    }
  }
  return out;
}

std::string OptionValues::key() const {
  std::string k;
  for (std::size_t i = 0; i < schema_.size(); ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", values_[i].number);
    k += std::string(schema_[i].name) + "=" + buf + values_[i].text + ";";
  }
  return k;
}

OptionPairs split_option_string(std::string_view text, std::string_view owner) {
  OptionPairs out;
  std::size_t pos = 0;
  while (pos <= text.size() && !text.empty()) {
    std::size_t end = text.find(':', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(pos, end - pos);
    if (!item.empty()) {
      std::size_t eq = item.find('=');
      if (eq == std::string_view::npos || eq == 0)
        throw Error(std::string(owner) + ": option " + quote(item) + " is not of the form key=value");
      out.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
    }
    pos = end + 1;
  }
  return out;
}

}  // namespace vqtwin
