#pragma once
// A report people can look at: one self-contained HTML page (inline SVG charts and script, no external
// file, font or network access) with the per-frame curves of every metric (one chart per metric family,
// one curve per run and metric, a shared frame axis with zoom and hover), the pooled values, the worst
// frames, the inputs, models, settings and the receipt of what computed what. And the one-line headline.
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vqtwin/export.hpp"
#include "vqtwin/results.hpp"

namespace vqtwin {

struct ReportRun {
  const Results* results = nullptr;
  std::string label;  // e.g. the distorted input's file name
};

struct ReportOptions {
  std::string title = "vqtwin report";
  std::string version;  // "vqtwin 0.1.0"
  // Settings as (name, value) lines: the command line, models and features asked for.
  std::vector<std::pair<std::string, std::string>> settings;
  unsigned subsample = 1;
  unsigned worst_frames = 10;  // rows of the worst-frames table of each run
};

VQTWIN_API void write_report(std::FILE* out, const std::vector<ReportRun>& runs, const ReportOptions& options);

// "1% low": the mean of the lowest 1% of the (subsampled) frames' values, at least one frame; nullopt when
// a frame has no value.
VQTWIN_API std::optional<double> one_percent_low(const Results& results, std::string_view name, unsigned subsample = 1);

// The summary's first line: "VMAF 86.57 (harmonic 86.49, min 80.12, 1% low 81.04) · PSNR-Y 31.02 dB ·
// 48 frames 1920x1080" (each model score; PSNR-Y when computed; without a model, the first metric).
VQTWIN_API std::string headline(const Results& results, unsigned subsample = 1);

}  // namespace vqtwin
