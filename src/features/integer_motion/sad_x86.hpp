#pragma once
// integer motion's vector SAD kernels (sad_avx2.cpp, sad_avx512.cpp), put in the tables by sad.cpp.
// They take 8-bit planes, and deeper ones of at most 14 bits whose samples are all below 2^bpc (then
// every difference of two samples and the sum of two differences fit in int16): they check cur's samples
// as they read them and give up at the first one of 2^bpc or more; sad.cpp sends those planes and the
// others to the generic loops of sad_kernels.inc.
//
// The arithmetic (every step exact, so the sums equal the reference's):
//   - per input row, d = prev - cur in int16 (kept in a ring of 8 rows, so each row is read once);
//   - vertical: S = 3571 (d0 + d4) + 16004 (d1 + d3) + 26386 d2 + 2^(bpc-1) by two pairwise int16
//     multiply-adds into int32 (|S| < 2^30), V = S >> bpc (floor), |V| <= 65535;
//   - V needs 17 bits, so it is stored as v16 = V mod 2^16 (as int16) and k = (V - v16) / 65536 in
//     {-1, 0, 1}; a row with every k zero (|V| < 32768 everywhere, the usual case) skips k;
//   - horizontal: sum f V = sum f v16 + 65536 sum f k, so X = floor((sum f v16 + 2^15) / 2^16) + sum f k,
//     exactly (65536 K is a multiple of the divisor). sum f v16 + 2^15 fits int32 (|sum| <= 2^31 - 2^15
//     past the rounding), and is formed by three multiply-adds on pairs (v[x-2], v[x-1]),
//     (v[x], v[x+1]), (v[x+2], v[x+3]) read straight from the int16 row as int32 lanes: one load at
//     v + x - 2 gives the pairs of outputs x, x + 2, x + 4, ... and one at v + x - 1 the odd outputs;
//   - |X| summed per row in uint32 lanes (the row total modulo 2^32, libvmaf's width), rows in uint64.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "features/integer_motion/sad.hpp"

namespace vqtwin::integer_motion::x86 {

std::uint64_t sad8_avx2(const std::uint8_t* prev, std::ptrdiff_t ps, const std::uint8_t* cur, std::ptrdiff_t cs,
                        std::uint8_t* keep, int w, int h, SadScratch& s);
// Deeper planes (prev's samples below 2^bpc, the caller's to know): nullopt when one of cur's is not
// (then the caller takes the generic loops; `keep` may hold part of cur).
std::optional<std::uint64_t> sad16_avx2(const std::uint16_t* prev, std::ptrdiff_t ps, const std::uint16_t* cur,
                                        std::ptrdiff_t cs, std::uint16_t* keep, int w, int h, int bpc, SadScratch& s);
std::uint64_t sad8_avx512(const std::uint8_t* prev, std::ptrdiff_t ps, const std::uint8_t* cur, std::ptrdiff_t cs,
                          std::uint8_t* keep, int w, int h, SadScratch& s);
std::optional<std::uint64_t> sad16_avx512(const std::uint16_t* prev, std::ptrdiff_t ps, const std::uint16_t* cur,
                                          std::ptrdiff_t cs, std::uint16_t* keep, int w, int h, int bpc, SadScratch& s);

// The widest deeper planes the vector kernels take (samples below 2^bpc).
inline constexpr int kMaxVectorBits = 14;

}  // namespace vqtwin::integer_motion::x86
