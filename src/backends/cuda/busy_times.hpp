#pragma once
// How busy the device was during a run (VQTWIN_REPORT_DEVICE_BUSY=1): each frame's interval on the
// device clock, from the start of its upload through the end of its last kernel or copy, measured
// with CUDA events on the frame's stream. At the end, the union of the intervals against the span
// from the first upload to the last frame's end says what fraction of the time the device had a
// frame's work in hand; the union of the upload parts and of the compute parts say the same for
// each. An interval counts the time a frame's kernels wait for another frame's (a temporal twin's
// chain), so the fraction is an upper bound of the time kernels ran. One line on stderr at the end.
#include <mutex>
#include <vector>

#include "backends/cuda/memory.hpp"

namespace vqtwin::cuda {

class BusyTimes {
 public:
  BusyTimes();  // records the origin (the device is idle then)
  ~BusyTimes();  // prints the line
  // Whether the environment asks for it.
  static bool wanted();
  // Milliseconds from the origin to `e` (a completed event).
  float since_origin(cudaEvent_t e) const;
  void add(float upload_start, float compute_start, float end);
  // The figures; `line` the sentence printed.
  struct Summary {
    double span_ms = 0, busy_ms = 0, upload_ms = 0, compute_ms = 0, in_flight_ms = 0;
    unsigned frames = 0;
  };
  Summary summary() const;

 private:
  Event origin_{true};
  mutable std::mutex mutex_;
  struct Interval {
    float upload, compute, end;
  };
  std::vector<Interval> frames_;
};

}  // namespace vqtwin::cuda
