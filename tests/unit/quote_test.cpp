// The one quoting helper of messages (issue 12): untrusted bytes come out printable and bounded.
#include <gtest/gtest.h>

#include <string>

#include "core/quote.hpp"

namespace vqtwin {
namespace {

TEST(Quote, PrintableTextIsKept) {
  EXPECT_EQ(printable("psnr_y=1.5 C420p10"), "psnr_y=1.5 C420p10");
  EXPECT_EQ(quote("abc"), "'abc'");
  EXPECT_EQ(printable("a\\x1b"), "a\\x1b");  // a backslash stays one: applying it twice changes nothing
  EXPECT_EQ(printable(printable("\x1b[2J")), printable("\x1b[2J"));
}

TEST(Quote, ControlBytesAreShownAsHex) {
  EXPECT_EQ(printable("\x1b[31mred\x07\n\t\x7f"), "\\x1b[31mred\\x07\\x0a\\x09\\x7f");
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
}

TEST(Quote, ValidUtf8IsKeptInvalidIsHex) {
  EXPECT_EQ(printable("d\xc3\xa9j\xc3\xa0 \xe2\x82\xac \xf0\x9f\x8e\xac"), "d\xc3\xa9j\xc3\xa0 \xe2\x82\xac \xf0\x9f\x8e\xac");
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(printable("\xc3"), "\\xc3");                   // cut sequence
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");          // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  // C1 controls (U+0080..U+009F; U+009B is a CSI some terminals obey) are controls too.
  EXPECT_EQ(printable("\xc2\x9b" "2J"), "\\xc2\\x9b2J");
}

TEST(Quote, LongValuesAreCutWithTheirLength) {
  const std::string big(3000, 'x');
  EXPECT_EQ(printable(big, 10), "xxxxxxxxxx... (3000 bytes)");
  EXPECT_EQ(quote(big, 10), "'xxxxxxxxxx...' (3000 bytes)");
  EXPECT_EQ(quote(std::string(10, 'y'), 10), "'yyyyyyyyyy'");  // exactly the bound: not cut
  EXPECT_LE(printable(std::string(100000, '\x01')).size(), 80u + 4 + 20);
}

}  // namespace
}  // namespace vqtwin
