#pragma once
// The statistics of a bootstrap model collection (libvmaf 3.2 predict.c), per frame, from the raw
// scores (no transform, no clip) of its bootstrap models 1..n.
#include <span>

namespace vqtwin::models {

struct BootstrapStats {
  double mean = 0;    // sum in model order / n
  double stddev = 0;  // sqrt(sum of (s - mean)^2 / n), population form
  double lo = 0;      // the 2.5th and 97.5th percentiles, linear between the sorted scores at
  double hi = 0;      //   floor and ceil of perc * (n - 1) / 100
};

BootstrapStats bootstrap_stats(std::span<const double> scores);

// libvmaf's percentile of sorted scores.
double percentile(std::span<const double> sorted, double perc);

}  // namespace vqtwin::models
