// `vqtwin batch MANIFEST [options] [run flags]` and `vqtwin batch-merge`: see kBatchHelp.
#include "batch/batch_cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <list>
#include <mutex>
#include <thread>

#include "batch/manifest.hpp"
#include "batch/plan.hpp"
#include "batch/summary.hpp"
#include "cli_common.hpp"
#include "core/quote.hpp"
#include "output_file.hpp"
#include "output_pattern.hpp"
#include "run_args.hpp"
#include "signals.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/ladder.hpp"

namespace vqtwin_cli {
namespace {

namespace fs = std::filesystem;
using namespace batch;

constexpr const char* kBatchHelp = R"(vqtwin batch MANIFEST [options] [run flags]
Scores every row of MANIFEST (CSV with a header row, or JSON Lines) with the machine's cores (and GPUs)
kept busy. Columns: reference, distorted (required), output, model, options (more vqtwin flags for the
row). Relative paths are relative to the manifest's folder. Each row is scored exactly as
`vqtwin [run flags] --model MODEL OPTIONS -r REFERENCE -d DISTORTED -o OUTPUT` would score it (the output's
format from its name: .json, .csv, .sub, else XML, unless the options give one); rows that share a
reference and read it alike run as one pass (a ladder: the reference is read once).

Resumable: a row's output is written under a temporary name and renamed when complete, then a record
OUTPUT.row.json; a row whose output and record exist (with the same arguments) is not run again. A
failing row is reported (one error line, and in the summary) and does not stop the others.

Options:
  -o, --output PATTERN  output of rows without one: {dist_stem} {dist_name} {ref_stem} {row}
  --summary FILE        the summary (default: next to the manifest, NAME.summary.json, or with --shard
                        NAME.shard-K-of-N.summary.json); FILE.csv writes CSV (one column per metric: its mean)
  --shard K/N | slurm   only shard K (0..N-1) of N: each reference's rows stay in one shard, shards are
                        the same for every task; slurm = $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT
                        (Kubernetes Indexed Jobs: --shard $JOB_COMPLETION_INDEX/N)
  --jobs N              rows scored at once (default: one per thread); a pass larger than N runs alone
  --threads N           threads in all (default: one per core), shared among the rows running
  --gpu LIST            CUDA devices the rows are spread over: 0,1 or all (a device may be named twice)
  --dry-run             print the rows of this shard and their passes, run nothing
  -q, --quiet           no line per row on stderr
Any other flag is a run flag for every row (--feature psnr, --model ..., --backend cuda, --precision max).
Exit status: 0 every row of the shard scored (now or before), 1 a row failed, 2 misuse or a bad manifest.

vqtwin batch-merge [-o FILE] SUMMARY.json...
Merges shard summaries (JSON) into the summary of the whole manifest (to FILE, .csv for CSV; default
standard output, JSON); exit status 1 when a row of the manifest is in none of them.
)";

struct BatchOptions {
  std::string manifest, output_pattern, summary, shard;
  std::string jobs, threads, gpu;
  bool dry_run = false, quiet = false, help = false;
  std::vector<std::string> run_words;
};

// The batch's own options are taken out; everything else is a run flag for every row.
BatchOptions parse_batch_args(const std::vector<std::string>& args) {
  BatchOptions o;
  struct Valued {
    const char* name;
    const char* alias;
    std::string BatchOptions::*field;
  };
  const Valued valued[] = {{"--output", "-o", &BatchOptions::output_pattern}, {"--summary", nullptr, &BatchOptions::summary},
                           {"--shard", nullptr, &BatchOptions::shard},         {"--jobs", nullptr, &BatchOptions::jobs},
                           {"--threads", nullptr, &BatchOptions::threads},     {"--gpu", nullptr, &BatchOptions::gpu}};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help") {
      o.help = true;
      continue;
    }
    if (a == "--dry-run") {
      o.dry_run = true;
      continue;
    }
    if (a == "-q" || a == "--quiet") {
      o.quiet = true;
      continue;
    }
    bool taken = false;
    for (const Valued& v : valued) {
      const std::string name = v.name;
      if (a == name || (v.alias && a == v.alias)) {
        if (i + 1 >= args.size()) throw UsageError(name + " needs a value (see vqtwin batch --help)");
        o.*v.field = args[++i];
        taken = true;
      } else if (a.rfind(name + "=", 0) == 0) {
        o.*v.field = a.substr(name.size() + 1);
        taken = true;
      }
      if (taken) break;
    }
    if (taken) continue;
    if (o.manifest.empty() && i == 0 && !a.empty() && a[0] != '-') {
      o.manifest = a;
      continue;
    }
    o.run_words.push_back(a);
  }
  return o;
}

unsigned parse_count(const std::string& name, const std::string& text, unsigned max) {
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(text) > max)
    throw UsageError(name + " must be a whole number from 0 to " + std::to_string(max) + ", not " + vqtwin::quote(text));
  return unsigned(std::stoul(text));
}

std::string default_summary(const Manifest& m, const std::string& shard_text, const Shard& s) {
  const fs::path p(m.path);
  std::string name = p.stem().string();
  if (!shard_text.empty()) name += ".shard-" + std::to_string(s.k) + "-of-" + std::to_string(s.n);
  return (p.parent_path() / (name + ".summary.json")).string();
}

std::string first_score(const Json& entry) {
  if (!entry.contains("pooled") || entry["pooled"].empty()) return "";
  const auto first = entry["pooled"].begin();  // the headline (model scores come first)
  const std::string name = first.key();
  if (!first->contains("mean")) return name;
  const Json& v = (*first)["mean"];
  return name + " " + (v.is_number() ? vqtwin::format_number(v.get<double>(), -1) : v.get<std::string>());
}

// Runs the passes, `jobs` rows at a time; each row's entry goes into `entries`.
class Scheduler {
 public:
  Scheduler(std::vector<Job>& jobs, const BatchOptions& o, unsigned threads, unsigned max_rows,
            std::vector<int> gpus, std::size_t rows_to_run)
      : jobs_(jobs), o_(o), max_rows_(std::max(1u, max_rows)), gpus_(std::move(gpus)) {
    per_row_threads_ = std::max(1u, threads / unsigned(std::max<std::size_t>(1, std::min<std::size_t>(max_rows_, rows_to_run))));
    stop_ = install_stop_signals();
  }

  void run(const std::vector<std::vector<std::size_t>>& passes) {
    for (const auto& pass : passes) {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return stop_->load() || running_ == 0 || running_ + pass.size() <= max_rows_; });
      if (stop_->load()) break;
      running_ += pass.size();
      std::vector<int> devices;
      for (std::size_t i = 0; i < pass.size(); ++i) devices.push_back(gpus_[next_gpu_++ % gpus_.size()]);
      lock.unlock();
      try {
        threads_.emplace_back([this, pass, devices] { run_pass(pass, devices); });
      } catch (const std::exception& e) {
        for (const std::size_t j : pass) finish_failed(j, std::string("could not start a thread (") + e.what() + ")");
        std::lock_guard relock(mutex_);
        running_ -= pass.size();
      }
    }
    for (auto& t : threads_) t.join();
  }

  std::vector<Json> take_entries() { return std::move(entries_); }
  unsigned scored() const { return scored_; }
  unsigned failed() const { return failed_; }

 private:
  void run_pass(const std::vector<std::size_t>& pass, const std::vector<int>& devices) {
    std::vector<vqtwin::RunConfig> configs;
    for (std::size_t i = 0; i < pass.size(); ++i) {
      Job& job = jobs_[pass[i]];
      vqtwin::RunConfig c = job.args.run;
      c.threads = per_row_threads_;
      c.gpu = devices[i];
      c.stop = stop_;
      const std::string label = "row " + std::to_string(job.row->number) + " (" + vqtwin::printable_path(job.row->distorted) + "): ";
      c.warn = [this, label](const std::string& line) { say("vqtwin: warning: " + label + vqtwin::printable(line, 2000)); };
      c.note = [this, label](const std::string& line) { say("vqtwin: " + label + vqtwin::printable(line, 2000)); };
      configs.push_back(std::move(c));
    }
    std::vector<std::unique_ptr<vqtwin::RenditionResult>> results;
    try {
      results = vqtwin::run_ladder(configs);
    } catch (const std::exception& e) {
      for (const std::size_t j : pass) finish_failed(j, e.what());
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
      Job& job = jobs_[pass[i]];
      const auto& r = *results[i];
      if (stop_->load()) finish_failed(pass[i], "interrupted before the row was complete");
      else if (!r.error.empty()) finish_failed(pass[i], r.error);
      else finish_scored(job, r.results);
    }
    std::lock_guard lock(mutex_);
    running_ -= pass.size();
    cv_.notify_all();
  }

  // The output (temporary name, renamed when whole), then the record that marks the row done.
  void finish_scored(const Job& job, const vqtwin::Results& r) {
    Json entry;
    try {
      write_atomically(job.output, render_output(r, job.args.out));
      entry = scored_entry(job, r, job.args.out);
      write_record(job, entry);
    } catch (const std::exception& e) {
      finish_failed(std::size_t(&job - jobs_.data()), e.what());
      return;
    }
    if (!o_.quiet)
      say("vqtwin: row " + std::to_string(job.row->number) + " (" + vqtwin::printable_path(job.row->distorted) +
          "): " + first_score(entry) + " (" + entry["frames"].dump() + " frames) -> " +
          vqtwin::printable_path(job.output_as_written));
    std::lock_guard lock(mutex_);
    entries_.push_back(std::move(entry));
    ++scored_;
  }

  void finish_failed(std::size_t j, const std::string& error) {
    const Job& job = jobs_[j];
    say("vqtwin: error: row " + std::to_string(job.row->number) + " (" + vqtwin::printable_path(job.row->distorted) +
        "): " + vqtwin::printable(error, 2000));
    std::lock_guard lock(mutex_);
    entries_.push_back(failed_entry(job, error));
    ++failed_;
  }

  void say(const std::string& line) {
    std::lock_guard lock(print_mutex_);
    std::fprintf(stderr, "%s\n", line.c_str());
  }

  std::vector<Job>& jobs_;
  const BatchOptions& o_;
  unsigned max_rows_;
  std::vector<int> gpus_;
  unsigned per_row_threads_ = 1;
  const std::atomic<bool>* stop_ = nullptr;
  std::mutex mutex_, print_mutex_;
  std::condition_variable cv_;
  std::size_t running_ = 0, next_gpu_ = 0;
  std::list<std::thread> threads_;
  std::vector<Json> entries_;
  unsigned scored_ = 0, failed_ = 0;
};

int run_batch(const BatchOptions& o) {
  if (o.manifest.empty()) throw UsageError("vqtwin batch MANIFEST: give the manifest first (see vqtwin batch --help)");
  if (const std::string f = forbidden_flag(o.run_words); !f.empty())
    throw UsageError(f + " is not a flag of vqtwin batch (the manifest gives each row's inputs and output; see "
                         "vqtwin batch --help)");
  // The run flags, checked once as a run would check them.
  {
    std::vector<std::string> probe = o.run_words;
    probe.insert(probe.end(), {"-r", "r", "-d", "d"});
    const RunArgs a = parse_run_args(probe);
    if (a.action != RunArgs::Action::kRun) throw UsageError("vqtwin batch: " + o.run_words.front() + " is not a run flag");
  }
  if (!o.output_pattern.empty())  // checked once here rather than failing every row
    expand_pattern(o.output_pattern, {{"dist_stem", ""}, {"dist_name", ""}, {"ref_stem", ""}, {"row", ""}}, "-o");
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  unsigned threads = o.threads.empty() ? 0 : parse_count("--threads", o.threads, 1024);
  if (threads == 0) threads = hw;
  unsigned max_rows = o.jobs.empty() ? 0 : parse_count("--jobs", o.jobs, 100000);
  const std::vector<int> gpus = o.gpu.empty() ? std::vector<int>{0} : parse_gpu_list(o.gpu);
  if (max_rows == 0) max_rows = std::max<unsigned>(threads, unsigned(gpus.size()));
  Shard shard;
  if (!o.shard.empty()) shard = parse_shard(o.shard, [](const char* n) -> const char* { return std::getenv(n); });

  Manifest m;
  std::vector<Job> jobs;
  try {
    m = read_manifest(o.manifest);
    jobs = plan_jobs(m, o.run_words, o.output_pattern);
  } catch (const vqtwin::Error& e) {
    throw UsageError(e.what());
  }
  const std::vector<std::size_t> mine = shard_jobs(jobs, shard.k, shard.n);
  const std::string shard_text = o.shard.empty() ? "" : std::to_string(shard.k) + "/" + std::to_string(shard.n);
  const std::string summary_path = o.summary.empty() ? default_summary(m, o.shard, shard) : o.summary;

  // Rows done before (output and record), rows that cannot run, and the passes of the rest.
  std::vector<Json> entries;
  std::vector<std::size_t> to_run;
  unsigned done_before = 0, refused = 0;
  for (const std::size_t j : mine) {
    if (!jobs[j].error.empty()) continue;
    if (Json e = finished_entry(jobs[j]); !e.is_null()) {
      entries.push_back(std::move(e));
      ++done_before;
    } else {
      to_run.push_back(j);
    }
  }
  const auto passes = group_by(jobs, to_run, true);
  if (o.dry_run) {
    write_stdout([&](std::FILE* f) {
      std::fprintf(f, "manifest %s: %zu rows; shard %s: %zu rows, %u done before, %zu passes to run\n",
                   vqtwin::printable_path(m.path).c_str(), m.rows.size(), shard_text.empty() ? "all" : shard_text.c_str(),
                   mine.size(), done_before, passes.size());
      for (std::size_t p = 0; p < passes.size(); ++p)
        for (const std::size_t j : passes[p])
          std::fprintf(f, "pass %zu: row %u %s -> %s\n", p + 1, jobs[j].row->number,
                       vqtwin::printable_path(jobs[j].row->distorted).c_str(),
                       vqtwin::printable_path(jobs[j].output_as_written).c_str());
      for (const std::size_t j : mine)
        if (!jobs[j].error.empty())
          std::fprintf(f, "row %u cannot run: %s\n", jobs[j].row->number, vqtwin::printable(jobs[j].error, 2000).c_str());
    });
    return 0;
  }
  for (const std::size_t j : mine)
    if (!jobs[j].error.empty()) {
      print_error("row " + std::to_string(jobs[j].row->number) + " (" + vqtwin::printable_path(jobs[j].row->distorted) +
                  "): " + jobs[j].error);
      entries.push_back(failed_entry(jobs[j], jobs[j].error));
      ++refused;
    }

  Scheduler scheduler(jobs, o, threads, max_rows, gpus, to_run.size());
  scheduler.run(passes);
  for (Json& e : scheduler.take_entries()) entries.push_back(std::move(e));
  const unsigned failed = refused + scheduler.failed();
  const unsigned not_run = unsigned(mine.size()) - done_before - scheduler.scored() - failed;

  int status = failed || not_run ? 1 : 0;
  try {
    write_atomically(summary_path, summary_text(summary(m, shard_text, std::move(entries)), summary_path));
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    status = 1;
  }
  std::fprintf(stderr, "vqtwin: batch %s%s: %zu rows: %u scored, %u done before, %u failed%s; summary %s\n",
               vqtwin::printable_path(m.path).c_str(), shard_text.empty() ? "" : (" shard " + shard_text).c_str(),
               mine.size(), scheduler.scored(), done_before, failed,
               not_run ? (", " + std::to_string(not_run) + " not run (interrupted)").c_str() : "",
               vqtwin::printable_path(summary_path).c_str());
  if (const int s = received_signal()) return 128 + s;
  return status;
}

}  // namespace

int batch_main(const std::vector<std::string>& args) {
  try {
    const BatchOptions o = parse_batch_args(args);
    if (o.help) {
      write_stdout([](std::FILE* f) { std::fputs(kBatchHelp, f); });
      return 0;
    }
    return run_batch(o);
  } catch (const UsageError& e) {
    print_error(e.what());
    return 2;
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    print_error("out of memory");
    return 1;
  }
}

int batch_merge_main(const std::vector<std::string>& args) {
  std::string output;
  std::vector<std::string> inputs;
  try {
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (args[i] == "--help") {
        write_stdout([](std::FILE* f) { std::fputs(kBatchHelp, f); });
        return 0;
      }
      if (args[i] == "-o" || args[i] == "--output") {
        if (i + 1 >= args.size()) throw UsageError(args[i] + " needs a value");
        output = args[++i];
      } else if (!args[i].empty() && args[i][0] == '-') {
        throw UsageError("batch-merge: unknown option " + vqtwin::quote(args[i]) + " (see vqtwin batch --help)");
      } else {
        inputs.push_back(args[i]);
      }
    }
    if (inputs.empty()) throw UsageError("batch-merge: give the shard summaries to merge (JSON)");
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    return 2;
  }
  try {
    std::vector<unsigned> missing;
    const Json merged = merge_summaries(inputs, missing);
    const std::string text = summary_text(merged, output.empty() ? "-" : output);
    if (output.empty() || output == "-") write_stdout([&](std::FILE* f) { std::fputs(text.c_str(), f); });
    else write_atomically(output, text);
    if (!missing.empty()) {
      std::string list;
      for (std::size_t i = 0; i < missing.size() && i < 20; ++i) list += (i ? ", " : "") + std::to_string(missing[i]);
      if (missing.size() > 20) list += ", ... (" + std::to_string(missing.size()) + " in all)";
      print_error("batch-merge: rows missing from the summaries: " + list + " (rerun their shards)");
      return 1;
    }
    return 0;
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    return 1;
  }
}

}  // namespace vqtwin_cli
