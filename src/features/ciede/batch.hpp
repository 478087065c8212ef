#pragma once
// ciede's per-pixel math over batches of pixels (batch.cpp), bit-identical to math.hpp's to_lab() and
// ciede2000() element by element.
#include <cstdint>

#include "features/ciede/math.hpp"

namespace vqtwin::ciede {

inline constexpr int kBatch = 64;

// out[k] = ciede2000(c1[k], c2[k]) for k < n <= kBatch.
void ciede2000_batch(const Lab* c1, const Lab* c2, int n, float* out);

// out[k] = to_lab(y[k], u[k], v[k], bpc) for k < n <= 2 * kBatch.
void to_lab_batch(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n, unsigned bpc,
                  Lab* out);

}  // namespace vqtwin::ciede
