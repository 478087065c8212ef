// Bootstrap statistics (see bootstrap.hpp): every step in libvmaf's order and types.
#include "models/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace vqtwin::models {

double percentile(std::span<const double> sorted, double perc) {
  const double p = perc * double(sorted.size() - 1) / 100.;
  const int l = int(std::floor(p)), r = int(std::ceil(p));
  if (l == r) return sorted[std::size_t(l)];
  return sorted[std::size_t(l)] * (r - p) + sorted[std::size_t(r)] * (p - l);
}

BootstrapStats bootstrap_stats(std::span<const double> scores) {
  BootstrapStats s;
  const double n = double(scores.size());
  double sum = 0.;
  for (double v : scores) sum += v;
  s.mean = sum / n;
  double ssd = 0.;
  for (double v : scores) {
    const double d = v - s.mean;
    ssd += d * d;  // libvmaf's pow(d, 2), which the compiler makes d * d
  }
  s.stddev = std::sqrt(ssd / n);
  std::vector<double> sorted(scores.begin(), scores.end());
  std::sort(sorted.begin(), sorted.end());
  s.lo = percentile(sorted, 2.5);
  s.hi = percentile(sorted, 97.5);
  return s;
}

}  // namespace vqtwin::models
