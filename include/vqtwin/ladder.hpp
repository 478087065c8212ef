#pragma once
// A bitrate ladder in one pass: one reference against several distorted inputs (renditions, possibly
// of other sizes, scaled as --scale asks). The reference is read, decoded and converted once and
// shared by every rendition's run; each rendition is scored exactly as run() would score it alone,
// bit for bit, with its own options, models, threads and device.
#include <memory>
#include <string>
#include <vector>

#include "vqtwin/export.hpp"
#include "vqtwin/results.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin {

struct RenditionResult {
  Results results;    // as run() fills it: on an error, the frames finished before it
  std::string error;  // "" = scored to the end; else run()'s one-line error for this rendition
};

// One run per element of `renditions`, all at once (each on its own threads: RunConfig::threads each),
// sharing the reference. Every element must name the same reference with the same raw-input geometry
// (width, height, pixel_format, bitdepth) and max_pixels, else vqtwin::Error is thrown before anything
// runs. One rendition's error (a bad distorted file, options, a damaged frame) does not stop the
// others; an error of the reference is every rendition's error from the frame it occurs on. The
// reference's reads give up when renditions[0].stop is set.
VQTWIN_API std::vector<std::unique_ptr<RenditionResult>> run_ladder(const std::vector<RunConfig>& renditions);

}  // namespace vqtwin
