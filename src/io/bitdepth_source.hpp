#pragma once
// A picture source read at a larger bit depth than its file's: --aom_ctc v6.0 and later let the two
// videos differ in depth and compute both at the larger one.
#include <memory>

#include "io/picture_source.hpp"

namespace vqtwin {

// `inner` read at `bitdepth` (> its own): every sample v becomes v << (bitdepth - inner depth), so the
// sample keeps its place in the range (8-bit 235 -> 10-bit 940), as AOM's tools convert.
std::unique_ptr<PictureSource> widen_bitdepth(std::unique_ptr<PictureSource> inner, int bitdepth);

}  // namespace vqtwin
