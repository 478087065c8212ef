#pragma once
// The libsvm regression model embedded in a VMAF model ("model" string): ν-SVR (or ε-SVR, whose
// prediction is the same) with an RBF kernel. Support vectors are stored dense: an index missing
// from a sparse SV line is 0, and (x − 0)² == x·x exactly, so the dense sum is bit-identical to
// libsvm's sparse walk over the union of indices.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vqtwin::models {

class SvmModel {
 public:
  // Parses libsvm's text model for vectors of `n_features` entries (indices 1..n_features).
  // Throws vqtwin::Error with a message that says what is wrong (without the file name: the
  // caller adds it).
  static SvmModel parse(std::string_view text, std::size_t n_features);

  // f = Σ_j coef_j · exp(−γ·D_j) − rho, D_j = Σ_i (x_i − sv_j,i)², in libsvm's order: i ascending,
  // j in file order, all double, each operation rounded once. `x` has n_features entries.
  double predict(std::span<const double> x) const;

  std::size_t support_vectors() const { return coef_.size(); }
  std::size_t features() const { return n_; }
  double gamma() const { return gamma_; }
  double rho() const { return rho_; }

 private:
  std::size_t n_ = 0;
  double gamma_ = 0;
  double rho_ = 0;
  std::vector<double> coef_;
  std::vector<double> sv_;  // support_vectors() rows of n_ values
};

}  // namespace vqtwin::models
