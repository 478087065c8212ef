#include "core/quote.hpp"

namespace vqtwin {
namespace {

// Length of the valid UTF-8 sequence starting at s[i] (2..4), or 0 when there is none. Overlong
// forms, surrogates and code points above U+10FFFF are invalid; C1 controls (U+0080..U+009F) are
// refused too, since some terminals act on them.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  unsigned cp = 0;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1Fu;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0Fu;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07u;
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3Fu);
  }
  const unsigned min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min_cp[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0x80 && cp <= 0x9F)) return 0;
  return n;
}

// The escaped text of `s`, at most about `max` bytes; `used` tells how much of `s` it covers.
std::string escape(std::string_view s, std::size_t max, std::size_t& used) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  std::size_t i = 0;
  while (i < s.size() && out.size() < max) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += char(c);
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_sequence(s, i) : 0) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      ++i;
    }
  }
  used = i;
  return out;
}

std::string cut_note(std::string_view s, std::size_t used) {
  return used < s.size() ? " (" + std::to_string(s.size()) + " bytes)" : std::string();
}

}  // namespace

std::string printable(std::string_view s, std::size_t max) {
  std::size_t used = 0;
  std::string out = escape(s, max, used);
  return used < s.size() ? out + "..." + cut_note(s, used) : out;
}

std::string quote(std::string_view s, std::size_t max) {
  std::size_t used = 0;
  const std::string out = escape(s, max, used);
  return "'" + out + (used < s.size() ? "...'" : "'") + cut_note(s, used);
}

}  // namespace vqtwin
