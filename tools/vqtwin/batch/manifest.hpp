#pragma once
// A batch manifest: one row per (reference, distorted) pair, as CSV (a header row naming the columns)
// or JSON Lines (one object per line). Columns / keys:
//   reference, distorted   the inputs (required); relative paths are relative to the manifest's folder
//   output                 the row's output file (same); may use {dist_stem} {dist_name} {ref_stem} {row};
//                          empty: vqtwin batch -o PATTERN
//   model                  a --model text (JSON: a string or a list of them)
//   options                more vqtwin flags for this row, e.g. "--feature psnr --subsample 2" (split as a
//                          shell splits words, with '...' and "..." quoting; JSON: a string or a list of words)
#include <cstdint>
#include <string>
#include <vector>

namespace vqtwin_cli::batch {

struct ManifestRow {
  unsigned number = 0;  // 1-based, in the manifest's order (the summary's "row")
  unsigned line = 0;    // where it starts in the file (for messages)
  std::string reference, distorted, output;
  std::vector<std::string> models;
  std::vector<std::string> options;
};

struct Manifest {
  std::string path;  // as given
  std::string name;  // its file name (summaries name it so, wherever it lies)
  std::string folder;  // what relative paths in it are relative to
  std::string hash;  // of its bytes: shard summaries of one manifest merge, others do not
  std::vector<ManifestRow> rows;
};

// Reads `path`: JSON Lines when it is named .jsonl/.ndjson or starts with '{', else CSV. Throws
// vqtwin::Error naming the file and line for anything malformed (unknown columns, a missing reference or
// distorted, unclosed quotes, a row with too many fields, more than kMaxRows rows, over kMaxBytes).
Manifest read_manifest(const std::string& path);
inline constexpr std::size_t kMaxBytes = std::size_t(256) << 20;
inline constexpr std::size_t kMaxRows = 10'000'000;

// Parses manifest text (as read_manifest, without the file).
Manifest parse_manifest(const std::string& text, const std::string& path, bool jsonl);

// Words as a POSIX shell splits them (no expansion): blanks separate, '...' is literal, "..." and a
// backslash escape \" \\ (and, outside quotes, any character). Throws vqtwin::Error for an unclosed quote.
std::vector<std::string> split_words(const std::string& text);

// FNV-1a, 64 bits, as 16 hex digits.
std::string fnv1a64(const std::string& bytes);

}  // namespace vqtwin_cli::batch
