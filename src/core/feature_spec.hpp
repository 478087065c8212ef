#pragma once
// A feature's identity, declared once in its folder's schema.hpp (`kSpec`): its name, other names,
// option table, the outputs a model may request and its temporal flags. Every implementation of
// the feature (the CPU reference and each device twin) points at this one object, so a twin cannot
// differ from its CPU extractor in names or options: there is nothing to copy.
#include <span>
#include <string_view>

#include "core/options.hpp"

namespace vqtwin {

// How far a temporal feature's values reach across frames, for a run whose frames are split between
// two implementations at frame k (--backend auto, core/session.cpp): an instance that starts at frame
// k - `before` (numbering its frames from 0) writes exact values for frames k and later; an instance
// that started at frame 0 writes exact values for frames before k once it has extracted frames up to
// k + `after` - 1. Each instance's values outside its range are discarded.
struct FrameReach {
  unsigned before = 0;
  unsigned after = 0;
};

struct FeatureSpec {
  std::string_view name;
  std::span<const std::string_view> other_names;  // also accepted on the command line ("ssim")
  OptionSchema options;
  // Output base names a model may request (libvmaf's provided_features, in our short form).
  std::span<const std::string_view> provided;
  // The names it writes, for --list, where they differ from `provided` (float_moment provides
  // "float_moment" and writes float_moment_ref1st, ...); empty = `provided`.
  std::span<const std::string_view> outputs;
  // Frames must be extracted one at a time, in order (state carried from frame to frame).
  bool temporal = false;
  // libvmaf flags it VMAF_FEATURE_EXTRACTOR_TEMPORAL (float_motion, psnr; not integer motion, which is
  // PREV_REF): libvmaf runs it on its reading thread ahead of its thread pool, which puts its names
  // first in the output order (engine.cpp, step_of). Under --subsample libvmaf extracts every frame
  // for TEMPORAL and PREV_REF extractors (only the written frames are sampled), so such a feature
  // (`temporal` or `libvmaf_temporal` here) sees every frame too: its state and aggregates cover them all.
  bool libvmaf_temporal = false;
  // A temporal feature whose frames may be split between implementations (see FrameReach); null: a
  // temporal feature runs on one implementation for the whole run.
  FrameReach (*reach)(const OptionValues& options) = nullptr;
  // Its flush writes clip-level values from every frame's state (psnr's apsnr): one implementation
  // computes all of its frames.
  bool clip_aggregates = false;
};

}  // namespace vqtwin
