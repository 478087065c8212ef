// float_vif_vulkan: float_vif's front (kernels, names, refusals, scores) on filtered moments computed on a
// Vulkan device with the CPU's fp32 operations, in the CPU's order, bit for bit:
//   float_vif_convert.comp   the luma of both pictures to float (exact);
//   float_vif_prescale.comp  vif_prescale's resize, from the host's axis tables (positions and weights
//                            computed once at init by the CPU's own code: libvmaf takes them in double
//                            and the C library's sin), the Lanczos division exactly in integers;
//   float_vif_filter.comp    per scale: the blur and decimation from the previous scale (vertical pass
//                            at the even rows, horizontal at the even columns), then the five vertical
//                            and the five horizontal moment passes.
// The five filtered moments of every pixel of every scale are read back; the host applies the CPU's own
// per-pixel statistic (math.hpp's pixel_num_den: its float division, its three double log arguments and
// its polynomial log2) and the CPU's sums (each row in column order in float, the rows in order), the
// loop of scale.cpp's scale_sums. No double, division (but Lanczos', exact), square root or
// transcendental is computed on the device, so both float paths run the same shaders (docs/exactness.md,
// float_vif); they need fp32 round-to-nearest-even (RoundingModeRTE), and redo in integers any
// operation whose operand or result is in the denormal range (float_vif_fp32.glsl).
#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backends/vulkan/staged_twin.hpp"
#include "common/cpu.hpp"
#include "core/implementation.hpp"
#include "features/float_ssim/decimate_exact.hpp"
#include "features/float_vif/cells.hpp"
#include "features/float_vif/front.hpp"
#include "features/float_vif/scale.hpp"
#include "features/float_vif/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_vif {
namespace {

constexpr unsigned kMaxGroups = 4096;  // workgroups of 256, a grid-stride loop beyond
constexpr int kMoments = 5;            // mu1, mu2, ref², dis², ref·dis (filtered)
constexpr unsigned kCounters = 32;     // float_vif_filter.comp's list counters (at most 20 passes a frame)
constexpr unsigned kGuardedGroups = 4; // float_vif_filter_guarded.comp: workgroups striding over the list

unsigned groups_for(std::size_t n) { return unsigned(std::clamp<std::size_t>((n + 255) / 256, 1, kMaxGroups)); }

// VQTWIN_VULKAN_SOFT_FP32=1: every fp32 operation of the shaders in integers (a test of that code).
bool all_soft() {
  const char* v = std::getenv("VQTWIN_VULKAN_SOFT_FP32");
  return v && std::strcmp(v, "1") == 0;
}

// vif_prescale's axis tables: per output index, `taps` pairs (source index, mirrored; weight bits), the
// CPU's values (cells.hpp: nearest_at, bilinear_at, bicubic_at, lanczos_at), first the columns, then the rows.
struct PrescaleTable {
  int taps = 1;
  std::vector<std::uint32_t> words;
  std::size_t y_at = 0;
  bool plain = true;  // every weight 0 or at least 2^-25 in magnitude (float_vif_prescale.glsl)
};

void add_axis(PrescaleTable& t, PrescaleMethod method, int src, int dst, float ratio) {
  auto put = [&t](int index, float weight) {
    if (weight != 0.0f && std::fabs(weight) < 0x1p-25f) t.plain = false;
    t.words.push_back(std::uint32_t(index));
    t.words.push_back(std::bit_cast<std::uint32_t>(weight));
  };
  for (int x = 0; x < dst; ++x) {
    switch (method) {
      case PrescaleMethod::kNearest: put(int(float(x) * ratio), 1.0f); break;
      case PrescaleMethod::kBilinear: {
        const float c = prescale_centre(x, ratio);
        const int i1 = int(prescale_mirror(floorf(c), src));
        const int i2 = int(prescale_mirror(ceilf(c), src));
        const float d = c - float(i1);
        put(i1, 1.0f - d);
        put(i2, d);
        break;
      }
      case PrescaleMethod::kBicubic: {
        const float c = prescale_centre(x, ratio);
        const int i0 = int(floorf(c));
        const float d = c - float(i0);
        for (int i = -1; i <= 2; ++i) put(prescale_mirror_index(i0 + i, src), bicubic_weight(float(i) - d));
        break;
      }
      case PrescaleMethod::kLanczos4: {
        const LanczosAxis a = lanczos_axis(x, ratio);
        for (int i = 0; i < kLanczosTaps; ++i) put(prescale_mirror_index(a.start + i - 4, src), a.w[i]);
        break;
      }
    }
  }
}

PrescaleTable prescale_table(PrescaleMethod method, int sw, int sh, int dw, int dh) {
  PrescaleTable t;
  t.taps = method == PrescaleMethod::kNearest ? 1
           : method == PrescaleMethod::kBilinear ? 2
           : method == PrescaleMethod::kBicubic  ? 4
                                                 : kLanczosTaps;
  add_axis(t, method, sw, dw, float(sw) / float(dw));
  t.y_at = t.words.size();
  add_axis(t, method, sh, dh, float(sh) / float(dh));
  return t;
}

class FloatVifVulkan final : public vulkan::StagedTwin<float> {
 public:
  explicit FloatVifVulkan(const OptionValues& o) : front_(o), rows_(scale_kernels_for(cpu::flags())) {}
  unsigned planes_read() const override { return 1u; }  // luma only

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    format_ = f;
    fp64_ = vulkan::use_fp64(vulkan::device(vulkan::current_device()).features());
    soft_ = all_soft();
    // The kernels, one after the other.
    std::vector<float> taps;
    for (int s = 0; s < kScales; ++s) {
      taps_at_[s] = unsigned(taps.size());
      ntaps_[s] = unsigned(front_.kernel(s).size());
      taps.insert(taps.end(), front_.kernel(s).begin(), front_.kernel(s).end());
    }
    taps_ = plan.table(std::span<const float>(taps));
    // Results: per scale computed, its five filtered moment planes.
    int w = front_.scaled_width(), h = front_.scaled_height();
    std::size_t at = 0;
    for (int s = 0; s < kScales; ++s) {
      if (s > 0) w /= 2, h /= 2;
      w_[s] = w;
      h_[s] = h;
      at_[s] = at;
      if (s > 0 || !front_.skip_scale0()) at += kMoments * std::size_t(w) * std::size_t(h);
    }
    plan.results(at);
    const std::size_t n0 = std::size_t(w_[0]) * std::size_t(h_[0]);
    if (front_.resizes()) {
      const PrescaleTable t = prescale_table(front_.method(), f.width, f.height, w_[0], h_[0]);
      prescale_taps_ = unsigned(t.taps);
      prescale_plain_ = t.plain && !soft_;
      prescale_y_at_ = unsigned(t.y_at);
      prescale_ = plan.table(std::span<const std::uint32_t>(t.words));
      for (auto& p : in_) p = plan.scratch<float>(std::size_t(f.width) * std::size_t(f.height));
    }
    for (int s = 0; s < kScales; ++s) {
      ref_[s] = plan.scratch<float>(std::size_t(w_[s]) * std::size_t(h_[s]));
      dis_[s] = plan.scratch<float>(std::size_t(w_[s]) * std::size_t(h_[s]));
    }
    vert_ = plan.scratch<float>(kMoments * n0);  // the vertical moments; the decimation's vertical pass
    list_ = plan.scratch<std::uint32_t>(kCounters + n0);
  }

  struct FilterPush {
    std::uint32_t mode, width, height, taps_at, ntaps, in_plane, out_at, out_plane, planted, all_soft, counter;
  };

  // One filter pass: the plain shader over every output (listing those whose inputs could meet the
  // denormal range), then the guarded one over the list. `p.counter` is set here (one per pass a frame).
  void filter(const vulkan::Frame<float>& frame, FilterPush p, vulkan::Range a, vulkan::Range b, vulkan::Range out,
              std::size_t outputs, std::uint32_t& counter) const {
    p.counter = counter++;
    const vulkan::Range taps = frame[taps_], list = frame[list_];
    frame.dispatch("float_vif_filter", {a, b, taps, out, list}, p, groups_for(outputs));
    frame.compute_barrier();
    frame.dispatch("float_vif_filter_guarded", {a, b, taps, out, list}, p, kGuardedGroups);
    frame.compute_barrier();
  }

  void record(const vulkan::Frame<float>& frame) override {
    const bool resize = front_.resizes();
    const vulkan::Range in_ref = resize ? frame[in_[0]] : frame[ref_[0]];
    const vulkan::Range in_dis = resize ? frame[in_[1]] : frame[dis_[0]];
    struct ConvertPush {
      std::uint32_t width, height, stride_bytes, base, bytes_per_sample;
      float recip;
    };
    const std::size_t n_in = std::size_t(format_.width) * std::size_t(format_.height);
    for (int img = 0; img < 2; ++img) {
      const vulkan::Range src = img ? frame.dist_plane(0) : frame.ref_plane(0);
      const ConvertPush cp{std::uint32_t(format_.width), std::uint32_t(format_.height),
                           std::uint32_t(frame.slot().ref().stride_bytes(0)), src.base,
                           std::uint32_t(format_.bytes_per_sample()), float_ssim::sample_scale(format_.bitdepth)};
      frame.dispatch("float_vif_convert", {src, img ? in_dis : in_ref}, cp, groups_for(n_in));
    }
    frame.dispatch("float_vif_clear", {frame[list_]}, std::uint32_t(0), 1);
    frame.compute_barrier();
    const std::uint32_t soft = soft_ ? 1u : 0u;
    if (resize) {
      struct PrescalePush {
        std::uint32_t sw, dw, dh, taps, y_at, divide, all_soft;
      };
      const PrescalePush pp{std::uint32_t(format_.width), std::uint32_t(w_[0]), std::uint32_t(h_[0]), prescale_taps_,
                            prescale_y_at_, front_.method() == PrescaleMethod::kLanczos4 ? 1u : 0u, soft};
      const std::size_t n = std::size_t(w_[0]) * std::size_t(h_[0]);
      const char* shader = prescale_plain_ ? "float_vif_prescale" : "float_vif_prescale_guarded";
      frame.dispatch(shader, {in_ref, frame[prescale_], frame[ref_[0]]}, pp, groups_for(n));
      frame.dispatch(shader, {in_dis, frame[prescale_], frame[dis_[0]]}, pp, groups_for(n));
      frame.compute_barrier();
    }
    const std::uint32_t planted = fp64_ && vulkan::plant("float_vif_vulkan_fp64_tap_order")        ? 1u
                                  : !fp64_ && vulkan::plant("float_vif_vulkan_nofp64_product_order") ? 2u
                                                                                                      : 0u;
    const vulkan::Range vert = frame[vert_];
    std::uint32_t counter = 0;
    for (int s = front_.skip_scale0() ? 1 : 0; s < kScales; ++s) {
      const std::uint32_t w = std::uint32_t(w_[s]), h = std::uint32_t(h_[s]);
      const std::size_t n = std::size_t(w) * h;
      if (s > 0) {  // the scale's kernel blurs the previous scale, every second sample kept
        const std::uint32_t pw = std::uint32_t(w_[s - 1]), ph = std::uint32_t(h_[s - 1]);
        for (int img = 0; img < 2; ++img) {
          const vulkan::Range prev = frame[img ? dis_[s - 1] : ref_[s - 1]];
          const vulkan::Range next = frame[img ? dis_[s] : ref_[s]];
          filter(frame, {2, pw, ph, taps_at_[s], ntaps_[s], 0, 0, 0, 0, soft, 0}, prev, prev, vert,
                 std::size_t(pw) * (ph / 2), counter);
          filter(frame, {3, pw, ph / 2, taps_at_[s], ntaps_[s], 0, 0, 0, 0, soft, 0}, vert, vert, next, n, counter);
        }
      }
      filter(frame, {0, w, h, taps_at_[s], ntaps_[s], 0, 0, std::uint32_t(n), planted, soft, 0}, frame[ref_[s]],
             frame[dis_[s]], vert, n, counter);
      filter(frame,
             {1, w, h, taps_at_[s], ntaps_[s], std::uint32_t(n), std::uint32_t(at_[s]), std::uint32_t(n), planted, soft, 0},
             vert, vert, frame.results(), n, counter);
    }
  }

  // scale.cpp's scale_sums from the moments: the CPU's statistic per row, the row in column order, the
  // rows in order (float).
  void reduce(std::span<const float> moments, unsigned index, FeatureSink& out) override {
    std::array<ScaleSums, kScales> sums{};
    thread_local std::vector<float> row;
    for (int s = front_.skip_scale0() ? 1 : 0; s < kScales; ++s) {
      const int w = w_[s], h = h_[s];
      const std::size_t n = std::size_t(w) * std::size_t(h);
      const float* m = moments.data() + at_[s];
      row.resize(2 * std::size_t(w));
      float* num = row.data();
      float* den = num + w;
      float acc_num = 0.0f, acc_den = 0.0f;
      for (int i = 0; i < h; ++i) {
        const std::size_t r = std::size_t(i) * std::size_t(w);
        rows_.statistic_row(m + r, m + n + r, m + 2 * n + r, m + 3 * n + r, m + 4 * n + r, front_.params(), num, den,
                            w);
        float row_num = 0.0f, row_den = 0.0f;
        for (int j = 0; j < w; ++j) {
          row_num += num[j];
          row_den += den[j];
        }
        acc_num += row_num;
        acc_den += row_den;
      }
      sums[std::size_t(s)] = {acc_num, acc_den};
    }
    front_.emit(sums, index, out);
  }

  Front front_;
  const ScaleKernels rows_;
  PictureFormat format_{};
  bool fp64_ = false, soft_ = false;
  int w_[kScales] = {}, h_[kScales] = {};
  std::size_t at_[kScales] = {};
  unsigned taps_at_[kScales] = {}, ntaps_[kScales] = {};
  unsigned prescale_taps_ = 1, prescale_y_at_ = 0;
  bool prescale_plain_ = true;
  seam::Buffer<float> taps_;
  seam::Buffer<std::uint32_t> prescale_;
  seam::Buffer<float> in_[2];                        // the luma as floats when vif_prescale resizes it
  seam::Buffer<float> ref_[kScales], dis_[kScales];  // each scale's planes
  seam::Buffer<float> vert_;
  seam::Buffer<std::uint32_t> list_;  // the filter passes' counters and their list of guarded outputs
};

// fp32 round-to-nearest-even (the shaders' RoundingModeRTE), 64-bit integers (the integer fallback), and
// every buffer within one binding's range: the moments of all scales (results), the vertical moments and
// the stored luma. What the CPU refuses is left to init (the same error line).
int check(const OptionValues& o, const PictureFormat& f) {
  try {
    const vulkan::DeviceFeatures& d = vulkan::device(vulkan::current_device()).features();
    if (!d.float_controls || !d.rte32 || !d.int64) return -ENOTSUP;
    const double ps = o.get_double("vif_prescale");
    std::uint64_t w = std::uint64_t(prescaled_size(f.width, ps)), h = std::uint64_t(prescaled_size(f.height, ps));
    const std::uint64_t vert = kMoments * 4 * w * h;  // also the largest list (4 bytes an output)
    std::uint64_t all = o.get_bool("vif_skip_scale0") ? 0 : vert;
    for (int s = 1; s < kScales; ++s) {
      w /= 2;
      h /= 2;
      all += kMoments * 4 * w * h;
    }
    if (all > d.max_storage_range || vert > d.max_storage_range) return -ENOTSUP;
    const std::uint64_t plane = vulkan::stored_plane_bytes(f, 0);
    if (plane + d.min_storage_offset > d.max_storage_range) return -ENOTSUP;
    if (std::uint64_t(f.width) * std::uint64_t(f.height) * 4 > d.max_storage_range) return -ENOTSUP;
    return 0;
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace
}  // namespace float_vif

extern const ExtractorInfo kFloatVifVulkanInfo;
const ExtractorInfo kFloatVifVulkanInfo = twin_extractor<float_vif::FloatVifVulkan>(
    float_vif::kSpec, Backend::kVulkan, "float_vif_vulkan", &float_vif::check);

}  // namespace vqtwin
