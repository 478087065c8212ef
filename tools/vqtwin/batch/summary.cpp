#include "batch/summary.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/quote.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin_cli::batch {
namespace {

namespace fs = std::filesystem;
using vqtwin::Error;

// A pooled value: a JSON number (written so that it reads back as the same double), or for the values
// JSON has no number for, "nan", "inf", "-inf".
Json number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

std::vector<vqtwin::Pooling> pools_of(const vqtwin::OutputOptions& o) {
  if (!o.pools.empty()) return o.pools;
  return {vqtwin::Pooling{vqtwin::PoolMethod::kMin}, vqtwin::Pooling{vqtwin::PoolMethod::kMax},
          vqtwin::Pooling{vqtwin::PoolMethod::kMean}, vqtwin::Pooling{vqtwin::PoolMethod::kHarmonicMean}};
}

Json row_head(const Job& job) {
  Json e = Json::object();
  e["row"] = job.row->number;
  e["reference"] = job.row->reference;
  e["distorted"] = job.row->distorted;
  e["output"] = job.output_as_written.empty() ? Json(nullptr) : Json(job.output_as_written);
  return e;
}

[[noreturn]] void io_error(const std::string& path, const std::string& what, int err) {
  throw Error(vqtwin::printable_path(path) + ": " + what + " (" + std::strerror(err) + ")");
}

std::string read_text(const std::string& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) io_error(path, "cannot read", errno ? errno : ENOENT);
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, std::size_t(in.gcount()));
    if (text.size() > limit) throw Error(vqtwin::printable_path(path) + ": larger than " +
                                         std::to_string(limit >> 20) + " MiB");
  }
  return text;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_value(const Json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return csv_field(v.get<std::string>());
  if (v.is_number_float()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v.get<double>());
    return buf;
  }
  return v.dump();
}

}  // namespace

Json scored_entry(const Job& job, const vqtwin::Results& r, const vqtwin::OutputOptions& out) {
  Json e = row_head(job);
  e["status"] = "ok";
  e["frames"] = r.frames ? r.frames : r.frame_count();
  Json pooled = Json::object();
  // The model scores (the headline) first, then every feature in output order.
  std::vector<std::string> names = r.scores;
  for (const std::string& name : r.names())
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  for (const std::string& name : names) {
    if (!r.has(name)) continue;
    Json p = Json::object();
    for (const vqtwin::Pooling& how : pools_of(out))
      if (const auto v = r.pooled(name, how, out.subsample)) p[how.name()] = number(*v);
    pooled[name] = std::move(p);
  }
  e["pooled"] = std::move(pooled);
  if (!r.aggregates().empty()) {
    Json a = Json::object();
    for (const auto& [name, v] : r.aggregates()) a[name] = number(v);
    e["aggregates"] = std::move(a);
  }
  return e;
}

Json failed_entry(const Job& job, const std::string& error) {
  Json e = row_head(job);
  e["status"] = "failed";
  e["error"] = vqtwin::printable(error, 2000);
  return e;
}

std::string record_path(const std::string& output) { return output + ".row.json"; }

void write_atomically(const std::string& path, const std::string& text) {
  static std::atomic<unsigned> counter{0};
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) throw Error(vqtwin::printable_path(target.parent_path().string()) + ": cannot create the folder (" +
                      ec.message() + ")");
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) io_error(path, "cannot write", errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = n < 0 ? errno : EIO;
      ::close(fd);
      ::unlink(tmp.c_str());
      io_error(path, "write failed", e);
    }
    done += std::size_t(n);
  }
  // On disk before the rename: after a crash the file is whole or absent, never empty.
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
    const int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    io_error(path, "write failed", e);
  }
  if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    io_error(path, "write failed", e);
  }
}

Json finished_entry(const Job& job) {
  std::error_code ec;
  if (job.output.empty() || !fs::is_regular_file(job.output, ec) || !fs::is_regular_file(record_path(job.output), ec))
    return nullptr;
  Json record;
  try {
    record = Json::parse(read_text(record_path(job.output), std::size_t(64) << 20));
  } catch (const std::exception&) {
    return nullptr;  // unreadable or damaged: the row runs again
  }
  if (!record.is_object() || !record.contains("key") || !record.contains("entry") || record["key"] != Json(job.key))
    return nullptr;
  Json entry = record["entry"];
  if (!entry.is_object() || entry.value("status", "") != "ok") return nullptr;
  entry["row"] = job.row->number;  // rows added before it move it; its key is what it is
  return entry;
}

void write_record(const Job& job, const Json& entry) {
  Json record = Json::object();
  record["key"] = job.key;
  record["entry"] = entry;
  write_atomically(record_path(job.output), record.dump(2) + "\n");
}

Json summary(const Manifest& m, const std::string& shard, std::vector<Json> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const Json& a, const Json& b) { return a["row"].get<unsigned>() < b["row"].get<unsigned>(); });
  Json s = Json::object();
  s["manifest"] = m.name;
  s["manifest_hash"] = m.hash;
  s["rows"] = m.rows.size();
  if (!shard.empty()) s["shard"] = shard;
  s["results"] = std::move(entries);
  return s;
}

std::string summary_text(const Json& s, const std::string& path) {
  if (fs::path(path).extension() != ".csv") return s.dump(2) + "\n";
  // One column per metric (its pooled mean) and aggregate, in the order they first appear.
  std::vector<std::string> metrics, aggregates;
  for (const Json& e : s["results"]) {
    if (e.contains("pooled"))
      for (const auto& [name, v] : e["pooled"].items())
        if (std::find(metrics.begin(), metrics.end(), name) == metrics.end()) metrics.push_back(name);
    if (e.contains("aggregates"))
      for (const auto& [name, v] : e["aggregates"].items())
        if (std::find(aggregates.begin(), aggregates.end(), name) == aggregates.end()) aggregates.push_back(name);
  }
  std::ostringstream out;
  out << "row,status,reference,distorted,output,frames,error";
  for (const auto& m : metrics) out << "," << csv_field(m);
  for (const auto& a : aggregates) out << "," << csv_field(a);
  out << "\n";
  for (const Json& e : s["results"]) {
    out << e["row"].dump() << "," << csv_value(e["status"]) << "," << csv_value(e["reference"]) << ","
        << csv_value(e["distorted"]) << "," << csv_value(e["output"]) << ","
        << (e.contains("frames") ? e["frames"].dump() : "") << "," << (e.contains("error") ? csv_value(e["error"]) : "");
    for (const auto& m : metrics) {
      out << ",";
      if (e.contains("pooled") && e["pooled"].contains(m) && e["pooled"][m].contains("mean"))
        out << csv_value(e["pooled"][m]["mean"]);
    }
    for (const auto& a : aggregates) {
      out << ",";
      if (e.contains("aggregates") && e["aggregates"].contains(a)) out << csv_value(e["aggregates"][a]);
    }
    out << "\n";
  }
  return out.str();
}

Json merge_summaries(const std::vector<std::string>& paths, std::vector<unsigned>& missing) {
  if (paths.empty()) throw Error("batch-merge: give the shard summaries to merge (JSON)");
  Json merged = Json::object();
  std::map<unsigned, std::pair<Json, std::string>> rows;  // row -> entry, the summary it came from
  for (const std::string& path : paths) {
    const std::string name = vqtwin::printable_path(path);
    Json s;
    try {
      s = Json::parse(read_text(path, std::size_t(1) << 30));
    } catch (const Json::exception&) {
      throw Error(name + ": not a JSON summary of vqtwin batch (batch-merge reads the JSON summaries)");
    }
    if (!s.is_object() || !s.contains("manifest_hash") || !s.contains("rows") || !s.contains("results") ||
        !s["results"].is_array() || !s["rows"].is_number_unsigned() || !s["manifest_hash"].is_string())
      throw Error(name + ": not a JSON summary of vqtwin batch");
    if (merged.empty()) {
      merged["manifest"] = s.value("manifest", "");
      merged["manifest_hash"] = s["manifest_hash"];
      merged["rows"] = s["rows"];
    } else if (s["manifest_hash"] != merged["manifest_hash"] || s["rows"] != merged["rows"]) {
      throw Error(name + ": a summary of another manifest (" + s.value("manifest", std::string("?")) + ", hash " +
                  s["manifest_hash"].get<std::string>() + "; the first summary's is " +
                  merged["manifest_hash"].get<std::string>() + ")");
    }
    for (const Json& e : s["results"]) {
      if (!e.is_object() || !e.contains("row") || !e["row"].is_number_unsigned())
        throw Error(name + ": a result without its row number");
      const unsigned row = e["row"].get<unsigned>();
      if (row < 1 || row > s["rows"].get<std::size_t>())
        throw Error(name + ": row " + std::to_string(row) + " is not in the manifest");
      const auto [at, fresh] = rows.emplace(row, std::make_pair(e, path));
      if (!fresh && at->second.first != e)
        throw Error("row " + std::to_string(row) + " differs between " + vqtwin::printable_path(at->second.second) +
                    " and " + name);
    }
  }
  Json results = Json::array();
  for (auto& [row, e] : rows) results.push_back(std::move(e.first));
  const std::size_t total = merged["rows"].get<std::size_t>();
  missing.clear();
  for (unsigned r = 1; r <= total; ++r)
    if (!rows.count(r)) missing.push_back(r);
  merged["results"] = std::move(results);
  return merged;
}

}  // namespace vqtwin_cli::batch
