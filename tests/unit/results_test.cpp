// The collector's pooling (libvmaf's definitions) and output order; the writers' number format.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "vqtwin/output.hpp"
#include "vqtwin/results.hpp"

namespace vqtwin {
namespace {

TEST(Results, PoolingAsLibvmaf) {
  Results r;
  const double xs[] = {1.0, 2.0, 4.0};
  for (unsigned i = 0; i < 3; ++i) r.put("a", i, xs[i]);
  EXPECT_EQ(*r.pooled("a", {PoolMethod::kMin}), 1.0);
  EXPECT_EQ(*r.pooled("a", {PoolMethod::kMax}), 4.0);
  EXPECT_EQ(*r.pooled("a", {PoolMethod::kMean}), (1.0 + 2.0 + 4.0) / 3);
  // harmonic_mean = n / sum(1/(x+1)) - 1
  EXPECT_EQ(*r.pooled("a", {PoolMethod::kHarmonicMean}), 3 / (1. / 2. + 1. / 3. + 1. / 5.) - 1.0);
  EXPECT_EQ(*r.pooled("a", {PoolMethod::kPercentile, 50}), 2.0);
  EXPECT_EQ(*r.pooled("a", {PoolMethod::kPercentile, 75}), 3.0);
  // Subsample 2 pools frames 0 and 2 only.
  EXPECT_EQ(*r.pooled("a", {PoolMethod::kMean}, 2), 2.5);
}

TEST(Results, MissingFrameMeansNoPooledValue) {
  Results r;
  r.put("a", 0, 1.0);
  r.put("b", 0, 1.0);
  r.put("b", 1, 1.0);
  EXPECT_FALSE(r.pooled("a", {PoolMethod::kMean}).has_value());
  EXPECT_TRUE(r.pooled("b", {PoolMethod::kMean}).has_value());
}

TEST(Results, DroppedFramesAreGoneAndSoAreNamesOnlyTheyHad) {
  // A frame read in parallel failed at frame 3 after frames 4 and 5 were computed.
  Results r;
  for (unsigned i = 0; i < 6; ++i) r.put("a", i, double(i));
  r.put("late", 4, 1.0);
  r.put("sparse", 0, 1.0);
  r.put("sparse", 5, 1.0);
  r.drop_frames_from(3);
  EXPECT_EQ(r.frame_count(), 3u);
  EXPECT_EQ(*r.value("a", 2), 2.0);
  EXPECT_FALSE(r.value("a", 3).has_value());
  EXPECT_FALSE(r.has("late"));
  EXPECT_TRUE(r.has("sparse"));
  EXPECT_EQ(r.names(), (std::vector<std::string>{"a", "sparse"}));
  EXPECT_EQ(*r.pooled("a", {PoolMethod::kMean}), 1.0);
}

TEST(Results, NamesInFirstEmissionOrder) {
  Results r;
  r.put("late", 0, 1.0, {1, 0, 0});   // emitted while processing frame 1, for frame 0
  r.put("x", 0, 1.0, {0, 1, 0});
  r.put("w", 0, 1.0, {0, 0, 1});
  r.put("v", 0, 1.0, {0, 0, 0});
  EXPECT_EQ(r.names(), (std::vector<std::string>{"v", "w", "x", "late"}));
}

TEST(Writers, LibvmafNumberFormat) {
  EXPECT_EQ(format_number(0.5, -1), "0.500000");
  EXPECT_EQ(format_number(1.0000008471191402, -1), "1.0000008471191402");  // > 6 leading zeros
  EXPECT_EQ(format_number(0.0, -1), "0.000000");
  EXPECT_EQ(format_number(0.1 + 0.2, OutputOptions::kMaxPrecision), "0.30000000000000004");
  EXPECT_EQ(format_number(2.5, 2), "2.50");
}

std::string render(const Results& r, OutputFormat f, int precision = -1) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* mem = open_memstream(&buf, &len);
  OutputOptions o;
  o.format = f;
  o.precision = precision;
  o.version = "test";
  write_output(mem, r, o);
  std::fclose(mem);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

TEST(Writers, JsonSchemaWithNull) {
  Results r;
  r.put("a", 0, 1.0);
  r.put("b", 0, std::numeric_limits<double>::infinity());
  r.aggregate("agg", 2.0);
  r.fps = 10;
  const std::string want =
      "{\n  \"version\": \"test\",\n  \"fps\": 10.00,\n  \"frames\": [\n    {\n      \"frameNum\": 0,\n"
      "      \"metrics\": {\n        \"a\": 1.000000,\n        \"b\": null      }\n    }\n  ],\n"
      "  \"pooled_metrics\": {\n    \"a\": {\n      \"min\": 1.000000,\n      \"max\": 1.000000,\n"
      "      \"mean\": 1.000000,\n      \"harmonic_mean\": 1.000000\n    },\n    \"b\": {\n"
      "      \"min\": null,\n      \"max\": null,\n      \"mean\": null,\n      \"harmonic_mean\": null\n    }\n"
      "  },\n  \"aggregate_metrics\": {\n    \"agg\": 2.000000\n  }\n}\n";
  EXPECT_EQ(render(r, OutputFormat::kJson), want);
}

TEST(Writers, CsvXmlSub) {
  Results r;
  r.put("a", 0, 1.0);
  r.put("a", 1, 2.0);
  r.width = 4;
  r.height = 2;
  EXPECT_EQ(render(r, OutputFormat::kCsv), "Frame,a,\n0,1.000000,\n1,2.000000,\n");
  EXPECT_EQ(render(r, OutputFormat::kSub), "{0}{1}frame: 0|a: 1.000000|\n{1}{2}frame: 1|a: 2.000000|\n");
  const std::string xml = render(r, OutputFormat::kXml);
  EXPECT_NE(xml.find("<params qualityWidth=\"4\" qualityHeight=\"2\" />"), std::string::npos);
  EXPECT_NE(xml.find("<frame frameNum=\"1\" a=\"2.000000\" />"), std::string::npos);
  EXPECT_NE(xml.find("<metric name=\"a\" min=\"1.000000\" max=\"2.000000\" mean=\"1.500000\""), std::string::npos);
}

}  // namespace
}  // namespace vqtwin
