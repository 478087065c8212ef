#include "io/hwdec.hpp"

#include <algorithm>
#include <cstdio>

namespace vqtwin {
namespace {

// Frames per second at 1080p as vqtwin's whole pipeline reaches them, over all the streams of a run
// (VMAF, whole process, median of 3; an H100 host with 16 cores, Debian's libavcodec 5.1;
// tools/device/nvdec_checks.sh, 2026-12-06): software with 16 threads, H.264 868 (a pair of renditions:
// 434 pairs/s) and HEVC 1023 (a ladder of four renditions against a y4m reference); NVDEC, H.264 548
// (274 pairs/s) and HEVC 877 (the same ladder). NVDEC's sessions do not add up in this pipeline (the
// ladder's four reached 877 frames/s together; one HEVC 10-bit stream 543 in a whole run), so the number
// of streams does not change the choice; software's total falls with the threads. A decode-only probe
// on the H200 gave NVDEC 584 (H.264) and 1006 (HEVC 10-bit) fps per session: the rule follows what the
// whole run reaches. Both scale with the picture's samples alike, so the comparison holds at any size.
// HEVC's 8- and 10-bit rates are taken as the same. A codec not listed here (AV1: Debian's libavcodec
// refused NVDEC's test stream; VP9, MPEG-2, ...) is decoded in software unless --hwdec cuda asks.
struct Rates {
  const char* codec;
  double software_16_threads;
  double nvdec;
};
constexpr Rates kRates[] = {
    {"h264", 868, 548},
    {"hevc", 1023, 877},
};
constexpr unsigned kMeasuredThreads = 16;
// NVDEC's largest H.264 picture (HEVC and AV1: 8192x8192, above --max_pixels' default).
constexpr int kNvdecH264MaxSide = 4096;

std::string fps(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

}  // namespace

const char* to_string(HwDecode h) {
  switch (h) {
    case HwDecode::kAuto: return "auto";
    case HwDecode::kCuda: return "cuda";
    case HwDecode::kNone: return "none";
  }
  return "?";
}

std::optional<HwDecode> parse_hwdec(std::string_view text) {
  if (text == "auto") return HwDecode::kAuto;
  if (text == "cuda") return HwDecode::kCuda;
  if (text == "none") return HwDecode::kNone;
  return std::nullopt;
}

HwDecodeChoice choose_hwdec(const HwDecodeInput& in, const HwDecodeRequest& request) {
  if (request.mode == HwDecode::kNone) return {false, "software (--hwdec none)"};
  if (request.mode == HwDecode::kCuda) return {true, "NVDEC (--hwdec cuda)"};
  if (!request.device_run) return {false, "software (the run computes on the CPU)"};
  const Rates* r = nullptr;
  for (const Rates& x : kRates)
    if (in.codec == x.codec) r = &x;
  if (!r) return {false, "software (no measured NVDEC rate for " + in.codec + ")"};
  if (in.codec == "h264" && std::max(in.width, in.height) > kNvdecH264MaxSide)
    return {false, "software (NVDEC decodes H.264 up to 4096x4096)"};
  const unsigned streams = std::max(1u, request.streams);
  // Per stream, to say so; the comparison is the totals'.
  const double software = r->software_16_threads * double(std::max(1u, request.cpu_threads)) / kMeasuredThreads / streams;
  const double nvdec = r->nvdec / streams;
  const std::string rates = in.codec + ": about " + fps(nvdec) + " fps per stream on NVDEC against " + fps(software) +
                            " in software on " + std::to_string(std::max(1u, request.cpu_threads)) + " threads, " +
                            std::to_string(streams) + " streams, at 1080p";
  if (nvdec > software) return {true, "NVDEC (" + rates + ")"};
  return {false, "software (" + rates + ")"};
}

}  // namespace vqtwin
