#include "io/hwdec.hpp"

#include <algorithm>
#include <cstdio>

namespace vqtwin {
namespace {

// Frames per second per stream at 1080p as vqtwin's whole pipeline reaches them (decode + PSNR, two
// streams, 240 frames, median of 3; an H100 host with 16 cores, Debian's libavcodec 5.1;
// tools/device/nvdec_checks.sh): software with 16 threads shared by the two streams (352 and 293 frame
// pairs per second), and NVDEC with one session per stream (212 and 268 pairs per second). A
// decode-only probe on the H200 gave NVDEC 584 (H.264) and 1006 (HEVC 10-bit) fps per session:
// vqtwin's NVDEC path does not reach them yet, and the rule follows what it reaches. Both scale with the
// picture's samples alike, so the comparison holds at any size. HEVC was measured at 10 bits; its 8-bit
// rates are taken as the same. A codec not listed here (AV1: NVDEC refused the test stream; VP9,
// MPEG-2, ...) is decoded in software unless --hwdec cuda asks.
struct Rates {
  const char* codec;
  double software_16_threads;
  double nvdec_one_engine;
};
constexpr Rates kRates[] = {
    {"h264", 704, 212},
    {"hevc", 586, 268},
};
// The NVDEC engines of an H100/H200 (7): one session per stream, spread over them by the driver.
constexpr unsigned kNvdecEngines = 7;
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
  const double software = r->software_16_threads * double(std::max(1u, request.cpu_threads)) / kMeasuredThreads / streams;
  const double nvdec = r->nvdec_one_engine * std::min(1.0, double(kNvdecEngines) / streams);
  const std::string rates = in.codec + ": about " + fps(nvdec) + " fps per stream on NVDEC against " + fps(software) +
                            " in software on " + std::to_string(std::max(1u, request.cpu_threads)) + " threads, " +
                            std::to_string(streams) + " streams, at 1080p";
  if (nvdec > software) return {true, "NVDEC (" + rates + ")"};
  return {false, "software (" + rates + ")"};
}

}  // namespace vqtwin
