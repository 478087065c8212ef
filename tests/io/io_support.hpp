#pragma once
// Helpers of the compressed-input tests: clips encoded with the ffmpeg CLI at test time (from the
// shared fixtures, never committed), a shell runner, and a frame-by-frame comparison of two sources.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "io/picture_source.hpp"

namespace vqtwin::test {

// A folder for the clips of one test binary run (removed at exit).
const std::string& clip_dir();
// Runs a shell command; false (and the command in a test failure) when it fails.
bool sh(const std::string& command);
// The shared 576x324 8-bit 4:2:0 reference, decoded by the fixtures step.
std::string sd_reference();
// `name` in clip_dir(), made by `ffmpeg -v error -y <args> <file>` the first time it is asked for.
std::string ffmpeg_clip(const std::string& name, const std::string& args);
// The first 12 frames of sd_reference() as y4m in `pix_fmt` (yuv420p, yuv420p10le, yuv444p12le, ...).
std::string reference_in(const std::string& pix_fmt);

std::unique_ptr<PictureSource> open_source(const std::string& path);
// Every frame of `a` equals `b`'s, sample for sample, and both have the same number; a failure names
// the first differing frame, plane and position.
void expect_same_frames(PictureSource& a, PictureSource& b);

}  // namespace vqtwin::test
