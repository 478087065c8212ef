#pragma once
// SpEED's small dense linear algebra in binary32 (libvmaf 3.2 speed.c): the eigenvalues of a
// symmetric matrix (Householder tridiagonalisation, then implicit-shift QR with Givens rotations, as
// GSL's gsl_eigen_symm) and A X = B through a Householder QR decomposition and back substitution.
// Every operation is the float operation libvmaf performs, in its order; where libvmaf's C promotes to
// double (a double constant, sqrt) the code says so. Matrices are n x n, row-major.
#include <span>
#include <vector>

namespace vqtwin::speed {

// The eigenvalues of the symmetric `a` (n x n), in the order the QR iteration leaves them (unsorted).
// `a` is not modified.
std::vector<float> eigenvalues(std::span<const float> a, int n);

// Solves A X = B (A n x n, B and X n x cols). False when R has a diagonal entry below 1e-6 in
// magnitude (X is then partly written; libvmaf zeroes it).
bool solve(std::span<const float> a, int n, std::span<const float> b, int cols, std::span<float> x);

}  // namespace vqtwin::speed
