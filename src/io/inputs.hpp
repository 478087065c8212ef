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

// The steps of open_inputs(), for a ladder that opens its reference once for several distorted inputs.
// Throws for a --scale value that is not auto, none or WxH.
void check_input_options(const InputOptions& options);
// The format both inputs are compared at, and what converting them to it means in words (the
// `conversions` of Inputs); throws the error open_inputs() gives for inputs that cannot be compared.
struct InputPlan {
  PictureFormat target;
  std::vector<std::pair<std::string, std::string>> conversions;
};
InputPlan plan_inputs(const PictureFormat& ref, const PictureFormat& dist, const std::string& distorted,
                      const InputOptions& options);
// Makes `src` deliver `target`: converted by the source itself where it can, else wrapped.
void convert_source(std::unique_ptr<PictureSource>& src, const PictureFormat& target);

}  // namespace vqtwin
