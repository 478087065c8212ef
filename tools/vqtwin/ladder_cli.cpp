// `vqtwin -r REF -d A -d B ...`: a ladder in one pass (vqtwin/ladder.hpp). Each rendition is written
// as its own run would write it: to a file of a pattern (-o 'out/{dist_stem}.json'), into one combined
// JSON (--json -o FILE), or as a summary on standard output.
#include "ladder_cli.hpp"

#include <unistd.h>

#include <atomic>
#include <memory>
#include <set>
#include <thread>

#include "cli_common.hpp"
#include "core/quote.hpp"
#include "output_file.hpp"
#include "output_pattern.hpp"
#include "progress.hpp"
#include "report_page.hpp"
#include "signals.hpp"
#include "vqtwin/ladder.hpp"

namespace vqtwin_cli {
namespace {

std::map<std::string, std::string> placeholders(const RunArgs& a, std::size_t i) {
  return {{"dist_stem", path_stem(a.distorted[i])},
          {"dist_name", path_name(a.distorted[i])},
          {"ref_stem", path_stem(a.run.reference)},
          {"index", std::to_string(i + 1)}};
}

// "  text" on every line after the first (for embedding a run's JSON in the combined file).
std::string indent_lines(const std::string& text, const std::string& pad) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '\n' && i + 1 < text.size()) out += pad;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += char(c);
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += char(c);
  }
  return out + "\"";
}

// The combined JSON: the reference, then each rendition: its distorted input, its error (if any)
// and its run's own JSON output (if it scored frames), exactly as that run writes it.
void write_combined(std::FILE* f, const RunArgs& a, const std::vector<std::unique_ptr<vqtwin::RenditionResult>>& r) {
  std::fprintf(f, "{\n  \"version\": %s,\n  \"reference\": %s,\n  \"renditions\": [",
               json_string(a.out.version).c_str(), json_string(vqtwin::printable_path(a.run.reference)).c_str());
  for (std::size_t i = 0; i < r.size(); ++i) {
    std::fprintf(f, "%s\n    {\n      \"distorted\": %s", i ? "," : "",
                 json_string(vqtwin::printable_path(a.distorted[i])).c_str());
    if (!r[i]->error.empty())
      std::fprintf(f, ",\n      \"error\": %s", json_string(vqtwin::printable(r[i]->error, 2000)).c_str());
    if (r[i]->results.frame_count() > 0)
      std::fprintf(f, ",\n      \"result\": %s", indent_lines(render_output(r[i]->results, a.out), "      ").c_str());
    std::fprintf(f, "\n    }");
  }
  std::fprintf(f, "\n  ]\n}\n");
}

// An error line of rendition `i`: its message, led by its distorted input's name unless it starts so.
std::string rendition_error(const RunArgs& a, std::size_t i, const std::string& message) {
  const std::string name = vqtwin::printable_path(a.distorted[i]);
  return message.rfind(name, 0) == 0 ? message : name + ": " + message;
}

}  // namespace

int run_ladder_cli(RunArgs& a) {
  const std::size_t n = a.distorted.size();
  enum class Mode { kSummary, kPattern, kCombined } mode = Mode::kSummary;
  std::vector<std::string> paths;
  try {
    if (a.output.empty()) {
      mode = Mode::kSummary;
    } else if (is_pattern(a.output)) {
      mode = Mode::kPattern;
      std::set<std::string> seen;
      for (std::size_t i = 0; i < n; ++i) {
        paths.push_back(expand_pattern(a.output, placeholders(a, i)));
        if (!seen.insert(paths.back()).second)
          throw UsageError("-o " + vqtwin::quote(a.output) + " gives " + vqtwin::quote(paths.back()) +
                           " to two distorted inputs; add {index} to the pattern");
      }
    } else if (a.out.format == vqtwin::OutputFormat::kJson) {
      mode = Mode::kCombined;
    } else {
      throw UsageError("several distorted inputs: give -o a pattern such as 'out/{dist_stem}.xml' (one file each), "
                       "or --json for one combined JSON");
    }
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    return 2;
  }

  // Outputs are opened before the run: a path that cannot be written fails before any work.
  std::vector<std::unique_ptr<OutputFile>> files;
  std::unique_ptr<OutputFile> report;
  try {
    if (mode == Mode::kPattern)
      for (const auto& p : paths) files.push_back(std::make_unique<OutputFile>(p));
    if (mode == Mode::kCombined) files.push_back(std::make_unique<OutputFile>(a.output));
    if (!a.report.empty()) report = std::make_unique<OutputFile>(a.report);
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    for (auto& f : files) f->abandon();
    return 1;
  }

  Progress progress(!a.quiet && isatty(2));
  // The threads are shared among the renditions (results are the same for any count).
  const unsigned all = a.run.threads ? a.run.threads : std::max(1u, std::thread::hardware_concurrency());
  const unsigned each = std::max(1u, all / unsigned(n));
  std::vector<std::atomic<unsigned>> done(n), total(n);
  const std::atomic<bool>* stop = install_stop_signals();
  std::vector<vqtwin::RunConfig> configs;
  for (std::size_t i = 0; i < n; ++i) {
    vqtwin::RunConfig c = a.run;
    c.distorted = a.distorted[i];
    c.threads = each;
    c.gpu = a.gpus[i % a.gpus.size()];
    c.stop = stop;
    const std::string label = vqtwin::printable_path(a.distorted[i]) + ": ";
    c.warn = [&progress, label](const std::string& line) { progress.line("warning: ", label + vqtwin::printable(line, 2000)); };
    c.note = [&progress, label](const std::string& line) { progress.line("", label + vqtwin::printable(line, 2000)); };
    c.progress = [&, i](unsigned d, unsigned t) {
      done[i] = d;
      total[i] = t;
      unsigned sd = 0, st = 0;
      bool known = true;
      for (std::size_t k = 0; k < n; ++k) {
        sd += done[k];
        st += total[k];
        known = known && total[k] > 0;
      }
      progress.update(sd, known ? st : 0);
    };
    configs.push_back(std::move(c));
  }

  std::vector<std::unique_ptr<vqtwin::RenditionResult>> results;
  int status = 0;
  try {
    results = vqtwin::run_ladder(configs);
  } catch (const vqtwin::Error& e) {
    progress.finish();
    print_error(e.what());
    if (report) report->abandon();
    return 1;
  }
  progress.finish();
  const int sig = received_signal();
  if (sig) {
    std::fprintf(stderr, "vqtwin: interrupted by %s: writing the frames scored\n", signal_name(sig));
  } else {
    // One line per failing rendition; the same error for all (e.g. a bad option) once.
    bool same = true;
    for (std::size_t i = 1; i < n; ++i) same = same && results[i]->error == results[0]->error;
    for (std::size_t i = 0; i < n; ++i) {
      if (results[i]->error.empty()) continue;
      status = 1;
      if (same && i > 0) continue;
      print_error(same ? results[i]->error : rendition_error(a, i, results[i]->error));
    }
  }

  try {
    if (mode == Mode::kPattern) {
      for (std::size_t i = 0; i < n; ++i) {
        try {
          if (results[i]->results.frame_count() > 0)
            files[i]->write([&](std::FILE* f) { vqtwin::write_output(f, results[i]->results, a.out); });
          else
            files[i]->abandon();
        } catch (const vqtwin::Error& e) {
          print_error(e.what());
          status = 1;
        }
      }
    } else if (mode == Mode::kCombined) {
      bool any = false;
      for (const auto& r : results) any = any || r->results.frame_count() > 0;
      if (any) files[0]->write([&](std::FILE* f) { write_combined(f, a, results); });
      else files[0]->abandon();
    } else {
      write_stdout([&](std::FILE* f) {
        for (std::size_t i = 0; i < n; ++i) {
          if (results[i]->results.frame_count() == 0) continue;
          std::fprintf(f, "%s:\n", vqtwin::printable_path(a.distorted[i]).c_str());
          print_summary(f, results[i]->results, "  ");
        }
      });
    }
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    status = 1;
  }
  if (report) {
    try {
      std::vector<const vqtwin::Results*> scored;
      for (const auto& r : results) scored.push_back(&r->results);
      write_report_page(*report, a, scored);
    } catch (const vqtwin::Error& e) {
      print_error(e.what());
      status = 1;
    }
  }
  report_peak_memory();
  if (const int s = received_signal()) return 128 + s;
  return status;
}

}  // namespace vqtwin_cli
