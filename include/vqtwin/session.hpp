#pragma once
// A scoring session over frames the caller has in memory (its own decoder, an encoder's reconstructed
// frames): open it with the picture format and the configuration the CLI has, push (reference,
// distorted) pairs, finish, read the per-frame and pooled scores and the receipt from the Results.
// vqtwin's own file readers (vqtwin::run, the CLI) feed this same session.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vqtwin/backend.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/export.hpp"
#include "vqtwin/picture.hpp"
#include "vqtwin/rcpss.hpp"
#include "vqtwin/results.hpp"

namespace vqtwin {

class FrameFeeder;

struct SessionConfig {
  std::vector<std::string> features;  // "--feature" texts: "psnr", "float_ssim=enable_db=true:clip_db=true"
  std::vector<std::string> models;    // "--model" texts: "version=vmaf_v0.6.1", "path=x.json:name=foo"
  // Without models and without no_prediction, VMAF (version=vmaf_v0.6.1) is computed, as by the CLI.
  bool no_prediction = false;
  Backend backend = Backend::kCpu;  // where extractors run (vqtwin/backend.hpp)
  int gpu = 0;                      // the CUDA device index
  // Instruction sets the CPU kernels must not use, as libvmaf's --cpumask (8 AVX2, 16 AVX-512, ...;
  // ~0u = the portable code alone). Speed only: every variant computes the same bits. It applies while
  // the session lasts, to every session and run in the process.
  unsigned cpumask = 0;
  // Whose x86 `rcpss` reciprocal float ADM reproduces (vqtwin/rcpss.hpp): it changes float ADM's values
  // and the float VMAF models' scores in the last digits (order 1e-7), nothing else.
  Rcpss rcpss = Rcpss::kAmd;
  // Worker threads computing frames in parallel (the pushing threads only copy); 0 = one per core.
  // Results are identical for every number.
  unsigned threads = 0;
  unsigned subsample = 1;  // compute every N-th frame (temporal features still see every frame)

  // Called after each frame with the frames done and the frames expected (0 = unknown), from the
  // worker that finished it.
  std::function<void(unsigned frames_done, unsigned frames_total)> progress;
  // One line per event the user should know of (a twin fell back to the CPU, two requests merged).
  std::function<void(const std::string&)> warn;
  // One line saying what was done to the inputs as asked (file runs: --scale, --sync auto).
  std::function<void(const std::string&)> note;
};

// One plane in the caller's memory: samples of uint8_t (8-bit) or uint16_t (9..16-bit, low bits, native
// endianness), rows `stride` bytes apart (at least the plane's width in bytes).
struct PlaneView {
  const void* data = nullptr;
  std::ptrdiff_t stride = 0;
};

// A picture in the caller's memory: Y, Cb, Cr (Y alone for 4:0:0), planes of the sizes
// PictureFormat::plane_width/plane_height give (chroma rounded up at odd sizes).
struct PictureView {
  PlaneView planes[3];
};

class VQTWIN_API Session {
 public:
  // Registers the models' and features' extractors (models first, as the CLI), picks each one's backend
  // for `format` and starts the workers. Results go to `out`, which must outlive the session. Throws
  // vqtwin::Error (one line) for unknown features or options, bad models, a format an extractor refuses.
  Session(const SessionConfig& config, const PictureFormat& format, Results& out);
  ~Session();  // waits for the frames in flight; a session not finished leaves `out` incomplete
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const PictureFormat& format() const;

  // Copies the pair into the session's pictures and queues it as the next frame; returns its index.
  // The caller's memory is free again when push returns. Blocks while every picture is in use (frames
  // in flight are bounded). Safe from several threads: frames are numbered in the order their copies
  // are queued, and temporal features see them in that order. Throws vqtwin::Error for a view that
  // does not fit the format, or the error an earlier frame raised (then call finish()).
  unsigned push(const PictureView& ref, const PictureView& dist);
  // The same for pictures of vqtwin's own layout (copied as well).
  unsigned push(const Picture& ref, const Picture& dist);

  // Without a copy: a free pair of the session's pictures (blocks until one is free), to fill in place
  // and hand back with submit() (queued as the next frame; returns its index) or release() (unused).
  struct Slot {
    unsigned id = 0;
    Picture* ref = nullptr;
    Picture* dist = nullptr;
  };
  Slot acquire();
  unsigned submit(const Slot& slot);
  void release(const Slot& slot);

  // Waits for every frame queued, flushes the temporal features and computes the model scores over the
  // frames pushed, and fills the Results' metadata (frames, fps, size). Throws the first error a frame
  // raised; the Results then still hold every frame computed (and the flush over them). Once only.
  void finish();

  unsigned frames_pushed() const;

 private:
  // vqtwin::run's file reader, whose frames the workers read themselves (core/session_internal.hpp).
  friend void feed_session(Session& session, FrameFeeder& feeder);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vqtwin
