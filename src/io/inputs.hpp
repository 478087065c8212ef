#pragma once
// The engine's two inputs, opened and made comparable: same size (--scale) and bit depth
// (--common_bitdepth) or a one-line error that names the option that would fix it.
#include <memory>
#include <string>
#include <vector>

#include "io/picture_source.hpp"

namespace vqtwin {

struct InputOptions {
  SourceOptions source;
  std::string scale;  // "" or "none": sizes must match; "auto": the distorted to the reference size; "WxH"
  bool common_bitdepth = false;
};

struct Inputs {
  std::unique_ptr<PictureSource> ref, dist;
  PictureFormat format;  // what both deliver
  // What was converted, one entry per kind ("scale", "bitdepth"), in words, for stderr and the output.
  std::vector<std::pair<std::string, std::string>> conversions;
};

Inputs open_inputs(const std::string& reference, const std::string& distorted, const InputOptions& options);

}  // namespace vqtwin
