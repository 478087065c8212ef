#pragma once
// psnr_hvs's tables and per-plane host math (libvmaf's third_party/xiph/psnr_hvs.c, PSNR-HVS-M of
// Ponomarenko et al. as Daala computes it), shared by the CPU reference and the twins; the per-block
// cells are cells.hpp's.
//
// A plane is cut into 8x8 blocks at steps of 7 (x = 0, 7, 14, ... while x < w - 7; the same for y).
// Per block: the integer Daala 8x8 DCT of both blocks, a masking threshold from the AC energy weighted by
// the squared, scaled CSF and by the ratio of the quadrant variances to the block variance, and 64 terms
// (max(|DCT_ref - DCT_dist| - threshold / mask, 0) * csf)^2 (the DC term unmasked). All terms of all blocks
// are added into one fp32 total, block by block in raster order, term by term in row order; the plane's
// score is total / count / (2^bpc - 1)^2 (fp32), written as 10 * -log10(score).
#include <cmath>
#include <cstdint>

#include "features/psnr_hvs/cells.hpp"

namespace vqtwin::psnr_hvs {

// Daala's normalised inverse quantisation matrices for the 8x8 DCT (as float, rounded from these decimals).
inline constexpr float kCsfY[64] = {
    1.6193873005f,  2.2901594831f,  2.08509755623f,  1.48366094411f,  1.00227514334f,  0.678296995242f, 0.466224900598f, 0.3265091542f,
    2.2901594831f,  1.94321815382f, 2.04793073064f,  1.68731108984f,  1.2305666963f,   0.868920337363f, 0.61280991668f,  0.436405793551f,
    2.08509755623f, 2.04793073064f, 1.34329019223f,  1.09205635862f,  0.875748795257f, 0.670882927016f, 0.501731932449f, 0.372504254596f,
    1.48366094411f, 1.68731108984f, 1.09205635862f,  0.772819797575f, 0.605636379554f, 0.48309405692f,  0.380429446972f, 0.295774038565f,
    1.00227514334f, 1.2305666963f,  0.875748795257f, 0.605636379554f, 0.448996256676f, 0.352889268808f, 0.283006984131f, 0.226951348204f,
    0.678296995242f, 0.868920337363f, 0.670882927016f, 0.48309405692f, 0.352889268808f, 0.27032073436f,  0.215017739696f, 0.17408067321f,
    0.466224900598f, 0.61280991668f, 0.501731932449f, 0.380429446972f, 0.283006984131f, 0.215017739696f, 0.168869545842f, 0.136153931001f,
    0.3265091542f,  0.436405793551f, 0.372504254596f, 0.295774038565f, 0.226951348204f, 0.17408067321f,  0.136153931001f, 0.109083846276f};

inline constexpr float kCsfCb[64] = {
    1.91113096927f,  2.46074210438f,  1.18284184739f,  1.14982565193f,  1.05017074788f,  0.898018824055f, 0.74725392039f,  0.615105596242f,
    2.46074210438f,  1.58529308355f,  1.21363250036f,  1.38190029285f,  1.33100189972f,  1.17428548929f,  0.996404342439f, 0.830890433625f,
    1.18284184739f,  1.21363250036f,  0.978712413627f, 1.02624506078f,  1.03145147362f,  0.960060382087f, 0.849823426169f, 0.731221236837f,
    1.14982565193f,  1.38190029285f,  1.02624506078f,  0.861317501629f, 0.801821139099f, 0.751437590932f, 0.685398513368f, 0.608694761374f,
    1.05017074788f,  1.33100189972f,  1.03145147362f,  0.801821139099f, 0.676555426187f, 0.605503172737f, 0.55002013668f,  0.495804539034f,
    0.898018824055f, 1.17428548929f,  0.960060382087f, 0.751437590932f, 0.605503172737f, 0.514674450957f, 0.454353482512f, 0.407050308965f,
    0.74725392039f,  0.996404342439f, 0.849823426169f, 0.685398513368f, 0.55002013668f,  0.454353482512f, 0.389234902883f, 0.342353999733f,
    0.615105596242f, 0.830890433625f, 0.731221236837f, 0.608694761374f, 0.495804539034f, 0.407050308965f, 0.342353999733f, 0.295530605237f};

inline constexpr float kCsfCr[64] = {
    2.03871978502f,  2.62502345193f,  1.26180942886f,  1.11019789803f,  1.01397751469f,  0.867069376285f, 0.721500455585f, 0.593906509971f,
    2.62502345193f,  1.69112867013f,  1.17180569821f,  1.3342742857f,   1.28513006198f,  1.13381474809f,  0.962064122248f, 0.802254508198f,
    1.26180942886f,  1.17180569821f,  0.944981930573f, 0.990876405848f, 0.995903384143f, 0.926972725286f, 0.820534991409f, 0.706020324706f,
    1.11019789803f,  1.3342742857f,   0.990876405848f, 0.831632933426f, 0.77418706195f,  0.725539939514f, 0.661776842059f, 0.587716619023f,
    1.01397751469f,  1.28513006198f,  0.995903384143f, 0.77418706195f,  0.653238524286f, 0.584635025748f, 0.531064164893f, 0.478717061273f,
    0.867069376285f, 1.13381474809f,  0.926972725286f, 0.725539939514f, 0.584635025748f, 0.496936637883f, 0.438694579826f, 0.393021669543f,
    0.721500455585f, 0.962064122248f, 0.820534991409f, 0.661776842059f, 0.531064164893f, 0.438694579826f, 0.375820256136f, 0.330555063063f,
    0.593906509971f, 0.802254508198f, 0.706020324706f, 0.587716619023f, 0.478717061273f, 0.393021669543f, 0.330555063063f, 0.285345396658f};

// The CSF of plane p: luma, then libvmaf uses the 4:2:0 Cb and Cr tables for every chroma format.
inline const float* csf_of(int plane) { return plane == 0 ? kCsfY : plane == 1 ? kCsfCb : kCsfCr; }

// The masking table: (csf * 0.3885746225901003)^2, the products in double, rounded to float once.
inline Tables make_tables(const float* csf) {
  Tables t{};
  for (int k = 0; k < 64; ++k) {
    t.csf[k] = csf[k];
    t.mask[k] = float((double(csf[k]) * 0.3885746225901003) * (double(csf[k]) * 0.3885746225901003));
  }
  return t;
}

// The plane's score from the fp32 total of its terms and their count, as libvmaf divides.
inline double plane_score(float total, int count, int bitdepth) {
  float r = total / float(count);
  const std::int32_t max = (std::int32_t(1) << bitdepth) - 1;
  r /= float(max * max);
  return r;
}

// 10 * (-1 * log10(score)).
inline double to_db(double score) { return 10 * (-1 * std::log10(score)); }

// The frame's combined score from the three plane scores.
inline double combined_score(double y, double cb, double cr) { return y * .8 + .1 * (cb + cr); }

}  // namespace vqtwin::psnr_hvs

