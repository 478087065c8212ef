#pragma once
// From manifest rows to what runs: each row's vqtwin arguments (parsed by the command line's own
// parser, so a row scores exactly as `vqtwin ARGS` would), the passes (rows that read one reference
// alike, run as one ladder) and the shards (rows sharing a reference stay in one shard).
#include <functional>
#include <string>
#include <vector>

#include "batch/manifest.hpp"
#include "run_args.hpp"

namespace vqtwin_cli::batch {

struct Job {
  const ManifestRow* row = nullptr;
  // The row's arguments with its paths as written (the batch's own run flags, --model, options, -r,
  // -d, -o): what identifies the row's result (a finished row is kept while these stay the same).
  std::vector<std::string> key;
  RunArgs args;        // parsed, paths resolved against the manifest's folder
  std::string output;  // resolved
  std::string output_as_written;
  std::string error;   // a row that cannot run (bad options, no output): its summary error
  std::string shard_key;  // the reference, resolved: rows sharing it share a shard
  std::string pass_key;   // ... and read alike (raw geometry, max_pixels): rows sharing it share a pass
};

// Flags a row (or the batch's run flags) may not give: the batch sets them.
// Returns the offending flag, or "".
std::string forbidden_flag(const std::vector<std::string>& words);

// Every row of `m` as a job. `run_words`: the run flags of the batch's command line (for every row);
// `output_pattern`: vqtwin batch -o, for rows without an output. Throws vqtwin::Error when two rows
// write the same output (a manifest error: nothing runs).
std::vector<Job> plan_jobs(const Manifest& m, const std::vector<std::string>& run_words,
                           const std::string& output_pattern);

// Indices of `jobs` grouped by key (shard_key or pass_key), groups in the order of their first row.
std::vector<std::vector<std::size_t>> group_by(const std::vector<Job>& jobs, const std::vector<std::size_t>& which,
                                               bool by_pass);

// Shard `k` of `n` (0-based): each reference's rows (a shard group) go, in manifest order, to the
// shard with the fewest rows so far (the lowest index on a tie). Deterministic: every task that reads
// the same manifest computes the same shards. Returns the job indices of shard k, in manifest order.
std::vector<std::size_t> shard_jobs(const std::vector<Job>& jobs, unsigned k, unsigned n);

// --shard TEXT: "K/N" (0 <= K < N) or "slurm" (SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN, over
// SLURM_ARRAY_TASK_STEP, of SLURM_ARRAY_TASK_COUNT), read from `getenv`.
struct Shard {
  unsigned k = 0, n = 1;
};
Shard parse_shard(const std::string& text, const std::function<const char*(const char*)>& getenv);

}  // namespace vqtwin_cli::batch
