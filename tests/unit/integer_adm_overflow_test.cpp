// integer ADM's angle test on the extreme int32 inputs (issue 12, the one UBSan report): its int64
// moments used to overflow (signed, undefined) when every input is INT32_MIN. They are now summed
// modulo 2^64, as the AVX-512 kernel sums them; constexpr evaluation proves the absence of undefined
// behaviour (a compiler must reject undefined behaviour in a constant expression).
#include <gtest/gtest.h>

#include <cstdint>

#include "features/integer_adm/math.hpp"

namespace vqtwin::integer_adm {
namespace {

constexpr int64_t kMin = INT32_MIN, kMax = INT32_MAX;

// Every input INT32_MIN: dot = |o|^2 = |t|^2 = 2^63, which wraps to -2^63, so the test says "not
// within 1 degree" (x < 0), as the AVX-512 kernel and x86's wrapping int64 sum say.
static_assert(!angle_within_1deg(kMin, kMin, kMin, kMin));
// One component at INT32_MIN: 2^62 fits; identical vectors are within 1 degree.
static_assert(angle_within_1deg(kMin, 0, kMin, 0));
static_assert(angle_within_1deg(kMax, kMax, kMax, kMax));
// Opposite extreme vectors: a negative dot product.
static_assert(!angle_within_1deg(kMin, kMin, kMax, kMax));

TEST(IntegerAdmOverflow, ExtremeMomentsAreDefinedAndWrapLikeTheSimdKernel) {
  // The same cases at run time (UBSan checks these calls in the sanitizer job).
  volatile int64_t lo = kMin, hi = kMax, zero = 0;
  EXPECT_FALSE(angle_within_1deg(lo, lo, lo, lo));
  EXPECT_TRUE(angle_within_1deg(lo, zero, lo, zero));
  EXPECT_TRUE(angle_within_1deg(hi, hi, hi, hi));
  EXPECT_FALSE(angle_within_1deg(lo, lo, hi, hi));
  EXPECT_EQ(wrapping_moment(lo, lo, lo, lo), INT64_MIN);  // 2^63 mod 2^64, read as int64
  EXPECT_EQ(wrapping_moment(lo, hi, zero, zero), kMin * kMax);  // in range: the plain product
}

}  // namespace
}  // namespace vqtwin::integer_adm
