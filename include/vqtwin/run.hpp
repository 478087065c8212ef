#pragma once
// One scoring run: two inputs, the features and models asked for, the settings of the vmaf CLI.
#include <functional>
#include <string>
#include <vector>

#include "vqtwin/backend.hpp"
#include "vqtwin/results.hpp"

namespace vqtwin {

struct RunConfig {
  std::string reference;
  std::string distorted;
  // Raw .yuv input (all four, as the vmaf CLI's -w -h -p -b); unused for y4m.
  int width = 0;
  int height = 0;
  std::string pixel_format;
  int bitdepth = 0;

  std::vector<std::string> features;  // "--feature" texts: "psnr", "float_ssim=enable_db=true:clip_db=true"
  std::vector<std::string> models;    // "--model" texts: "version=vmaf_v0.6.1", "path=x.json:name=foo"
  bool no_prediction = false;
  Backend backend = Backend::kCpu;  // where extractors run (vqtwin/backend.hpp)
  int gpu = 0;                      // the CUDA device index (--gpu N)

  // The reference and the distorted video may differ in bit depth; both are then computed at the larger
  // one, the other's samples shifted up (v << difference). Set by --aom_ctc v6.0 and v7.0.
  bool common_bitdepth = false;

  unsigned threads = 1;
  unsigned subsample = 1;
  unsigned frame_cnt = 0;  // 0 = all
  unsigned frame_skip_ref = 0;
  unsigned frame_skip_dist = 0;

  // Called after each frame with the number of frames done (from the calling thread's pool).
  std::function<void(unsigned frames_done)> progress;
  // One line per event the user should know of (e.g. a twin fell back to the CPU).
  std::function<void(const std::string&)> warn;
};

// The vmaf CLI's presets: `flag` is "aom_ctc" (versions v1.0 ... v7.0) or "nflx_ctc" (v1.0). Appends
// the preset's models and features to `config` as libvmaf 3.2's CLI does where the flag appears on its
// command line (so earlier --feature/--model texts come first; v7.0 replaces the first float_ssim
// feature given so far). Throws vqtwin::Error for an unknown flag or version.
void apply_preset(const std::string& flag, const std::string& version, RunConfig& config);

// Runs to the end of the shorter input. Throws vqtwin::Error with a one-line message on bad
// input or options; `out` then still holds every frame finished before the error (and the
// temporal features flushed over them), so the caller can write it.
void run(const RunConfig& config, Results& out);

const char* version();

// A human-readable list of every extractor: names, backend, outputs a model may request, and each
// option with its type, default, range and meaning (the CLI's --list).
std::string describe_extractors();

}  // namespace vqtwin
