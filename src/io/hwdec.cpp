#include "io/hwdec.hpp"

#include <algorithm>
#include <cstdio>

namespace vqtwin {
namespace {

// Frames per second at 1080p, decode only, measured on the H200 (16 cores, Debian's libavcodec 5.1):
// software with 16 threads, and NVDEC with one session (one engine). Both scale with the picture's
// samples alike, so the comparison holds at any size. HEVC was measured at 10 bits; its 8-bit rates
// are taken as the same. A codec not listed here (AV1: Debian's libavcodec picks libdav1d, which
// has no hwaccel; VP9, MPEG-2, ...) is decoded in software unless --hwdec cuda asks.
struct Rates {
  const char* codec;
  double software_16_threads;
  double nvdec_one_engine;
};
constexpr Rates kRates[] = {
    {"h264", 1396, 584},
    {"hevc", 783, 1006},
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
