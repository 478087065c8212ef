#include "batch/plan.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <unordered_map>

#include "cli_common.hpp"
#include "core/quote.hpp"
#include "output_pattern.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin_cli::batch {
namespace {

namespace fs = std::filesystem;
using vqtwin::Error;

std::string resolve(const std::string& folder, const std::string& path) {
  if (path.empty() || folder.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(folder) / path).string();
}

// The same file however it is written (./a.y4m, a.y4m, dir/../a.y4m); symbolic links are followed
// where the file exists.
std::string identity(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) p = fs::absolute(path, ec).lexically_normal();
  return p.string();
}

vqtwin::OutputFormat format_of(const std::string& output) {
  std::string ext = fs::path(output).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".json") return vqtwin::OutputFormat::kJson;
  if (ext == ".csv") return vqtwin::OutputFormat::kCsv;
  if (ext == ".sub" || ext == ".srt") return vqtwin::OutputFormat::kSub;
  return vqtwin::OutputFormat::kXml;
}

}  // namespace

std::string forbidden_flag(const std::vector<std::string>& words) {
  static const char* const kLong[] = {"--reference", "--distorted", "--output", "--report", "--threads", "--gpu", "--quiet",
                                      "--list", "--list-models", "--version", "--help"};
  static const char* const kShort[] = {"-r", "-d", "-o", "-q", "-v"};
  for (const std::string& w : words) {
    for (const char* f : kLong)
      if (w == f || w.rfind(std::string(f) + "=", 0) == 0) return f;
    for (const char* f : kShort)
      if (w.rfind(f, 0) == 0 && (w.size() == 2 || w[2] != '-')) return f;
  }
  return "";
}

std::vector<Job> plan_jobs(const Manifest& m, const std::vector<std::string>& run_words,
                           const std::string& output_pattern) {
  std::vector<Job> jobs(m.rows.size());
  std::map<std::string, unsigned> outputs;  // resolved output -> row
  for (std::size_t i = 0; i < m.rows.size(); ++i) {
    const ManifestRow& r = m.rows[i];
    Job& j = jobs[i];
    j.row = &r;
    const std::string reference = resolve(m.folder, r.reference);
    j.shard_key = identity(reference);
    j.pass_key = j.shard_key;
    std::vector<std::string> row_words;
    for (const std::string& model : r.models) {
      row_words.push_back("--model");
      row_words.push_back(model);
    }
    row_words.insert(row_words.end(), r.options.begin(), r.options.end());
    j.key = run_words;
    j.key.insert(j.key.end(), row_words.begin(), row_words.end());
    try {
      const std::string pattern = r.output.empty() ? output_pattern : r.output;
      if (pattern.empty())
        throw Error("no output: give the row an output, or vqtwin batch -o PATTERN (e.g. 'out/{dist_stem}.json')");
      j.output_as_written = expand_pattern(pattern,
                                           {{"dist_stem", path_stem(r.distorted)},
                                            {"dist_name", path_name(r.distorted)},
                                            {"ref_stem", path_stem(r.reference)},
                                            {"row", std::to_string(r.number)}},
                                           r.output.empty() ? "vqtwin batch -o" : "output");
      if (j.output_as_written == "-") throw Error("output: a batch row writes a file, not standard output");
      j.output = resolve(m.folder, j.output_as_written);
    } catch (const Error& e) {
      j.error = e.what();
      continue;
    }
    j.key.insert(j.key.end(), {"-r", r.reference, "-d", r.distorted, "-o", j.output_as_written});
    const auto [at, fresh] = outputs.emplace(identity(j.output), r.number);
    if (!fresh)
      throw Error(vqtwin::printable_path(m.path) + ": rows " + std::to_string(at->second) + " and " +
                  std::to_string(r.number) + " write the same output " + vqtwin::quote(j.output_as_written, 240));
    if (const std::string f = forbidden_flag(row_words); !f.empty()) {
      j.error = "options: " + f + " is set by vqtwin batch, not per row (the reference, distorted and output are "
                "columns; --threads and --gpu are the batch's)";
      continue;
    }
    std::vector<std::string> words = run_words;
    words.insert(words.end(), row_words.begin(), row_words.end());
    words.insert(words.end(), {"-r", reference, "-d", resolve(m.folder, r.distorted), "-o", j.output});
    try {
      j.args = parse_run_args(words);
      if (j.args.action != RunArgs::Action::kRun) throw Error("options: only run flags belong in a row");
      if (j.args.distorted.size() != 1) throw Error("options: one distorted input per row");
      if (!j.args.format_given) j.args.out.format = format_of(j.output);
      const vqtwin::RunConfig& c = j.args.run;
      j.pass_key += "\n" + std::to_string(c.width) + "x" + std::to_string(c.height) + ":" + c.pixel_format + ":" +
                    std::to_string(c.bitdepth) + ":" + std::to_string(c.max_pixels);
    } catch (const Error& e) {
      j.error = e.what();
    }
  }
  return jobs;
}

std::vector<std::vector<std::size_t>> group_by(const std::vector<Job>& jobs, const std::vector<std::size_t>& which,
                                               bool by_pass) {
  std::vector<std::vector<std::size_t>> groups;
  std::unordered_map<std::string, std::size_t> index;
  for (const std::size_t i : which) {
    const std::string& key = by_pass ? jobs[i].pass_key : jobs[i].shard_key;
    const auto [at, fresh] = index.emplace(key, groups.size());
    if (fresh) groups.emplace_back();
    groups[at->second].push_back(i);
  }
  return groups;
}

std::vector<std::size_t> shard_jobs(const std::vector<Job>& jobs, unsigned k, unsigned n) {
  std::vector<std::size_t> all(jobs.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::vector<std::size_t> load(n, 0), mine;
  for (const auto& g : group_by(jobs, all, false)) {
    const std::size_t to = std::size_t(std::min_element(load.begin(), load.end()) - load.begin());
    load[to] += g.size();
    if (to == k) mine.insert(mine.end(), g.begin(), g.end());
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

Shard parse_shard(const std::string& text, const std::function<const char*(const char*)>& getenv) {
  auto number = [](const std::string& s, const std::string& what) {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
      throw Error(what + " must be a whole number, not " + vqtwin::quote(s));
    return unsigned(std::stoul(s));
  };
  Shard s;
  if (text == "slurm") {
    const char* id = getenv("SLURM_ARRAY_TASK_ID");
    const char* count = getenv("SLURM_ARRAY_TASK_COUNT");
    if (!id || !count)
      throw Error("--shard slurm: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set (not a task of a Slurm "
                  "job array; give --shard K/N)");
    const char* min = getenv("SLURM_ARRAY_TASK_MIN");
    const char* step = getenv("SLURM_ARRAY_TASK_STEP");
    const unsigned i = number(id, "SLURM_ARRAY_TASK_ID"), lo = min ? number(min, "SLURM_ARRAY_TASK_MIN") : 0,
                   st = step ? number(step, "SLURM_ARRAY_TASK_STEP") : 1;
    s.n = number(count, "SLURM_ARRAY_TASK_COUNT");
    if (i < lo || st == 0 || (i - lo) % st)
      throw Error("--shard slurm: task " + std::to_string(i) + " is not in the array (min " + std::to_string(lo) +
                  ", step " + std::to_string(st) + ")");
    s.k = (i - lo) / st;
  } else {
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos) throw Error("--shard must be K/N (0 <= K < N) or slurm, not " + vqtwin::quote(text));
    s.k = number(text.substr(0, slash), "--shard's K");
    s.n = number(text.substr(slash + 1), "--shard's N");
  }
  if (s.n == 0 || s.k >= s.n)
    throw Error("--shard: shard " + std::to_string(s.k) + " of " + std::to_string(s.n) +
                " does not exist (K counts from 0 to N-1)");
  return s;
}

}  // namespace vqtwin_cli::batch
