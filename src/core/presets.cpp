// The vmaf CLI's --aom_ctc and --nflx_ctc presets (libvmaf 3.2, tools/cli_parse.c): fixed lists of models
// and features, appended where the flag appears on the command line.
#include <string>
#include <vector>

#include "vqtwin/error.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin {
namespace {

// The AOM common test conditions. Each version is the previous one plus its change.
void aom_ctc(int major, RunConfig& c) {
  c.models.push_back("version=vmaf_v0.6.1:name=vmaf");
  c.models.push_back("version=vmaf_v0.6.1neg:name=vmaf_neg");
  c.features.push_back("psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5");
  c.features.push_back("ciede");
  c.features.push_back("float_ssim=enable_db=true:clip_db=true");
  c.features.push_back("float_ms_ssim=enable_db=true:clip_db=true");
  c.features.push_back("psnr_hvs");
  if (major >= 3) c.features.push_back("cambi");
  if (major >= 6) c.common_bitdepth = true;
  if (major >= 7) {
    // libvmaf replaces the first feature *named* float_ssim (whatever its options, also one given
    // before the flag), or appends when there is none.
    const std::string replacement = "float_ssim=scale=1:enable_db=true:clip_db=true";
    for (std::string& f : c.features)
      if (f.substr(0, f.find('=')) == "float_ssim") {
        f = replacement;
        return;
      }
    c.features.push_back(replacement);
  }
}

void nflx_ctc_v1(RunConfig& c) {
  c.models.push_back("version=vmaf_4k_v0.6.1:name=vmaf");
  c.models.push_back("version=vmaf_4k_v0.6.1neg:name=vmaf_neg");
  c.features.push_back("psnr=enable_chroma=true:enable_apsnr=true");
  c.features.push_back("float_ssim=enable_db=true:clip_db=true");
  c.features.push_back("cambi");
}

}  // namespace

void apply_preset(const std::string& flag, const std::string& version, RunConfig& config) {
  if (flag == "aom_ctc") {
    if (version == "proposed") throw Error("--aom_ctc proposed is deprecated (as in libvmaf); give v1.0 ... v7.0");
    static const char* const kVersions[] = {"v1.0", "v2.0", "v3.0", "v4.0", "v5.0", "v6.0", "v7.0"};
    for (int i = 0; i < 7; ++i)
      if (version == kVersions[i]) return aom_ctc(i + 1, config);
    throw Error("--aom_ctc: unknown version '" + version + "' (v1.0, v2.0, v3.0, v4.0, v5.0, v6.0, v7.0)");
  }
  if (flag == "nflx_ctc") {
    if (version == "v1.0") return nflx_ctc_v1(config);
    throw Error("--nflx_ctc: unknown version '" + version + "' (v1.0)");
  }
  throw Error("unknown preset --" + flag);
}

}  // namespace vqtwin
