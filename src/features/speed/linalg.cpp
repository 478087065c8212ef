// SpEED's linear algebra (see linalg.hpp). Float arithmetic with libvmaf's promotions: `sqrt` is the
// double square root of a float (its result rounded back to float), literals such as 0.5 and 2.0
// promote their expression to double.
#include "features/speed/linalg.hpp"

#include <cmath>
#include <cstddef>
#include <utility>

namespace vqtwin::speed {
namespace {

constexpr double kEps = 1e-6;  // libvmaf's EIGENVALUE_EPS, a double
constexpr int kMaxIterations = 500;

float sqrt_f(float x) { return float(std::sqrt(double(x))); }
int sign_of(float x) { return x >= 0 ? 1 : -1; }
float hypot_f(float x, float y) { return sqrt_f(x * x + y * y); }

// ---- eigenvalues ----

// Euclidean norm of column `col`, rows [from, n).
float column_norm(const float* a, int col, int from, int n) {
  float sum = 0;
  for (int i = from; i < n; ++i) sum += a[i * n + col] * a[i * n + col];
  return sqrt_f(sum);
}

// The Householder reflection that zeroes a[from+1.., col]: returns tau, scales the column below
// `from` by 1/(alpha - beta) and puts beta at `from` (GSL's convention, v[0] = 1 implicit).
float householder(float* a, int col, int from, int n) {
  if (n - from == 1) return 0.0f;
  const float xnorm = column_norm(a, col, from + 1, n);
  if (xnorm == 0.0f) return 0.0f;
  const float alpha = a[from * n + col];
  const float beta = float(-sign_of(alpha)) * hypot_f(alpha, xnorm);
  const float tau = (beta - alpha) / beta;
  const float s = alpha - beta;
  if (s != 0.0f) {
    for (int i = from; i < n; ++i) a[i * n + col] /= s;
    a[from * n + col] = beta;
  }
  return tau;
}

// Reduces the symmetric `a` (overwritten) to tridiagonal form: diagonal d, subdiagonal sd.
void tridiagonalise(float* a, int n, float* d, float* sd) {
  std::vector<float> v(static_cast<std::size_t>(n)), x(static_cast<std::size_t>(n));
  for (int i = 0; i < n - 2; ++i) {
    const float tau = householder(a, i, i + 1, n);
    for (int j = i + 1; j < n; ++j) v[std::size_t(j)] = a[j * n + i];
    if (tau != 0.0f) {
      a[(i + 1) * n + i] = v[std::size_t(i + 1)];
      v[std::size_t(i + 1)] = 1.0f;
      const int s = i + 1;
      // x = tau A v
      for (int r = s; r < n; ++r) {
        float acc = 0.0f;
        for (int c = s; c < n; ++c) acc += tau * a[r * n + c] * v[std::size_t(c)];
        x[std::size_t(r)] = acc;
      }
      // x -= (tau/2)(x.v) v, the coefficient in double as libvmaf's -0.5 makes it
      float xv = 0;
      for (int r = s; r < n; ++r) xv += x[std::size_t(r)] * v[std::size_t(r)];
      const float alpha = float(-0.5 * double(tau) * double(xv));
      for (int r = s; r < n; ++r) x[std::size_t(r)] += alpha * v[std::size_t(r)];
      // A -= x v' + v x'
      for (int r = s; r < n; ++r)
        for (int c = s; c < n; ++c)
          a[r * n + c] -= x[std::size_t(r)] * v[std::size_t(c)] + v[std::size_t(r)] * x[std::size_t(c)];
    }
  }
  for (int i = 0; i < n; ++i) d[i] = a[i * n + i];
  for (int i = 0; i < n - 1; ++i) sd[i] = a[(i + 1) * n + i];
}

void chop_small(float* d, float* sd, int n) {
  for (int i = 0; i < n - 1; ++i)
    if (double(std::fabs(sd[i])) < kEps * double(std::fabs(d[i]) + std::fabs(d[i + 1]))) sd[i] = 0.0f;
}

// Wilkinson's shift from the trailing 2x2 block.
float trailing_eigenvalue(const float* d, const float* sd, int n) {
  const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
  const float dt = float(double(ta - tb) / 2.0);
  if (dt > 0) return tb - tab * (tab / (dt + hypot_f(dt, tab)));
  if (dt == 0) return tb - std::fabs(tab);
  return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

void givens(float a, float b, float& c, float& s) {
  if (b == 0) {
    c = 1;
    s = 0;
  } else if (std::fabs(b) > std::fabs(a)) {
    const float t = -a / b;
    const float s1 = float(1.0 / std::sqrt(double(1 + t * t)));
    s = s1;
    c = s1 * t;
  } else {
    const float t = -b / a;
    const float c1 = float(1.0 / std::sqrt(double(1 + t * t)));
    c = c1;
    s = c1 * t;
  }
}

// One implicit symmetric QR step on the unreduced block d[0..n), sd[0..n-1).
void qr_step(float* d, float* sd, int n) {
  float mu = trailing_eigenvalue(d, sd, n);
  if (kEps * double(std::fabs(mu)) > double(std::fabs(d[0]) + std::fabs(sd[0]))) mu = 0;
  float x = d[0] - mu;
  float z = sd[0];
  float ak = 0, bk = 0, zk = 0;
  float ap = d[0], bp = sd[0], aq = d[1];
  if (n == 2) {
    float c, s;
    givens(x, z, c, s);
    const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    d[0] = ap1;
    sd[0] = bp1;
    d[1] = aq1;
    return;
  }
  float bq = sd[1];
  for (int k = 0; k < n - 1; ++k) {
    float c, s;
    givens(x, z, c, s);
    const float bk1 = c * bk - s * zk;
    const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    const float zp1 = -s * bq;
    const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    const float bq1 = c * bq;
    ak = ap1;
    bk = bp1;
    zk = zp1;
    ap = aq1;
    bp = bq1;
    if (k < n - 2) aq = d[k + 2];
    if (k < n - 3) bq = sd[k + 2];
    d[k] = ak;
    if (k > 0) sd[k - 1] = bk1;
    if (k < n - 2) sd[k + 1] = bp;
    x = bk;
    z = zk;
  }
  d[n - 1] = ap;
  sd[n - 2] = bk;
}

// ---- QR solve ----

float norm_f(const float* v, int n) {
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += v[i] * v[i];
  return sqrt_f(sum);
}

// dst = x y (x r x m, y m x c), each entry summed over m in order from 0.
void multiply(float* dst, const float* x, const float* y, int r, int m, int c) {
  for (int i = 0; i < r * c; ++i) dst[i] = 0;
  for (int i = 0; i < r; ++i)
    for (int k = 0; k < m; ++k)
      for (int j = 0; j < c; ++j) dst[i * c + j] += x[i * m + k] * y[k * c + j];
}

void transpose(float* m, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) std::swap(m[i * n + j], m[j * n + i]);
}

// libvmaf's Householder QR of A: q receives Q (A = Q R), r receives R.
void qr_decompose(const float* a, int n, float* q, float* r) {
  const std::size_t nn = std::size_t(n) * std::size_t(n);
  std::vector<float> z(a, a + nn), h(nn), t(nn), vec(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) q[i * n + j] = i == j ? 1.0f : 0.0f;
  for (int k = 0; k < n - 1; ++k) {
    // The minor: rows and columns before k become the identity's.
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (i < k || j < k) z[std::size_t(i * n + j)] = i == j ? 1.0f : 0.0f;
    for (int i = 0; i < n; ++i) vec[std::size_t(i)] = z[std::size_t(i * n + k)];
    const float norm = norm_f(vec.data(), n);
    vec[std::size_t(k)] += float(sign_of(a[k * n + k])) * norm;  // the sign of the original A's diagonal
    const float len = norm_f(vec.data(), n);
    for (int i = 0; i < n; ++i) vec[std::size_t(i)] = vec[std::size_t(i)] / len;
    // h = I - 2 v v'
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) h[std::size_t(i * n + j)] = -2.0f * vec[std::size_t(i)] * vec[std::size_t(j)];
    for (int i = 0; i < n; ++i) h[std::size_t(i * n + i)] += 1;
    multiply(t.data(), h.data(), z.data(), n, n, n);
    z = t;
    multiply(t.data(), h.data(), q, n, n, n);
    for (std::size_t i = 0; i < nn; ++i) q[i] = t[i];
  }
  multiply(r, q, a, n, n, n);
  transpose(q, n);
}

}  // namespace

std::vector<float> eigenvalues(std::span<const float> a_in, int n) {
  std::vector<float> a(a_in.begin(), a_in.end());
  if (n == 1) return {a[0]};
  std::vector<float> d(static_cast<std::size_t>(n)), sd(static_cast<std::size_t>(n));
  tridiagonalise(a.data(), n, d.data(), sd.data());
  chop_small(d.data(), sd.data(), n);
  int b = n - 1, iterations = 0;
  while (b > 0 && iterations < kMaxIterations) {
    if (sd[std::size_t(b - 1)] == 0.0f) {
      --b;
      continue;
    }
    int a0 = b - 1;  // the largest unreduced block ending at b
    while (a0 > 0 && sd[std::size_t(a0 - 1)] != 0.0f) --a0;
    const int block = b - a0 + 1;
    qr_step(d.data() + a0, sd.data() + a0, block);
    chop_small(d.data() + a0, sd.data() + a0, block);
    ++iterations;
  }
  return d;
}

bool solve(std::span<const float> a, int n, std::span<const float> b, int cols, std::span<float> x) {
  const std::size_t nn = std::size_t(n) * std::size_t(n);
  std::vector<float> q(nn), r(nn), qtb(std::size_t(n) * std::size_t(cols));
  qr_decompose(a.data(), n, q.data(), r.data());
  transpose(q.data(), n);  // libvmaf transposes back: R X = Q' B with its Q' = this matrix
  multiply(qtb.data(), q.data(), b.data(), n, n, cols);
  for (int i = n - 1; i >= 0; --i) {
    const float den = r[std::size_t(i * n + i)];
    if (double(std::fabs(den)) < kEps) return false;
    for (int j = 0; j < cols; ++j) {
      float term = qtb[std::size_t(i) * cols + j];
      for (int k = i + 1; k < n; ++k) term -= x[std::size_t(k) * cols + j] * r[std::size_t(i * n + k)];
      x[std::size_t(i) * cols + j] = term / den;
    }
  }
  return true;
}

}  // namespace vqtwin::speed
