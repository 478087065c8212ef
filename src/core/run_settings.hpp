#pragma once
// The settings of a run that an extractor needs besides its options: the same for every context of
// the run, taken from RunConfig by the engine and given to every implementation it creates (a CPU
// reference, a twin, or the CPU fallback of a twin), so they cannot disagree.
#include "vqtwin/rcpss.hpp"

namespace vqtwin {

struct RunSettings {
  Rcpss rcpss = Rcpss::kAmd;  // float ADM's reciprocal (RunConfig::rcpss)
};

}  // namespace vqtwin
