#include "batch/manifest.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/quote.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin_cli::batch {
namespace {

using vqtwin::Error;

const char* const kColumns[] = {"reference", "distorted", "output", "model", "options"};

std::string trim(std::string s) {
  const auto blank = [](unsigned char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && blank(s.back())) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && blank(s[i])) ++i;
  return s.substr(i);
}

std::string known_columns() {
  std::string k;
  for (const char* c : kColumns) k += (k.empty() ? "" : ", ") + std::string(c);
  return k;
}

// One CSV record from `text` at `pos` (RFC 4180: fields in double quotes may hold commas, newlines and
// doubled quotes); `line` counts the newlines read.
std::vector<std::string> csv_record(const std::string& text, std::size_t& pos, unsigned& line, const std::string& where) {
  std::vector<std::string> fields(1);
  bool quoted = false, was_quoted = false;
  const unsigned start = line;
  while (pos < text.size()) {
    const char c = text[pos++];
    if (quoted) {
      if (c == '"') {
        if (pos < text.size() && text[pos] == '"') {
          fields.back() += '"';
          ++pos;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        fields.back() += c;
      }
      continue;
    }
    if (c == '\n') {
      ++line;
      break;
    }
    if (c == ',') {
      fields.emplace_back();
      was_quoted = false;
    } else if (c == '"' && trim(fields.back()).empty() && !was_quoted) {
      fields.back().clear();
      quoted = was_quoted = true;
    } else {
      fields.back() += c;
    }
  }
  if (quoted) throw Error(where + ":" + std::to_string(start) + ": a quoted field is not closed");
  for (auto& f : fields) f = trim(f);
  return fields;
}

void check_row(const ManifestRow& r, const std::string& where) {
  const std::string at = where + ":" + std::to_string(r.line) + ": ";
  if (r.reference.empty()) throw Error(at + "the row has no reference");
  if (r.distorted.empty()) throw Error(at + "the row has no distorted");
  for (const std::string* s : {&r.reference, &r.distorted, &r.output})
    if (s->find('\0') != std::string::npos) throw Error(at + "a path holds a NUL byte");
}

void parse_csv(const std::string& text, Manifest& m) {
  const std::string where = vqtwin::printable_path(m.path);
  std::size_t pos = 0;
  unsigned line = 1;
  std::vector<std::string> header;
  while (pos < text.size()) {
    const unsigned at = line;
    // Blank lines and lines starting with '#' are skipped.
    if (text[pos] == '#' ) {
      const std::size_t nl = text.find('\n', pos);
      pos = nl == std::string::npos ? text.size() : nl + 1;
      ++line;
      continue;
    }
    std::vector<std::string> fields = csv_record(text, pos, line, where);
    if (fields.size() == 1 && fields[0].empty()) continue;
    if (header.empty()) {
      for (auto& f : fields) {
        std::string name = f;
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (std::find(std::begin(kColumns), std::end(kColumns), name) == std::end(kColumns))
          throw Error(where + ":" + std::to_string(at) + ": unknown column " + vqtwin::quote(f) + " (known: " +
                      known_columns() + "; the first row names the columns)");
        if (std::find(header.begin(), header.end(), name) != header.end())
          throw Error(where + ":" + std::to_string(at) + ": column " + vqtwin::quote(name) + " appears twice");
        header.push_back(name);
      }
      for (const char* need : {"reference", "distorted"})
        if (std::find(header.begin(), header.end(), need) == header.end())
          throw Error(where + ":" + std::to_string(at) + ": no " + need + " column (the first row names the columns)");
      continue;
    }
    if (fields.size() > header.size())
      throw Error(where + ":" + std::to_string(at) + ": " + std::to_string(fields.size()) + " fields, the header has " +
                  std::to_string(header.size()));
    ManifestRow r;
    r.line = at;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const std::string& h = header[i];
      if (h == "reference") r.reference = fields[i];
      else if (h == "distorted") r.distorted = fields[i];
      else if (h == "output") r.output = fields[i];
      else if (h == "model") { if (!fields[i].empty()) r.models.push_back(fields[i]); }
      else if (h == "options") {
        try {
          r.options = split_words(fields[i]);
        } catch (const Error& e) {
          throw Error(where + ":" + std::to_string(at) + ": options: " + e.what());
        }
      }
    }
    check_row(r, where);
    if (m.rows.size() >= kMaxRows) throw Error(where + ": more than " + std::to_string(kMaxRows) + " rows");
    r.number = unsigned(m.rows.size() + 1);
    m.rows.push_back(std::move(r));
  }
  if (header.empty()) throw Error(where + ": the manifest is empty (a CSV manifest starts with a header row)");
}

std::vector<std::string> strings_of(const nlohmann::json& v, const std::string& at, const char* key, bool split) {
  if (v.is_string()) return split ? split_words(v.get<std::string>()) : std::vector<std::string>{v.get<std::string>()};
  if (v.is_array()) {
    std::vector<std::string> out;
    for (const auto& e : v) {
      if (!e.is_string()) throw Error(at + std::string(key) + ": a list of strings was expected");
      out.push_back(e.get<std::string>());
    }
    return out;
  }
  if (v.is_null()) return {};
  throw Error(at + std::string(key) + ": a string or a list of strings was expected");
}

void parse_jsonl(const std::string& text, Manifest& m) {
  const std::string where = vqtwin::printable_path(m.path);
  std::size_t pos = 0;
  unsigned line = 0;
  while (pos < text.size()) {
    ++line;
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string content = trim(text.substr(pos, nl - pos));
    pos = nl + 1;
    if (content.empty()) continue;
    const std::string at = where + ":" + std::to_string(line) + ": ";
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(content);
    } catch (const nlohmann::json::exception&) {
      throw Error(at + "not a JSON object (JSON Lines: one object per line)");
    }
    if (!j.is_object()) throw Error(at + "not a JSON object (JSON Lines: one object per line)");
    ManifestRow r;
    r.line = line;
    for (const auto& [key, v] : j.items()) {
      if (std::find(std::begin(kColumns), std::end(kColumns), key) == std::end(kColumns))
        throw Error(at + "unknown key " + vqtwin::quote(key) + " (known: " + known_columns() + ")");
      try {
        if (key == "model") r.models = strings_of(v, at, "model", false);
        else if (key == "options") r.options = strings_of(v, at, "options", true);
        else if (!v.is_string()) throw Error(at + key + ": a string was expected");
        else if (key == "reference") r.reference = v.get<std::string>();
        else if (key == "distorted") r.distorted = v.get<std::string>();
        else r.output = v.get<std::string>();
      } catch (const Error& e) {
        const std::string msg = e.what();
        throw Error(msg.rfind(at, 0) == 0 ? msg : at + key + ": " + msg);
      }
    }
    check_row(r, where);
    if (m.rows.size() >= kMaxRows) throw Error(where + ": more than " + std::to_string(kMaxRows) + " rows");
    r.number = unsigned(m.rows.size() + 1);
    m.rows.push_back(std::move(r));
  }
}

}  // namespace

std::string fnv1a64(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      const std::size_t close = text.find('\'', i + 1);
      if (close == std::string::npos) throw Error("a ' quote is not closed in " + vqtwin::quote(text));
      word += text.substr(i + 1, close - i - 1);
      i = close;
    } else if (c == '"') {
      std::size_t j = i + 1;
      for (;; ++j) {
        if (j >= text.size()) throw Error("a \" quote is not closed in " + vqtwin::quote(text));
        if (text[j] == '"') break;
        if (text[j] == '\\' && j + 1 < text.size() && (text[j + 1] == '"' || text[j + 1] == '\\')) ++j;
        word += text[j];
      }
      i = j;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

Manifest parse_manifest(const std::string& text, const std::string& path, bool jsonl) {
  Manifest m;
  m.path = path;
  const std::filesystem::path p(path);
  m.name = p.filename().string();
  m.folder = p.parent_path().string();
  m.hash = fnv1a64(text);
  std::string body = text;
  if (body.rfind("\xEF\xBB\xBF", 0) == 0) body.erase(0, 3);  // a byte-order mark (spreadsheets write one)
  if (jsonl) parse_jsonl(body, m);
  else parse_csv(body, m);
  if (m.rows.empty()) throw Error(vqtwin::printable_path(path) + ": the manifest has no rows");
  return m;
}

Manifest read_manifest(const std::string& path) {
  const std::string name = vqtwin::printable_path(path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(name + ": cannot read (" + std::strerror(errno) + ")");
  struct stat st{};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw Error(name + ": is a folder, not a manifest");
  }
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int e = errno;
      ::close(fd);
      throw Error(name + ": cannot read (" + std::strerror(e) + ")");
    }
    if (got == 0) break;
    text.append(buf, std::size_t(got));
    if (text.size() > kMaxBytes) {
      ::close(fd);
      throw Error(name + ": larger than " + std::to_string(kMaxBytes >> 20) + " MiB; split it");
    }
  }
  ::close(fd);
  const std::string ext = std::filesystem::path(path).extension().string();
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) first = text.find_first_not_of(" \t\r\n", 3);
  const bool jsonl = ext == ".jsonl" || ext == ".ndjson" || (ext != ".csv" && first != std::string::npos && text[first] == '{');
  return parse_manifest(text, path, jsonl);
}

}  // namespace vqtwin_cli::batch
