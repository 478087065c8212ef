#pragma once
// What the single run, the ladder and batch print the same way.
#include <cstdio>
#include <string>

#include "vqtwin/output.hpp"
#include "vqtwin/results.hpp"

namespace vqtwin_cli {

// "vqtwin: error: MESSAGE": one line, printable, bounded (the last guard: parts are bounded where made).
void print_error(const std::string& message);

// The mean of every metric, the model scores (the headline) first; `indent` before each line.
void print_summary(std::FILE* f, const vqtwin::Results& r, const char* indent = "");

// The output text of `r` as write_output() writes it.
std::string render_output(const vqtwin::Results& r, const vqtwin::OutputOptions& options);

// Peak resident memory (VmHWM) on stderr when VQTWIN_REPORT_PEAK_MEMORY is set (the benchmarks).
void report_peak_memory();

// The file name of `path` without its last extension ("out/a.720p.mp4" -> "a.720p"); "stdin" for "-".
std::string path_stem(const std::string& path);
// The file name of `path` ("out/a.mp4" -> "a.mp4"); "stdin" for "-".
std::string path_name(const std::string& path);

}  // namespace vqtwin_cli
