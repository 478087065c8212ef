#pragma once
// A feature's identity, declared once in its folder's schema.hpp (`kSpec`): its name, other names,
// option table, the outputs a model may request and its temporal flags. Every implementation of
// the feature (the CPU reference and each device twin) points at this one object, so a twin cannot
// differ from its CPU extractor in names or options: there is nothing to copy.
#include <span>
#include <string_view>

#include "core/options.hpp"

namespace vqtwin {

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
};

}  // namespace vqtwin
