#pragma once
// --hwdec: where compressed input is decoded. kNone: libavcodec in software (the CPU). kCuda: NVDEC,
// through libavcodec's own `cuda` hwaccel (Debian's libavcodec has it; libnvcuvid is loaded by it when
// a decoder opens); a stream it refuses is an error. kAuto: the rule below picks per input, and a
// stream NVDEC refuses is decoded in software with one warning line.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace vqtwin {

enum class HwDecode { kAuto, kCuda, kNone };

const char* to_string(HwDecode h);  // "auto", "cuda", "none"
std::optional<HwDecode> parse_hwdec(std::string_view text);

// What an input's decoding is asked to do (SourceOptions::hwdec).
struct HwDecodeRequest {
  HwDecode mode = HwDecode::kNone;
  int device = 0;            // the CUDA device (--gpu)
  bool device_run = false;   // the run computes on that CUDA device (--backend cuda or auto)
  unsigned streams = 2;      // inputs the run decodes at once (a pair: 2; a ladder: its renditions + 1)
  unsigned cpu_threads = 1;  // the CPU threads the software decoders share
  // Called before a decoder takes the device (backends' cuda_share_with_decoder), if set.
  std::function<void(int device)> prepare_device;
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
