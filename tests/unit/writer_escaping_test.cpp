// The writers escape what they print as JSON strings and XML attribute values (issue 12): names
// made of a safe alphabet are written as they are, and anything else still gives valid documents.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "vqtwin/output.hpp"
#include "vqtwin/results.hpp"

namespace vqtwin {
namespace {

std::string render(const Results& r, OutputOptions o) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  write_output(f, r, o);
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

TEST(WriterEscaping, JsonStringsAreEscaped) {
  Results r;
  const std::string odd = "a\"b\\c\x01<d>";
  r.put(odd, 0, 1.0);
  r.aggregate(odd, 2.0);
  OutputOptions o;
  o.format = OutputFormat::kJson;
  o.version = "v\"1\n";
  const auto j = nlohmann::json::parse(render(r, o));  // throws on invalid JSON
  EXPECT_EQ(j["version"], "v\"1\n");
  EXPECT_EQ(j["frames"][0]["metrics"][odd], 1.0);
  EXPECT_TRUE(j["pooled_metrics"].contains(odd));
  EXPECT_EQ(j["aggregate_metrics"][odd], 2.0);
}

TEST(WriterEscaping, XmlAttributeValuesAreEscaped) {
  Results r;
  r.put("a", 0, 1.0);
  OutputOptions o;
  o.version = "1 <&> \"2\" '3'";
  const std::string xml = render(r, o);
  EXPECT_NE(xml.find("<VMAF version=\"1 &lt;&amp;&gt; &quot;2&quot; &apos;3&apos;\">"), std::string::npos) << xml;
}

}  // namespace
}  // namespace vqtwin
