#pragma once
// Untrusted text in messages. File headers, model files, option strings and paths reach error lines;
// every such value goes through printable() (or quote()), so a message stays one bounded line of
// printable text: no terminal escape sequences, no newlines, no 100 KB echoes.
#include <cstddef>
#include <string>
#include <string_view>

namespace vqtwin {

// `s` with control bytes (C0, DEL, C1) and bytes that are not valid UTF-8 written as \xNN, cut after
// about `max` bytes of output: then "... (N bytes)" follows, N the input's length. Applying it twice
// changes nothing more (the CLI applies it again to whole lines as a last guard).
std::string printable(std::string_view s, std::size_t max = 80);

// printable() between single quotes: 'value'.
std::string quote(std::string_view s, std::size_t max = 80);

// A file path in messages: printable, with a longer bound.
inline std::string printable_path(std::string_view path) { return printable(path, 240); }

}  // namespace vqtwin
