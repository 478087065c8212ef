#include "io/inputs.hpp"

#include <cstdlib>
#include <exception>
#include <system_error>
#include <thread>

#include "io/convert.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

// "1920x1080" (also "1920:1080") into w, h; false if it is not two positive numbers.
bool parse_size(const std::string& text, int& w, int& h) {
  const std::size_t x = text.find_first_of("x:");
  if (x == std::string::npos || x == 0 || x + 1 >= text.size()) return false;
  char* end = nullptr;
  const long a = std::strtol(text.c_str(), &end, 10);
  if (end != text.c_str() + x) return false;
  const long b = std::strtol(text.c_str() + x + 1, &end, 10);
  if (*end || a < 1 || b < 1 || a > (1 << 16) || b > (1 << 16)) return false;
  w = int(a);
  h = int(b);
  return true;
}

}  // namespace

void convert_source(std::unique_ptr<PictureSource>& src, const PictureFormat& target) {
  if (src->format() == target || src->convert_to(target)) return;
  src = std::make_unique<ConvertedSource>(std::move(src), target);
}

void check_input_options(const InputOptions& options) {
  int w = 0, h = 0;
  const std::string& scale = options.scale;
  if (!scale.empty() && scale != "none" && scale != "auto" && !parse_size(scale, w, h))
    throw Error("--scale must be auto, none or WxH (e.g. 1920x1080), not '" + scale + "'");
}

Inputs open_inputs(const std::string& reference, const std::string& distorted, const InputOptions& options) {
  if (reference == "-" && distorted == "-")
    throw Error("only one of --reference and --distorted can be standard input");
  check_input_options(options);
  Inputs in;
  // The two open at once: opening a compressed input probes its streams and decodes its first frame,
  // and on NVDEC also loads the decoder library and creates the decoder (most of a run's start-up,
  // twice when one after the other). The reference's error is said first, as when opened in order.
  std::exception_ptr dist_error;
  std::thread dist_opener;
  try {
    dist_opener = std::thread([&] {
      try {
        in.dist = open_picture_source(distorted, options.source);
      } catch (...) {
        dist_error = std::current_exception();
      }
    });
  } catch (const std::system_error&) {
    // no thread to be had: opened after the reference
  }
  try {
    in.ref = open_picture_source(reference, options.source);
  } catch (...) {
    if (dist_opener.joinable()) dist_opener.join();
    throw;
  }
  if (dist_opener.joinable())
    dist_opener.join();
  else
    in.dist = open_picture_source(distorted, options.source);
  if (dist_error) std::rethrow_exception(dist_error);
  InputPlan plan = plan_inputs(in.ref->format(), in.dist->format(), distorted, options);
  convert_source(in.ref, plan.target);
  convert_source(in.dist, plan.target);
  in.format = plan.target;
  in.conversions = std::move(plan.conversions);
  return in;
}

InputPlan plan_inputs(const PictureFormat& rf, const PictureFormat& df, const std::string& distorted,
                      const InputOptions& options) {
  check_input_options(options);
  int scale_w = 0, scale_h = 0;
  const std::string& scale = options.scale;
  if (scale != "auto" && scale != "none" && !scale.empty()) parse_size(scale, scale_w, scale_h);
  if (rf.chroma != df.chroma)
    throw Error("reference " + rf.describe() + " and distorted " + df.describe() +
                " pictures differ in chroma format; convert one first (e.g. ffmpeg -i " + distorted + " -pix_fmt " +
                (rf.chroma == ChromaFormat::k444 ? "yuv444p" : rf.chroma == ChromaFormat::k422 ? "yuv422p" : "yuv420p") +
                (rf.bitdepth > 8 ? std::to_string(rf.bitdepth) + "le" : "") + " ...)");

  PictureFormat target = rf;
  if (scale == "auto") {
    // the reference's size
  } else if (scale_w) {
    target.width = scale_w;
    target.height = scale_h;
  } else if (rf.width != df.width || rf.height != df.height) {
    throw Error("reference " + rf.describe() + " and distorted " + df.describe() + " pictures differ in size" +
                (scale == "none" ? "" : "; --scale auto scales the distorted to the reference size (bicubic, the pixels of ffmpeg -vf scale=" +
                                            std::to_string(rf.width) + ":" + std::to_string(rf.height) + ":flags=bicubic)"));
  }
  if (rf.bitdepth != df.bitdepth) {
    if (!options.common_bitdepth)
      throw Error("reference " + rf.describe() + " and distorted " + df.describe() +
                  " pictures differ in bit depth; --common_bitdepth converts the lower to the higher (as libvmaf's "
                  "--aom_ctc v6.0 does)");
    target.bitdepth = std::max(rf.bitdepth, df.bitdepth);
  }
  InputPlan plan;
  plan.target = target;
  std::string scaled, shifted;
  for (const PictureFormat* fp : {&rf, &df}) {
    const char* role = fp == &rf ? "reference" : "distorted";
    const PictureFormat& f = *fp;
    if (f.width != target.width || f.height != target.height)
      scaled += std::string(scaled.empty() ? "" : ", ") + role + " " + size_text(f.width, f.height) + " to " +
                size_text(target.width, target.height);
    if (f.bitdepth != target.bitdepth)
      shifted += std::string(shifted.empty() ? "" : ", ") + role + " " + std::to_string(f.bitdepth) + "-bit to " +
                 std::to_string(target.bitdepth) + "-bit (samples shifted left by " +
                 std::to_string(target.bitdepth - f.bitdepth) + ")";
  }
  if (!scaled.empty())
    plan.conversions.emplace_back("scale", scaled + ", bicubic (ffmpeg -vf scale=" + std::to_string(target.width) +
                                             ":" + std::to_string(target.height) + ":flags=bicubic)");
  if (!shifted.empty()) plan.conversions.emplace_back("bitdepth", shifted);
  return plan;
}

}  // namespace vqtwin
