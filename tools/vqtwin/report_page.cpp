#include "report_page.hpp"

#include <string>

#include "core/quote.hpp"
#include "vqtwin/report.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin_cli {
namespace {

// A run's name on the report: the distorted input's file name.
std::string label_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos || slash + 1 == path.size() ? path : path.substr(slash + 1);
}

// What the report lists under "Settings": the command line, the models and features asked for.
vqtwin::ReportOptions report_options(const RunArgs& a) {
  vqtwin::ReportOptions o;
  o.version = std::string("vqtwin ") + vqtwin::version();
  o.subsample = a.run.subsample;
  o.settings.emplace_back("command", vqtwin::printable(a.command_line, 4000));
  std::string models, features;
  for (const auto& m : a.run.models) models += (models.empty() ? "" : "; ") + m;
  for (const auto& f : a.run.features) features += (features.empty() ? "" : "; ") + f;
  if (models.empty() && !a.run.no_prediction) models = "version=vmaf_v0.6.1 (the default)";
  if (!models.empty()) o.settings.emplace_back("models", models);
  if (!features.empty()) o.settings.emplace_back("features", features);
  o.settings.emplace_back("backend", vqtwin::to_string(a.run.backend));
  o.settings.emplace_back("threads", a.run.threads ? std::to_string(a.run.threads) : "one per core");
  if (a.run.subsample > 1) o.settings.emplace_back("subsample", std::to_string(a.run.subsample));
  return o;
}

}  // namespace

void write_report_page(OutputFile& file, const RunArgs& a, const std::vector<const vqtwin::Results*>& results) {
  std::vector<vqtwin::ReportRun> pages;
  for (std::size_t i = 0; i < results.size() && i < a.distorted.size(); ++i)
    if (results[i]->frame_count() > 0) pages.push_back({results[i], label_of(a.distorted[i])});
  if (pages.empty()) file.abandon();
  else file.write([&](std::FILE* f) { vqtwin::write_report(f, pages, report_options(a)); });
}

}  // namespace vqtwin_cli
