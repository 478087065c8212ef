// common/ordered_sum.hpp: the run rule reproduces the sequential double sum bit for bit, on sums that
// grow through many binades, cancel to zero, change sign, meet exact ties, tiny and huge values,
// infinities and NaN; and on ordinary data most elements are taken by runs, not one by one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/ordered_sum.hpp"

namespace vqtwin::ordered_sum {
namespace {

std::uint64_t bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

double plain(const std::vector<double>& x) {
  double s = 0.0;
  for (double v : x) s += v;
  return s;
}

void expect_same(const std::vector<double>& x, const std::string& what) {
  const double want = plain(x);
  const double got = ordered_sum_by_runs(x.data(), (long long)x.size());
  if (std::isnan(want)) EXPECT_TRUE(std::isnan(got)) << what;
  else EXPECT_EQ(bits(got), bits(want)) << what << ": " << got << " vs " << want;
}

TEST(OrderedSum, EqualsTheSequentialSumOnAdversarialSequences) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> unit(0.0, 1.0), sym(-1.0, 1.0);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 1 + rng() % 40000;
    std::vector<double> a(n), b(n), c(n), d(n), e(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = unit(rng);                                  // grows through binades
      b[i] = sym(rng);                                   // random walk around zero
      c[i] = (i % 2 ? -1.0 : 1.0) * (1.0 + unit(rng));   // cancels, crosses zero
      d[i] = std::ldexp(sym(rng), int(rng() % 200) - 100);  // wide exponents
      e[i] = std::ldexp(std::floor(unit(rng) * 64), -6) + (i % 7 == 0 ? 0x1p-53 : 0.0);  // short mantissas, ties
    }
    expect_same(a, "unit " + std::to_string(trial));
    expect_same(b, "symmetric " + std::to_string(trial));
    expect_same(c, "alternating " + std::to_string(trial));
    expect_same(d, "wide " + std::to_string(trial));
    expect_same(e, "short " + std::to_string(trial));
  }
}

TEST(OrderedSum, TiesAreDecidedByTheSumsParity) {
  // s = 2^52 + k: grid 1 for s < 2^53; x = 0.5 is a tie every time.
  for (double start : {0x1p52, 0x1p52 + 1, 0x1p53 - 8, -0x1p52 - 3}) {
    std::vector<double> x = {start};
    for (int i = 0; i < 5000; ++i) x.push_back(i % 3 ? 0.5 : 1.5);
    expect_same(x, "ties from " + std::to_string(start));
  }
  // A sum that sits on a binade boundary and steps across it repeatedly.
  std::vector<double> y = {1.0};
  for (int i = 0; i < 10000; ++i) y.push_back(i % 2 ? 0x1p-52 : -0x1p-52);
  expect_same(y, "boundary");
  // A sum that drifts down across 1.0 by fractions of its grid: just below 1.0 the grid halves, and
  // the rounded sum is not 1.0 + a whole number of the upper grid.
  std::vector<double> z = {1.0 + 0x1p-49};
  for (int i = 0; i < 10000; ++i) z.push_back((i % 5 == 4 ? 1.3 : -1.4) * 0x1p-52);
  expect_same(z, "drifting down across a binade boundary");
}

TEST(OrderedSum, SpecialValuesAndEdges) {
  const double inf = std::numeric_limits<double>::infinity();
  expect_same({}, "empty");
  expect_same({-0.0}, "negative zero");
  expect_same({-0.0, -0.0}, "negative zeros");
  expect_same({1.0, inf, 2.0}, "infinity");
  expect_same({1.0, -inf, inf, 2.0}, "inf - inf");
  expect_same({1.0, std::nan(""), 2.0}, "NaN");
  expect_same({0x1p-1074, 0x1p-1074, 1.0, 0x1p-1074}, "subnormals");
  expect_same({0x1p1000, 0x1p1000, -0x1p1001, 1.0}, "huge");
  expect_same({1e308, 1e308, -1e308}, "overflow");
  std::vector<double> z(10000, 0.0);
  z[5000] = 1.0;
  expect_same(z, "zeros");
}

TEST(OrderedSum, OrdinaryDataIsTakenByRuns) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(0.5, 1.0);
  std::vector<double> x(1 << 20);
  for (double& v : x) v = unit(rng);
  long long runs = 0;
  const double got = ordered_sum_by_runs(x.data(), (long long)x.size(), &runs);
  EXPECT_EQ(bits(got), bits(plain(x)));
  // About n / kTile tiles plus one per binade crossed: far fewer than the elements.
  EXPECT_LT(runs, (long long)x.size() / kTile + 64);
}

}  // namespace
}  // namespace vqtwin::ordered_sum
