#pragma once
// The feature collector: per-frame named values, clip aggregates, and libvmaf's pooling.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vqtwin/export.hpp"

namespace vqtwin {

enum class PoolMethod { kMin, kMax, kMean, kHarmonicMean, kPercentile };

struct VQTWIN_API Pooling {
  PoolMethod method = PoolMethod::kMean;
  double percentile = 50;  // for kPercentile, 0..100
  std::string name() const;  // "mean", "perc5", ...
  static std::optional<Pooling> parse(std::string_view text);  // "mean", "harmonic_mean", "perc5", ...
};

class VQTWIN_API Results {
 public:
  // Where a name first appeared, to order outputs as libvmaf's collector does (by first append):
  // the frame being processed, the context's registration index, the emission's rank in the call.
  struct Order {
    std::uint64_t step = 0;
    std::uint32_t context = 0;
    std::uint32_t rank = 0;
    bool operator<(const Order& o) const {
      if (step != o.step) return step < o.step;
      if (context != o.context) return context < o.context;
      return rank < o.rank;
    }
  };

  Results() = default;
  Results(const Results&) = delete;
  Results& operator=(const Results&) = delete;

  void put(std::string_view name, unsigned frame, double value, Order order);
  void put(std::string_view name, unsigned frame, double value);
  void aggregate(std::string_view name, double value);
  // Forgets the values of frames `frame` and later (a run that failed at that frame after later
  // frames, read in parallel, were computed); a name left with no value is forgotten too.
  void drop_frames_from(unsigned frame);

  // Names in output order.
  std::vector<std::string> names() const;
  // One past the highest frame index written for any name.
  unsigned frame_count() const;
  std::optional<double> value(std::string_view name, unsigned frame) const;
  bool has(std::string_view name) const;
  // Pooled over frames 0..frame_count()-1 taking every `subsample`-th frame, as libvmaf: every
  // such frame must hold a value, else nullopt. Sequential double sums in frame order.
  std::optional<double> pooled(std::string_view name, const Pooling& how, unsigned subsample = 1) const;
  const std::vector<std::pair<std::string, double>>& aggregates() const { return aggregates_; }

  // The receipt: which implementation computed each output name ("psnr_cuda", "float_ssim (cpu
  // fallback)"), in first-recorded order. Writers print it when `show_receipt` is set (a device
  // backend was requested or a twin named), so --backend cpu output stays libvmaf's byte for byte.
  void record_implementation(std::string_view name, std::string_view implementation);
  std::vector<std::pair<std::string, std::string>> receipt() const;
  bool show_receipt = false;

  // Metadata for the writers. `frames` = pictures read (the pooling range); 0 = frame_count().
  unsigned frames = 0;
  double fps = 0;
  int width = 0;
  int height = 0;
  // The model scores' names ("vmaf"), in --model order: the headline of a summary.
  std::vector<std::string> scores;
  // What was done to the inputs before scoring, as asked (--scale, --common_bitdepth, --sync auto):
  // a key ("scale", "bitdepth", "sync") and a sentence. Written to the JSON output under "input".
  std::vector<std::pair<std::string, std::string>> input_conversions;
  // A file run's inputs (vqtwin::run), reference then distorted, for reports.
  struct Input {
    std::string path;
    std::string kind;        // "y4m", "raw yuv", "h264 in matroska,webm"
    std::string format;      // as scored, e.g. "1920x1080 8-bit 4:2:0"
    double frame_rate = 0;   // frames per second the input states; 0 = unknown
  };
  std::vector<Input> inputs;
  // --sync auto: the offset applied (distorted frame i + offset scored against reference frame i).
  std::optional<int> sync_offset;

 private:
  struct Series {
    std::vector<double> values;
    std::vector<bool> written;
    Order first;
  };
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Series> series_;
  std::vector<std::pair<std::string, double>> aggregates_;
  std::vector<std::pair<std::string, std::string>> receipt_;
};

}  // namespace vqtwin
