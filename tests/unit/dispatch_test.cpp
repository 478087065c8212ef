// Dispatch rules (spec: dispatch.md, DECISIONS.md §5) on a fake extractor table: a CPU extractor and
// a twin whose capability check refuses pictures wider than 100 px.
#include <gtest/gtest.h>

#include <cerrno>

#include "core/feature_spec.hpp"
#include "dispatch/dispatch.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

constexpr OptionSpec kOpts[] = {opt_int("scale", "", 0, 0, 10, "scale")};

class Null final : public Extractor {
 public:
  void init(const PictureFormat&) override {}
  void extract(const Picture&, const Picture&, unsigned, FeatureSink&) override {}
};
std::unique_ptr<Extractor> make_null(const OptionValues&, const RunSettings&) { return std::make_unique<Null>(); }

constexpr std::string_view kProvided[] = {"feat"};
constexpr FeatureSpec kSpec{.name = "feat", .options = kOpts, .provided = kProvided};
const ExtractorInfo kCpu = {.spec = &kSpec, .name = "feat", .make = make_null};
const ExtractorInfo kTwin = {
    .spec = &kSpec,
    .backend = Backend::kCuda,
    .name = "feat_cuda",
    .check_context = [](const OptionValues& o, const PictureFormat& f) {
      if (o.get_int("scale") == 7) return -EINVAL;  // a failing device, not a capability answer
      return f.width > 100 ? -ENOTSUP : 0;
    },
    .make = make_null,
};
// A Vulkan twin of the same feature that declines pictures wider than 50 px.
const ExtractorInfo kVulkanTwin = {
    .spec = &kSpec,
    .backend = Backend::kVulkan,
    .name = "feat_vulkan",
    .check_context = [](const OptionValues&, const PictureFormat& f) { return f.width > 50 ? -ENOTSUP : 0; },
    .make = make_null,
};
const ExtractorInfo* const kTable[] = {&kCpu, &kTwin, &kVulkanTwin};

struct Case {
  std::vector<std::string> warnings;
  ResolvedContext resolve(const ExtractorInfo& named, bool from_model, Backend b, int width,
                          bool device = true, int scale = 0, Backend auto_device = Backend::kCuda) {
    ContextRequest req{&named, OptionValues(kOpts, {{"scale", std::to_string(scale)}}, named.name), from_model};
    return resolve_context(req, b, PictureFormat{width, 64, 8, ChromaFormat::k420}, kTable, device,
                           [this](const std::string& w) { warnings.push_back(w); }, auto_device);
  }
};

TEST(Dispatch, CpuBackendKeepsCpu) {
  Case c;
  EXPECT_EQ(c.resolve(kCpu, true, Backend::kCpu, 64).info, &kCpu);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(Dispatch, ModelContextGoesToTwinWhenSupported) {
  Case c;
  EXPECT_EQ(c.resolve(kCpu, true, Backend::kCuda, 64).info, &kTwin);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(Dispatch, ModelContextFallsBackWithOneWarning) {
  Case c;
  auto r = c.resolve(kCpu, true, Backend::kCuda, 640, true, 3);
  EXPECT_EQ(r.info, &kCpu);
  EXPECT_EQ(r.options.get_int("scale"), 3);  // same option dictionary
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "model feature feat: feat_cuda cannot run 640x64 8-bit 4:2:0 pictures with these options; computing it on "
            "the CPU");
  EXPECT_TRUE(r.fell_back);
}

TEST(Dispatch, CpuNameUnderDeviceBackendFallsBackToo) {
  Case c;
  EXPECT_EQ(c.resolve(kCpu, false, Backend::kCuda, 640).info, &kCpu);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "--feature feat: feat_cuda cannot run 640x64 8-bit 4:2:0 pictures with these options; computing it on the "
            "CPU");
}

TEST(Dispatch, NoTwinIsOneWarningAndTheCpu) {
  constexpr FeatureSpec other{.name = "other"};
  const ExtractorInfo cpu_only = {.spec = &other, .name = "other", .make = make_null};
  Case c;
  auto r = c.resolve(cpu_only, true, Backend::kCuda, 64);
  EXPECT_EQ(r.info, &cpu_only);
  EXPECT_TRUE(r.fell_back);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], "model feature other: the cuda backend has no twin of this extractor; computing it on the CPU");
}

TEST(Dispatch, AutoWithDeviceUsesTheTwin) {
  Case c;
  EXPECT_EQ(c.resolve(kCpu, true, Backend::kAuto, 64).info, &kTwin);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(Dispatch, ExplicitTwinNeverFallsBack) {
  Case c;
  EXPECT_EQ(c.resolve(kTwin, false, Backend::kCpu, 64).info, &kTwin);
  EXPECT_THROW(c.resolve(kTwin, false, Backend::kCuda, 640), Error);
  EXPECT_THROW(c.resolve(kTwin, false, Backend::kCuda, 64, /*device=*/false), Error);
}

TEST(Dispatch, OtherCheckAnswersAreErrors) {
  Case c;
  EXPECT_THROW(c.resolve(kCpu, true, Backend::kCuda, 64, true, 7), Error);
}

TEST(Dispatch, NoDevice) {
  Case c;
  EXPECT_THROW(c.resolve(kCpu, true, Backend::kCuda, 64, /*device=*/false), Error);
  EXPECT_EQ(c.resolve(kCpu, true, Backend::kAuto, 64, /*device=*/false).info, &kCpu);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(Dispatch, VulkanBackendTakesTheVulkanTwin) {
  Case c;
  EXPECT_EQ(c.resolve(kCpu, true, Backend::kVulkan, 32).info, &kVulkanTwin);
  EXPECT_TRUE(c.warnings.empty());
  // Declined by the Vulkan twin: the CPU, with one warning naming it (not the CUDA twin, which could).
  EXPECT_EQ(c.resolve(kCpu, true, Backend::kVulkan, 64).info, &kCpu);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "model feature feat: feat_vulkan cannot run 64x64 8-bit 4:2:0 pictures with these options; computing it on "
            "the CPU");
  EXPECT_THROW(c.resolve(kCpu, true, Backend::kVulkan, 32, /*device=*/false), Error);
}

TEST(Dispatch, AutoTakesTheDeviceBackendTheSessionFound) {
  Case c;
  EXPECT_EQ(c.resolve(kCpu, true, Backend::kAuto, 32, true, 0, Backend::kCuda).info, &kTwin);
  EXPECT_EQ(c.resolve(kCpu, true, Backend::kAuto, 32, true, 0, Backend::kVulkan).info, &kVulkanTwin);
  EXPECT_TRUE(c.warnings.empty());
}

}  // namespace
}  // namespace vqtwin
