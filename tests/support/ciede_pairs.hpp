#pragma once
// Video-like colour pairs for ciede's tests (unit and cpu_check): a random colour and a near one (a
// step of 1, 4, 40 or anything in each channel, a grey chroma one time in eight), where the
// certainty checks of the fast conversion and colour difference are most often at their edges.
#include <random>

#include "features/ciede/math.hpp"

namespace vqtwin::test {

inline void video_like_pair(std::mt19937& rng, unsigned bpc, ciede::Lab& a, ciede::Lab& b) {
  const unsigned max = (1u << bpc) - 1, grey = 128u << (bpc - 8);
  const unsigned mode = rng() % 4, d = mode == 0 ? 1 : mode == 1 ? 4 : mode == 2 ? 40 : max;
  auto near = [&](unsigned s) {
    const long t = long(s) + long(rng() % (2 * d + 1)) - long(d);
    return t < 0 ? 0u : t > long(max) ? max : unsigned(t);
  };
  unsigned y = rng() & max, u = rng() & max, v = rng() & max;
  if (rng() % 8 == 0) u = v = grey;
  a = ciede::to_lab(y, u, v, bpc);
  b = ciede::to_lab(near(y), u == grey ? u : near(u), v == grey ? v : near(v), bpc);
}

// A random Lab colour: grey, one chroma axis or both (the branches of the hue and rotation terms).
inline ciede::Lab random_lab(std::mt19937& rng) {
  std::uniform_real_distribution<float> l(0, 100), ab(-110, 110);
  switch (rng() % 5) {
    case 0: return {l(rng), 0, 0};
    case 1: return {l(rng), 0, ab(rng)};
    case 2: return {l(rng), ab(rng), 0};
    default: return {l(rng), ab(rng), ab(rng)};
  }
}

}  // namespace vqtwin::test
