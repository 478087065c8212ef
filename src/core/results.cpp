#include "vqtwin/results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace vqtwin {

std::string Pooling::name() const {
  switch (method) {
    case PoolMethod::kMin: return "min";
    case PoolMethod::kMax: return "max";
    case PoolMethod::kMean: return "mean";
    case PoolMethod::kHarmonicMean: return "harmonic_mean";
    case PoolMethod::kPercentile: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "perc%g", percentile);
      return buf;
    }
  }
  return "?";
}

std::optional<Pooling> Pooling::parse(std::string_view t) {
  if (t == "min") return Pooling{PoolMethod::kMin};
  if (t == "max") return Pooling{PoolMethod::kMax};
  if (t == "mean") return Pooling{PoolMethod::kMean};
  if (t == "harmonic_mean") return Pooling{PoolMethod::kHarmonicMean};
  if (t.starts_with("perc") && t.size() > 4) {
    std::string num(t.substr(4));
    char* end = nullptr;
    double p = std::strtod(num.c_str(), &end);
    if (*end == 0 && p >= 0 && p <= 100) return Pooling{PoolMethod::kPercentile, p};
  }
  return std::nullopt;
}

void Results::put(std::string_view name, unsigned frame, double value, Order order) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = series_.try_emplace(std::string(name));
  Series& s = it->second;
  if (inserted || order < s.first) s.first = order;
  if (s.values.size() <= frame) {
    s.values.resize(frame + 1, 0.0);
    s.written.resize(frame + 1, false);
  }
  s.values[frame] = value;
  s.written[frame] = true;
}

void Results::put(std::string_view name, unsigned frame, double value) {
  put(name, frame, value, Order{});
}

void Results::drop_frames_from(unsigned frame) {
  std::lock_guard lock(mutex_);
  for (auto it = series_.begin(); it != series_.end();) {
    Series& s = it->second;
    if (s.values.size() > frame) {
      s.values.resize(frame);
      s.written.resize(frame);
    }
    if (std::find(s.written.begin(), s.written.end(), true) == s.written.end()) {
      it = series_.erase(it);
    } else {
      ++it;
    }
  }
}

void Results::aggregate(std::string_view name, double value) {
  std::lock_guard lock(mutex_);
  for (auto& a : aggregates_)
    if (a.first == name) {
      a.second = value;
      return;
    }
  aggregates_.emplace_back(std::string(name), value);
}

std::vector<std::string> Results::names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<Order, std::string>> v;
  for (const auto& [n, s] : series_) v.emplace_back(s.first, n);
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    if (a.first < b.first) return true;
    if (b.first < a.first) return false;
    return a.second < b.second;
  });
  std::vector<std::string> out;
  for (auto& p : v) out.push_back(std::move(p.second));
  return out;
}

unsigned Results::frame_count() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [name, s] : series_) n = std::max(n, s.values.size());
  return unsigned(n);
}

bool Results::has(std::string_view name) const {
  std::lock_guard lock(mutex_);
  return series_.count(std::string(name)) != 0;
}

std::optional<double> Results::value(std::string_view name, unsigned frame) const {
  std::lock_guard lock(mutex_);
  auto it = series_.find(std::string(name));
  if (it == series_.end() || frame >= it->second.values.size() || !it->second.written[frame])
    return std::nullopt;
  return it->second.values[frame];
}

std::optional<double> Results::pooled(std::string_view name, const Pooling& how, unsigned subsample) const {
  const unsigned n_frames = frames ? frames : frame_count();
  if (n_frames == 0) return std::nullopt;
  std::vector<double> xs;
  for (unsigned i = 0; i < n_frames; ++i) {
    if (subsample > 1 && i % subsample) continue;
    auto v = value(name, i);
    if (!v) return std::nullopt;
    xs.push_back(*v);
  }
  if (xs.empty()) return std::nullopt;
  // libvmaf's definitions, in its order of operations (the first frame seeds min and max).
  double mn = 0, mx = 0, sum = 0, isum = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double s = xs[i];
    sum += s;
    isum += 1. / (s + 1.);
    if (i == 0 || s < mn) mn = s;
    if (i == 0 || s > mx) mx = s;
  }
  const unsigned cnt = unsigned(xs.size());
  switch (how.method) {
    case PoolMethod::kMin: return mn;
    case PoolMethod::kMax: return mx;
    case PoolMethod::kMean: return sum / cnt;
    case PoolMethod::kHarmonicMean: return cnt / isum - 1.0;
    case PoolMethod::kPercentile: {
      // Linear interpolation between closest ranks (numpy's default); NaN sorts last.
      std::sort(xs.begin(), xs.end(), [](double a, double b) {
        if (std::isnan(a)) return false;
        if (std::isnan(b)) return true;
        return a < b;
      });
      const double pos = how.percentile / 100.0 * double(xs.size() - 1);
      const std::size_t lo = std::size_t(std::floor(pos));
      const std::size_t hi = std::min(lo + 1, xs.size() - 1);
      const double frac = pos - double(lo);
      return xs[lo] + (xs[hi] - xs[lo]) * frac;
    }
  }
  return std::nullopt;
}

void Results::record_implementation(std::string_view name, std::string_view implementation) {
  std::lock_guard lock(mutex_);
  for (const auto& [n, impl] : receipt_)
    if (n == name) return;
  receipt_.emplace_back(std::string(name), std::string(implementation));
}

std::vector<std::pair<std::string, std::string>> Results::receipt() const {
  std::lock_guard lock(mutex_);
  return receipt_;
}

}  // namespace vqtwin
