#pragma once
// --hwdec: where compressed input is decoded. kNone: libavcodec in software (the CPU). kCuda: NVDEC,
// through libavcodec's own `cuda` hwaccel (Debian's libavcodec has it; libnvcuvid is loaded by it when
// a decoder opens); a stream it refuses is an error. kAuto: the rule below picks per input, and a
// stream NVDEC refuses is decoded in software with one warning line.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace vqtwin {

enum class HwDecode { kAuto, kCuda, kNone };

const char* to_string(HwDecode h);  // "auto", "cuda", "none"
std::optional<HwDecode> parse_hwdec(std::string_view text);

// A CUDA context and stream for one decoder, set in libavcodec's device context before it is
// initialised (AVCUDADeviceContext's cuda_ctx and stream): the device's primary context (the one the
// twins use, so they read the decoder's surfaces) and a non-blocking stream of the decoder's own, on
// which libavcodec orders the copies of decoded pictures into its output surfaces (without one they go
// to the legacy default stream, shared by every decoder of the process). `keep` owns the stream.
struct DecoderStream {
  void* context = nullptr;  // CUcontext; null: none to be had (libavcodec then makes its own context)
  void* stream = nullptr;   // CUstream
  std::shared_ptr<void> keep;
};

// What an input's decoding is asked to do (SourceOptions::hwdec).
struct HwDecodeRequest {
  HwDecode mode = HwDecode::kNone;
  int device = 0;            // the CUDA device (--gpu)
  bool device_run = false;   // the run computes on that CUDA device (--backend cuda or auto)
  unsigned streams = 2;      // inputs the run decodes at once (a pair: 2; a ladder: its renditions + 1)
  unsigned cpu_threads = 1;  // the CPU threads the software decoders share
  // Called before a decoder takes the device (backends' cuda_share_with_decoder), if set.
  std::function<void(int device)> prepare_device;
  // The decoder's context and stream on `device` (backends' cuda_decoder_stream), if set. Without it
  // (or with VQTWIN_HWDEC_STREAM=legacy, to measure) libavcodec takes the primary context itself, with
  // blocking synchronisation and the legacy default stream (prepare_device is called first).
  std::function<DecoderStream(int device)> decoder_stream;
};

// One compressed input, as --hwdec auto sees it before its decoder opens.
struct HwDecodeInput {
  std::string codec;  // libavcodec's name: "h264", "hevc", "av1", ...
  int bitdepth = 8;
  int width = 0, height = 0;
};

struct HwDecodeChoice {
  bool device = false;
  std::string why;  // in words, for the run's line and the receipt
};

// --hwdec auto's rule, from the decode rates vqtwin's pipeline reached on the device (1080p; per NVDEC
// session and per 16 CPU threads): NVDEC when the run computes on the CUDA device, the codec's rates are
// measured and NVDEC's rate per stream (its engines shared by the run's streams) is above software
// decoding's (the CPU threads shared by the streams). Never NVDEC for a run on the CPU alone: its
// frames would come back to the host, a copy software decoding does not need.
HwDecodeChoice choose_hwdec(const HwDecodeInput& in, const HwDecodeRequest& request);

}  // namespace vqtwin
