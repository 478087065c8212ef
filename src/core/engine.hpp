#pragma once
// The engine's entry with its inputs supplied: run() opens both inputs itself (open_inputs); a ladder
// hands each of its runs the shared reference and that run's opened distorted input.
#include <functional>

#include "io/inputs.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin {

// Called once by the run, where run() would open its inputs (after the options and contexts were
// checked, so a run reports its errors in the same order whoever opens the inputs).
using InputOpener = std::function<Inputs(const InputOptions&)>;

// The --hwdec request of run `c` on `threads` threads (a pair: two streams; a ladder sets its own).
HwDecodeRequest hwdec_request(HwDecode mode, const RunConfig& c, unsigned threads);

// run(), with the inputs from `open`.
void run_with_inputs(const RunConfig& config, Results& out, const InputOpener& open);

}  // namespace vqtwin
