// The vmaf CLI's output schemas, byte for byte where libvmaf's writers define them (including the
// JSON writer's missing newline after a null per-frame value).
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "vqtwin/output.hpp"

namespace vqtwin {
namespace {

// libvmaf counts the zeros after the decimal point before the first non-zero digit, and prints
// values with more than six of them with 16 decimals.
int leading_zeros(double x) {
  if (!std::isfinite(x)) return 0;
  x = std::fabs(x);
  double frac = x - std::trunc(x);
  int n = 0;
  while (frac < 1.0 && frac != 0) {
    frac *= 10;
    ++n;
  }
  return n;
}

std::vector<Pooling> pool_list(const OutputOptions& o) {
  if (!o.pools.empty()) return o.pools;
  return {Pooling{PoolMethod::kMin}, Pooling{PoolMethod::kMax}, Pooling{PoolMethod::kMean},
          Pooling{PoolMethod::kHarmonicMean}};
}

bool finite(double v) { return std::isfinite(v); }

// Names are a safe alphabet where they are made (extractor outputs, --model name=); the writers
// escape them anyway, so no input can ever produce invalid JSON or XML.
std::string json_text(std::string_view s) {
  std::string out;
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out;
}

std::string xml_text(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) out += "&#" + std::to_string(int(ch)) + ";";
        else out += ch;
    }
  }
  return out;
}

}  // namespace

std::string format_number(double v, int precision) {
  char buf[512];
  if (precision == OutputOptions::kMaxPrecision) std::snprintf(buf, sizeof buf, "%.17g", v);
  else if (precision >= 0) std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  else if (leading_zeros(v) <= 6) std::snprintf(buf, sizeof buf, "%.6f", v);
  else std::snprintf(buf, sizeof buf, "%.16f", v);
  return buf;
}

namespace {

void write_json(std::FILE* f, const Results& r, const OutputOptions& o) {
  const auto names = r.names();
  const unsigned frames = r.frame_count();
  std::fprintf(f, "{\n");
  std::fprintf(f, "  \"version\": \"%s\",\n", json_text(o.version).c_str());
  if (finite(r.fps)) std::fprintf(f, "  \"fps\": %.2f,\n", r.fps);
  else std::fprintf(f, "  \"fps\": null,\n");
  // What was done to the inputs (only when something was: libvmaf's schema is otherwise unchanged).
  if (!r.input_conversions.empty() || r.sync_offset) {
    std::fprintf(f, "  \"input\": {");
    const char* sep = "\n";
    for (const auto& [key, text] : r.input_conversions) {
      std::fprintf(f, "%s    %s: %s", sep, ("\"" + json_text(key) + "\"").c_str(), ("\"" + json_text(text) + "\"").c_str());
      sep = ",\n";
    }
    if (r.sync_offset) std::fprintf(f, "%s    \"sync_offset\": %d", sep, *r.sync_offset);
    std::fprintf(f, "\n  },\n");
  }
  std::fprintf(f, "  \"frames\": [");
  for (unsigned i = 0; i < frames; ++i) {
    if (o.subsample > 1 && i % o.subsample) continue;
    unsigned cnt = 0;
    for (const auto& n : names) cnt += r.value(n, i).has_value();
    if (!cnt) continue;
    std::fprintf(f, "%s", i > 0 ? ",\n" : "\n");
    std::fprintf(f, "    {\n      \"frameNum\": %u,\n      \"metrics\": {\n", i);
    unsigned k = 0;
    for (const auto& n : names) {
      auto v = r.value(n, i);
      if (!v) continue;
      ++k;
      if (finite(*v))
        std::fprintf(f, "        \"%s\": %s%s\n", json_text(n).c_str(), format_number(*v, o.precision).c_str(),
                     k < cnt ? "," : "");
      else
        std::fprintf(f, "        \"%s\": null%s", json_text(n).c_str(), k < cnt ? "," : "");
    }
    std::fprintf(f, "      }\n    }");
  }
  std::fprintf(f, "\n  ],\n");
  std::fprintf(f, "  \"pooled_metrics\": {");
  const auto pools = pool_list(o);
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::fprintf(f, "%s", i > 0 ? ",\n" : "\n");
    std::fprintf(f, "    \"%s\": {", json_text(names[i]).c_str());
    bool first = true;
    for (const auto& p : pools) {
      auto v = r.pooled(names[i], p, o.subsample);
      if (!v) continue;
      std::fprintf(f, "%s", first ? "\n" : ",\n");
      first = false;
      if (finite(*v))
        std::fprintf(f, "      \"%s\": %s", p.name().c_str(), format_number(*v, o.precision).c_str());
      else
        std::fprintf(f, "      \"%s\": null", p.name().c_str());
    }
    std::fprintf(f, "\n    }");
  }
  std::fprintf(f, "\n  },\n");
  std::fprintf(f, "  \"aggregate_metrics\": {");
  const auto& agg = r.aggregates();
  for (std::size_t i = 0; i < agg.size(); ++i) {
    if (finite(agg[i].second))
      std::fprintf(f, "\n    \"%s\": %s", json_text(agg[i].first).c_str(),
                   format_number(agg[i].second, o.precision).c_str());
    else
      std::fprintf(f, "\n    \"%s\": null", json_text(agg[i].first).c_str());
    std::fprintf(f, "%s", i + 1 < agg.size() ? "," : "");
  }
  std::fprintf(f, "\n  }");
  if (r.show_receipt) {
    // Which implementation computed each output (not in libvmaf's schema: only with a device backend).
    std::fprintf(f, ",\n  \"backends\": {");
    const auto receipt = r.receipt();
    for (std::size_t i = 0; i < receipt.size(); ++i)
      std::fprintf(f, "\n    \"%s\": \"%s\"%s", receipt[i].first.c_str(), receipt[i].second.c_str(),
                   i + 1 < receipt.size() ? "," : "");
    std::fprintf(f, "\n  }");
  }
  std::fprintf(f, "\n}\n");
}

void write_xml(std::FILE* f, const Results& r, const OutputOptions& o) {
  const auto names = r.names();
  const unsigned frames = r.frame_count();
  std::fprintf(f, "<VMAF version=\"%s\">\n", xml_text(o.version).c_str());
  std::fprintf(f, "  <params qualityWidth=\"%d\" qualityHeight=\"%d\" />\n", r.width, r.height);
  std::fprintf(f, "  <fyi fps=\"%.2f\" />\n", r.fps);
  std::fprintf(f, "  <frames>\n");
  for (unsigned i = 0; i < frames; ++i) {
    if (o.subsample > 1 && i % o.subsample) continue;
    std::string line;
    for (const auto& n : names)
      if (auto v = r.value(n, i)) line += n + "=\"" + format_number(*v, o.precision) + "\" ";
    if (line.empty()) continue;
    std::fprintf(f, "    <frame frameNum=\"%u\" %s/>\n", i, line.c_str());
  }
  std::fprintf(f, "  </frames>\n  <pooled_metrics>\n");
  for (const auto& n : names) {
    std::fprintf(f, "    <metric name=\"%s\" ", xml_text(n).c_str());
    for (const auto& p : pool_list(o))
      if (auto v = r.pooled(n, p, o.subsample))
        std::fprintf(f, "%s=\"%s\" ", p.name().c_str(), format_number(*v, o.precision).c_str());
    std::fprintf(f, "/>\n");
  }
  std::fprintf(f, "  </pooled_metrics>\n  <aggregate_metrics ");
  for (const auto& [n, v] : r.aggregates())
    std::fprintf(f, "%s=\"%s\" ", n.c_str(), format_number(v, o.precision).c_str());
  std::fprintf(f, "/>\n");
  if (r.show_receipt) {
    std::fprintf(f, "  <backends>\n");
    for (const auto& [n, impl] : r.receipt())
      std::fprintf(f, "    <backend name=\"%s\" implementation=\"%s\" />\n", n.c_str(), impl.c_str());
    std::fprintf(f, "  </backends>\n");
  }
  std::fprintf(f, "</VMAF>\n");
}

void write_csv(std::FILE* f, const Results& r, const OutputOptions& o) {
  const auto names = r.names();
  std::fprintf(f, "Frame,");
  for (const auto& n : names) std::fprintf(f, "%s,", n.c_str());
  std::fprintf(f, "\n");
  for (unsigned i = 0; i < r.frame_count(); ++i) {
    if (o.subsample > 1 && i % o.subsample) continue;
    std::string line;
    for (const auto& n : names)
      if (auto v = r.value(n, i)) line += format_number(*v, o.precision) + ",";
    if (line.empty()) continue;
    std::fprintf(f, "%u,%s\n", i, line.c_str());
  }
}

void write_sub(std::FILE* f, const Results& r, const OutputOptions& o) {
  const auto names = r.names();
  for (unsigned i = 0; i < r.frame_count(); ++i) {
    if (o.subsample > 1 && i % o.subsample) continue;
    std::string line;
    for (const auto& n : names)
      if (auto v = r.value(n, i)) line += n + ": " + format_number(*v, o.precision) + "|";
    if (line.empty()) continue;
    std::fprintf(f, "{%u}{%u}frame: %u|%s\n", i, i + 1, i, line.c_str());
  }
}

}  // namespace

void write_output(std::FILE* f, const Results& r, const OutputOptions& o) {
  switch (o.format) {
    case OutputFormat::kJson: write_json(f, r, o); break;
    case OutputFormat::kXml: write_xml(f, r, o); break;
    case OutputFormat::kCsv: write_csv(f, r, o); break;
    case OutputFormat::kSub: write_sub(f, r, o); break;
  }
}

}  // namespace vqtwin
