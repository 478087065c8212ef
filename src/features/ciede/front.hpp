#pragma once
// ciede's host side shared by the CPU extractor (cpu.cpp) and its twin (cuda.cu): the formats it accepts
// (as libvmaf: the standard depths, colour pictures, sizes whose chroma reads stay inside libvmaf's planes)
// and the scalar reference for one pixel of a picture pair.
#include "core/format_checks.hpp"
#include "features/ciede/chroma_map.hpp"
#include "features/ciede/math.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::ciede {

// The chroma map of a format ciede computes; throws vqtwin::Error for one it refuses.
inline ChromaMap accept(const PictureFormat& f) {
  require_standard_bitdepth("ciede", f.bitdepth);
  if (f.chroma == ChromaFormat::k400) throw Error("ciede: 4:0:0 pictures have no colour (libvmaf refuses them)");
  return ChromaMap(f);  // throws where libvmaf would read outside its chroma planes
}

// math.hpp's difference of pixel (x, y) of the pair, the samples as libvmaf pairs them.
template <class T>
float pixel_difference(const ChromaMap& map, const Picture& ref, const Picture& dist, int x, int y) {
  const ChromaRow cr = map.row(y);
  const unsigned bpc = unsigned(ref.format().bitdepth);
  const Lab a = to_lab(ref.row<T>(0, y)[x], map.sample<T>(ref, 1, cr, x), map.sample<T>(ref, 2, cr, x), bpc);
  const Lab b = to_lab(dist.row<T>(0, y)[x], map.sample<T>(dist, 1, cr, x), map.sample<T>(dist, 2, cr, x), bpc);
  return ciede2000(a, b);
}

}  // namespace vqtwin::ciede
