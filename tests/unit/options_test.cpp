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

// libvmaf reads every numeric option value as a float and rewrites it with "%g" before its extractor
// sees it (hand-checked: (float)1.2345678 = 1.23456776..., "%g" -> "1.23457").
TEST(Options, NumbersAreLibvmafsSixDigits) {
  EXPECT_EQ(libvmaf_normalised_value("1.2345678"), "1.23457");
  EXPECT_EQ(libvmaf_normalised_value("2.0000001"), "2");
  EXPECT_EQ(libvmaf_normalised_value("2.0"), "2");
  EXPECT_EQ(libvmaf_normalised_value(" 0.5 "), "0.5");
  EXPECT_EQ(libvmaf_normalised_value("1e3"), "1000");
  EXPECT_EQ(libvmaf_normalised_value("1234567"), "1.23457e+06");
  EXPECT_EQ(libvmaf_normalised_value("1e-50"), "0");  // below the float range
  EXPECT_EQ(libvmaf_normalised_value("bicubic"), "bicubic");
  EXPECT_EQ(libvmaf_normalised_value("1.5x"), "1.5x");  // not a number alone: left as it is

  OptionValues v(kSchema, {{"mfw", "1.2345678"}}, "t");
  EXPECT_EQ(v.get_double("motion_fps_weight"), 1.23457);
  EXPECT_EQ(v.output_name("motion2"), "motion2_mfw_1.23457");
  // Equal to the default once normalised: computes with the default and names nothing.
  OptionValues d(kSchema, {{"mfw", "1.0000001"}, {"mbo", "40.000001"}}, "t");
  EXPECT_EQ(d.get_double("motion_fps_weight"), 1.0);
  EXPECT_TRUE(d.is_default("motion_fps_weight"));
  EXPECT_EQ(d.output_name("motion2"), "motion2");
  // A value just outside the range that rounds into it is accepted, as libvmaf checks the 6-digit value.
  EXPECT_EQ(OptionValues(kSchema, {{"mfw", "5.0000001"}}, "t").get_double("motion_fps_weight"), 5.0);
  // Integers: "3.0" is 3; more than 6 digits cannot reach an integer option intact (libvmaf reads 1).
  EXPECT_EQ(OptionValues(kSchema, {{"mfs", "3.0"}}, "t").get_int("motion_filter_size"), 3);
  try {
    OptionValues(kSchema, {{"mfs", "1000003"}}, "t");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "t: option 'motion_filter_size' = 1000003 has more than 6 significant digits, which libvmaf cannot "
                 "pass to an integer option");
  }
  try {
    OptionValues(kSchema, {{"mfw", "5.00001"}}, "t");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "t: option 'motion_fps_weight' = 5.00001 is out of range [0, 5]");
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
