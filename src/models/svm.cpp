// libsvm text model: strict parsing (a malformed model is an error, never a guess) and the RBF
// ν-SVR decision value in libsvm's exact operation order.
#include "models/svm.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "core/quote.hpp"
#include "models/model_file.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::models {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// libsvm reads numbers with iostreams (strtod rules, a leading '+' allowed); from_chars rounds the
// same way (correctly). Infinities and NaN are refused: no model holds them on purpose.
std::optional<double> to_double(std::string_view s) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<long long> to_int(std::string_view s) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string quote(std::string_view s) { return vqtwin::quote(s, 40); }  // short: one-line messages

[[noreturn]] void fail(const std::string& what) { throw Error("libsvm model: " + what); }

// Whitespace-separated tokens of the header, with the line each starts on (for messages).
class Tokens {
 public:
  explicit Tokens(std::string_view text) : text_(text) {}
  std::optional<std::string_view> next() {
    while (pos_ < text_.size() && is_space(text_[pos_])) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ == text_.size()) return std::nullopt;
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && !is_space(text_[pos_])) ++pos_;
    return text_.substr(begin, pos_ - begin);
  }
  std::string_view value(std::string_view key) {
    auto t = next();
    if (!t) fail("'" + std::string(key) + "' has no value");
    return *t;
  }
  double number(std::string_view key) {
    const std::string_view t = value(key);
    auto v = to_double(t);
    if (!v) fail("'" + std::string(key) + "' = " + quote(t) + " is not a number");
    return *v;
  }
  long long integer(std::string_view key) {
    const std::string_view t = value(key);
    auto v = to_int(t);
    if (!v) fail("'" + std::string(key) + "' = " + quote(t) + " is not an integer");
    return *v;
  }
  std::size_t pos() const { return pos_; }
  int line() const { return line_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

SvmModel SvmModel::parse(std::string_view text, std::size_t n_features) {
  SvmModel m;
  m.n_ = n_features;
  Tokens tok(text);
  bool have_type = false, have_kernel = false, have_gamma = false, have_sv = false;
  std::optional<long long> nr_class, total_sv;
  std::optional<double> rho;
  auto need_nr_class = [&](std::string_view key) {
    if (!nr_class) fail("'" + std::string(key) + "' comes before 'nr_class'");
    return *nr_class;
  };
  while (auto t = tok.next()) {
    const std::string_view key = *t;
    if (key == "SV") {
      have_sv = true;
      break;
    }
    if (key == "svm_type") {
      const std::string_view v = tok.value(key);
      if (v != "nu_svr" && v != "epsilon_svr")
        fail("svm_type " + quote(v) + " is not supported (regression models only: nu_svr, epsilon_svr)");
      have_type = true;
    } else if (key == "kernel_type") {
      const std::string_view v = tok.value(key);
      if (v != "rbf") fail("kernel_type " + quote(v) + " is not supported (rbf only)");
      have_kernel = true;
    } else if (key == "gamma") {
      m.gamma_ = tok.number(key);
      if (!(m.gamma_ > 0)) fail("gamma must be positive");
      have_gamma = true;
    } else if (key == "degree") {
      tok.integer(key);  // polynomial kernels only
    } else if (key == "coef0") {
      tok.number(key);  // polynomial and sigmoid kernels only
    } else if (key == "nr_class") {
      nr_class = tok.integer(key);
      if (*nr_class != 2) fail("nr_class must be 2 for a regression model, not " + std::to_string(*nr_class));
    } else if (key == "total_sv") {
      total_sv = tok.integer(key);
      if (*total_sv < 1) fail("total_sv must be at least 1");
    } else if (key == "rho") {
      need_nr_class(key);  // nr_class·(nr_class−1)/2 values: one for regression
      rho = tok.number(key);
    } else if (key == "label" || key == "nr_sv") {
      for (long long i = need_nr_class(key); i > 0; --i) tok.integer(key);
    } else if (key == "probA" || key == "probB") {
      need_nr_class(key);
      tok.number(key);
    } else {
      fail("unknown header item " + quote(key) + " on line " + std::to_string(tok.line()));
    }
  }
  if (!have_type) fail("missing 'svm_type'");
  if (!have_kernel) fail("missing 'kernel_type'");
  if (!have_gamma) fail("missing 'gamma'");
  if (!nr_class) fail("missing 'nr_class'");
  if (!total_sv) fail("missing 'total_sv'");
  if (!rho) fail("missing 'rho'");
  if (!have_sv) fail("missing the 'SV' line before the support vectors");
  m.rho_ = *rho;

  // The support vectors: one per line after "SV" (whose line must end there).
  std::size_t pos = tok.pos();
  int line_no = tok.line();
  auto next_line = [&](std::string_view& line) {
    if (pos >= text.size()) return false;
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    return true;
  };
  auto blank = [](std::string_view s) {
    for (char c : s)
      if (!is_space(c)) return false;
    return true;
  };
  std::string_view line;
  {
    const std::size_t end = text.find('\n', pos);
    const std::string_view rest = text.substr(pos, end == std::string_view::npos ? text.size() - pos : end - pos);
    if (!blank(rest)) fail("text after 'SV' on line " + std::to_string(line_no));
    pos = end == std::string_view::npos ? text.size() : end + 1;
  }
  const long long count = *total_sv;
  // Bounded before any row is stored: each support vector takes a line of at least one byte, and
  // the dense table holds count x n_features doubles.
  if (std::uint64_t(count) > text.size() - std::min(pos, text.size()))
    fail("total_sv is " + std::to_string(count) + " but the text after 'SV' is only " +
         std::to_string(text.size() - std::min(pos, text.size())) + " bytes");
  if (std::uint64_t(count) * std::max<std::size_t>(n_features, 1) > kMaxSvmEntries)
    fail("total_sv " + std::to_string(count) + " x " + std::to_string(n_features) + " features is over " +
         std::to_string(kMaxSvmEntries) + " values");
  std::vector<double> row(n_features);
  for (long long j = 1; j <= count; ++j) {
    const std::string where = "support vector " + std::to_string(j) + " (line " + std::to_string(line_no + 1) + ")";
    if (!next_line(line)) fail("total_sv is " + std::to_string(count) + " but only " + std::to_string(j - 1) +
                               " support vectors follow");
    Tokens items(line);
    auto first = items.next();
    if (!first) fail(where + " is empty");
    auto coef = to_double(*first);
    if (!coef) fail(where + ": coefficient " + quote(*first) + " is not a number");
    std::fill(row.begin(), row.end(), 0.0);
    long long last_index = 0;
    while (auto item = items.next()) {
      const std::size_t colon = item->find(':');
      if (colon == std::string_view::npos) fail(where + ": " + quote(*item) + " is not index:value");
      auto index = to_int(item->substr(0, colon));
      auto value = to_double(item->substr(colon + 1));
      if (!index || !value) fail(where + ": " + quote(*item) + " is not index:value");
      if (*index < 1 || std::size_t(*index) > n_features)
        fail(where + ": index " + std::to_string(*index) + " is outside 1.." + std::to_string(n_features) +
             " (the model has " + std::to_string(n_features) + " features)");
      if (*index <= last_index) fail(where + ": indices must increase (" + std::to_string(*index) + " after " +
                                     std::to_string(last_index) + ")");
      last_index = *index;
      row[std::size_t(*index - 1)] = *value;
    }
    m.coef_.push_back(*coef);
    m.sv_.insert(m.sv_.end(), row.begin(), row.end());
  }
  if (pos < text.size() && !blank(text.substr(pos)))
    fail("more support vectors than total_sv (" + std::to_string(count) + ")");
  return m;
}

double SvmModel::predict(std::span<const double> x) const {
  const double neg_gamma = -gamma_;
  const std::size_t n = n_;
  double f = 0;
  for (std::size_t j = 0; j < coef_.size(); ++j) {
    const double* s = sv_.data() + j * n;
    double d2 = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double d = x[i] - s[i];
      d2 += d * d;
    }
    f += coef_[j] * std::exp(neg_gamma * d2);
  }
  return f - rho_;
}

}  // namespace vqtwin::models
