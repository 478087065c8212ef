// Option schemas: strict parsing and libvmaf's output-name rule.
#include <gtest/gtest.h>

#include "core/options.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

constexpr OptionSpec kSchema[] = {
    opt_bool("debug", "", true, "debug"),
    opt_bool("motion_force_zero", "force_0", false, "force", true),
    opt_double("motion_fps_weight", "mfw", 1.0, 0.0, 5.0, "weight", true),
    opt_double("motion_blend_factor", "mbf", 1.0, 0.0, 1.0, "blend", true),
    opt_double("motion_blend_offset", "mbo", 40.0, 0.0, 1000.0, "offset", true),
    opt_int("motion_filter_size", "mfs", 5, 1, 5, "size", true),
    opt_string("label", "lbl", "x", "text", true),
};

std::string name_for(const OptionPairs& given) { return OptionValues(kSchema, given, "t").output_name("motion2"); }

TEST(Options, DefaultsNameNothing) { EXPECT_EQ(name_for({}), "motion2"); }

TEST(Options, SuffixesFollowLibvmafRule) {
  EXPECT_EQ(name_for({{"motion_fps_weight", "2.0"}}), "motion2_mfw_2");
  EXPECT_EQ(name_for({{"motion_blend_offset", "2.0"}, {"motion_blend_factor", "0.5"}}), "motion2_mbf_0.5_mbo_2");
  EXPECT_EQ(name_for({{"force_0", "true"}}), "motion2_force_0");
  EXPECT_EQ(name_for({{"motion_filter_size", "3"}}), "motion2_mfs_3");
  EXPECT_EQ(name_for({{"label", "abc"}}), "motion2_lbl_abc");
  // A value equal to the default names nothing (libvmaf compares with the default).
  EXPECT_EQ(name_for({{"motion_fps_weight", "1"}}), "motion2");
  // A non-option-param option never names the output.
  EXPECT_EQ(name_for({{"debug", "false"}}), "motion2");
}

TEST(Options, ValuesAndAliases) {
  OptionValues v(kSchema, {{"mfw", "2.5"}, {"debug", "false"}, {"mfs", "3"}}, "t");
  EXPECT_DOUBLE_EQ(v.get_double("motion_fps_weight"), 2.5);
  EXPECT_FALSE(v.get_bool("debug"));
  EXPECT_EQ(v.get_int("motion_filter_size"), 3);
  EXPECT_TRUE(v.get_bool("debug") == false && !v.is_default("debug"));
}

TEST(Options, StrictErrors) {
  EXPECT_THROW(OptionValues(kSchema, {{"nope", "1"}}, "t"), Error);
  EXPECT_THROW(OptionValues(kSchema, {{"debug", "yes"}}, "t"), Error);
  EXPECT_THROW(OptionValues(kSchema, {{"motion_fps_weight", "abc"}}, "t"), Error);
  EXPECT_THROW(OptionValues(kSchema, {{"motion_fps_weight", "5.5"}}, "t"), Error);
  EXPECT_THROW(OptionValues(kSchema, {{"motion_fps_weight", "nan"}}, "t"), Error);
  EXPECT_THROW(OptionValues(kSchema, {{"motion_filter_size", "2.5"}}, "t"), Error);
  EXPECT_THROW(OptionValues(kSchema, {{"motion_filter_size", "0"}}, "t"), Error);
  try {
    OptionValues(kSchema, {{"motion_fps_weight", "9"}}, "float_motion");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "float_motion: option 'motion_fps_weight' = 9 is out of range [0, 5]");
  }
}

TEST(Options, SplitOptionString) {
  auto p = split_option_string("a=1:b=true", "x");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0], (std::pair<std::string, std::string>{"a", "1"}));
  EXPECT_EQ(p[1], (std::pair<std::string, std::string>{"b", "true"}));
  EXPECT_THROW(split_option_string("a=1:b", "x"), Error);
  EXPECT_THROW(split_option_string("=1", "x"), Error);
}

}  // namespace
}  // namespace vqtwin
