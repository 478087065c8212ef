#pragma once
// One scoring run: two inputs, the features and models asked for, the settings of the vmaf CLI.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vqtwin/backend.hpp"
#include "vqtwin/export.hpp"
#include "vqtwin/results.hpp"
#include "vqtwin/session.hpp"

namespace vqtwin {

// The session's settings (features, models, backend, threads, subsample, callbacks; vqtwin/session.hpp)
// and the inputs'. `threads` also sets each decoder's threads; `progress` gets the frames expected.
struct RunConfig : SessionConfig {
  // Paths ("-" = standard input): y4m, raw .yuv (with the four below), or any video FFmpeg decodes
  // (when built with it), told apart by their content.
  std::string reference;
  std::string distorted;
  // Raw .yuv input (all four, as the vmaf CLI's -w -h -p -b); unused for y4m and compressed input.
  int width = 0;
  int height = 0;
  std::string pixel_format;
  int bitdepth = 0;

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

  // Inputs that differ: "" or "none" = an error; "auto" = the distorted scaled to the reference's size;
  // "WxH" = both scaled to WxH (bicubic, the pixels of ffmpeg -vf scale=W:H:flags=bicubic).
  std::string scale;
  bool common_bitdepth = false;  // the lower bit depth shifted up to the higher (libvmaf's, --aom_ctc v6.0)
  // Time alignment: "" = look at the first frames and warn when the distorted looks shifted; "auto" =
  // apply the offset found (recorded in Results::sync_offset); "none" = no check.
  std::string sync;
  // Where compressed input is decoded: "auto" (default) = per input, NVDEC where the measured rates
  // say it is faster for a run on a CUDA device, else software; "cuda" = NVDEC (libavcodec's cuda
  // hwaccel) on --gpu, a stream it refuses is an error; "none" = software. Frames decoded on the
  // device stay there for the CUDA twins; the values never depend on it.
  std::string hwdec = "auto";
};

// The vmaf CLI's presets: `flag` is "aom_ctc" (versions v1.0 ... v7.0) or "nflx_ctc" (v1.0). Appends
// the preset's models and features to `config` as libvmaf 3.2's CLI does where the flag appears on its
// command line (so earlier --feature/--model texts come first; v7.0 replaces the first float_ssim
// feature given so far). Throws vqtwin::Error for an unknown flag or version.
VQTWIN_API void apply_preset(const std::string& flag, const std::string& version, RunConfig& config);

// Runs to the end of the shorter input. Throws vqtwin::Error with a one-line message on bad
// input or options; `out` then still holds every frame finished before the error (and the
// temporal features flushed over them), so the caller can write it.
VQTWIN_API void run(const RunConfig& config, Results& out);

VQTWIN_API const char* version();

// A human-readable list of every extractor: names, backend, outputs a model may request, and each
// option with its type, default, range and meaning (the CLI's --list).
VQTWIN_API std::string describe_extractors();

// The devices the twins can use (the CLI's --list-devices): the CUDA devices, then each Vulkan device
// with its name, type, vendor, driver, API version and the features the Vulkan twins' checks ask about.
VQTWIN_API std::string describe_devices();

// A human-readable list of the VMAF models `--model version=NAME` finds: the built-in ones, then the
// files on the model search path, each with the extractors (and options) it needs (the CLI's
// --list-models).
VQTWIN_API std::string describe_models();

}  // namespace vqtwin
