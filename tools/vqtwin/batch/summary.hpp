#pragma once
// What a batch reports: one entry per row (its status, frames, pooled scores), kept beside each
// finished output as a record (OUTPUT.row.json, so a later run knows the row is done and what it
// scored) and gathered into the summary (JSON, or CSV for people). Scores are the doubles pooled by
// the run, written so that reading them back gives the same bits; a summary depends only on the
// manifest and the results, never on where or when the rows ran, so shard summaries merge into
// exactly the summary of one run over the whole manifest.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "batch/manifest.hpp"
#include "batch/plan.hpp"
#include "vqtwin/output.hpp"
#include "vqtwin/results.hpp"

namespace vqtwin_cli::batch {

using Json = nlohmann::ordered_json;

// The summary entry of a row that scored (status "ok"): frames, each metric's pooled values (the
// row's --pool methods) and the aggregates.
Json scored_entry(const Job& job, const vqtwin::Results& r, const vqtwin::OutputOptions& out);
// ... of a row that failed (status "failed").
Json failed_entry(const Job& job, const std::string& error);

// The record beside a finished output: the row's key and its entry.
std::string record_path(const std::string& output);
// Writes `text` to `path` through a temporary file in the same folder and a rename (a reader never sees
// a partial file); creates missing folders. Throws vqtwin::Error.
void write_atomically(const std::string& path, const std::string& text);
// The row's entry if its output and its record exist and the record is of the same key; else null.
Json finished_entry(const Job& job);
void write_record(const Job& job, const Json& entry);

// The summary of `entries` (in row order) for manifest `m`; `shard` = "K/N" for a shard's, "" for all.
Json summary(const Manifest& m, const std::string& shard, std::vector<Json> entries);
// As text: JSON (2-space indent) or, for a path ending in .csv, CSV (a column per metric: its mean).
std::string summary_text(const Json& summary, const std::string& path);

// Shard summaries (JSON) merged: the same manifest (hash), each row once (a row in two summaries must
// have the same entry). `missing` gets the rows of the manifest no summary holds. Throws vqtwin::Error.
Json merge_summaries(const std::vector<std::string>& paths, std::vector<unsigned>& missing);

}  // namespace vqtwin_cli::batch
