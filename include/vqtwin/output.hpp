#pragma once
// Writers of the vmaf CLI's output schemas (JSON, XML, CSV, subtitle).
#include <cstdio>
#include <string>
#include <vector>

#include "vqtwin/results.hpp"

#include "vqtwin/export.hpp"

namespace vqtwin {

enum class OutputFormat { kXml, kJson, kCsv, kSub };

struct OutputOptions {
  OutputFormat format = OutputFormat::kXml;
  // -1: libvmaf's own format (%.6f, or %.16f for values with more than six leading zeros after
  // the point); 0..17: %.<N>f; kMaxPrecision: %.17g (round-trip).
  int precision = -1;
  static constexpr int kMaxPrecision = 1000;
  unsigned subsample = 1;
  // Pooling methods written per feature; empty = libvmaf's min, max, mean, harmonic_mean.
  std::vector<Pooling> pools;
  std::string version = "vqtwin";
};

VQTWIN_API void write_output(std::FILE* out, const Results& results, const OutputOptions& options);
// One number as the writers print it (not null/inf handling).
VQTWIN_API std::string format_number(double value, int precision);

}  // namespace vqtwin
