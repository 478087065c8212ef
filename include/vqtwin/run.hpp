#pragma once
// One scoring run: two inputs, the features and models asked for, the settings of the vmaf CLI.
#include <atomic>
#include <cstdint>
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

  unsigned threads = 1;
  unsigned subsample = 1;
  unsigned frame_cnt = 0;  // 0 = all
  unsigned frame_skip_ref = 0;
  unsigned frame_skip_dist = 0;
  // Inputs of different lengths: false = one warning (through `warn`) and the common frames are
  // scored; true = an error after the common frames (which are kept, as for any input error).
  bool strict_length = false;
  // The largest picture (luma samples per frame) an input may declare; at most 2^28 (16384 x 16384).
  // Each worker allocates one picture pair of the input's size, so this bounds the memory a header
  // can ask for. Default 2^26 (8192 x 8192).
  std::uint64_t max_pixels = std::uint64_t(1) << 26;
  // When it becomes true (it may be set from a signal handler), the run stops reading, finishes the
  // frames in flight, flushes and predicts over the frames read, and returns normally; a read waiting
  // on a pipe gives up. The results then hold those frames.
  const std::atomic<bool>* stop = nullptr;

  // Called after each frame with the number of frames done (from the calling thread's pool).
  std::function<void(unsigned frames_done)> progress;
  // One line per event the user should know of (e.g. a twin fell back to the CPU).
  std::function<void(const std::string&)> warn;
};

// Runs to the end of the shorter input. Throws vqtwin::Error with a one-line message on bad
// input or options; `out` then still holds every frame finished before the error (and the
// temporal features flushed over them), so the caller can write it.
void run(const RunConfig& config, Results& out);

const char* version();

// A human-readable list of every extractor: names, backend, outputs a model may request, and each
// option with its type, default, range and meaning (the CLI's --list).
std::string describe_extractors();

}  // namespace vqtwin
