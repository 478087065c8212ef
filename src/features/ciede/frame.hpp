#pragma once
// ciede's frame: the sum, in raster order, of the per-pixel CIEDE2000 differences of a picture pair, by the
// fast path (the memo of conversions and the batch kernels) and by the scalar reference (math.hpp per
// pixel, the C library's functions). Both give the same double bit for bit (tests/cpu_check/ciede_frames.cpp
// holds every build to the reference on generated pictures of every depth and chroma format).
#include "features/ciede/batch.hpp"
#include "features/ciede/chroma_map.hpp"
#include "features/ciede/lab_cache.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::ciede {

// The fast path. `per_pixel`, when given, receives every pixel's difference in raster order (+0 where the
// colours are equal): the tests compare pixels, not only sums.
double difference_sum(const BatchKernels& kernels, LabCache& cache, const ChromaMap& map, const Picture& ref,
                      const Picture& dist, float* per_pixel = nullptr);

// The scalar reference: math.hpp's ciede2000(to_lab(...), to_lab(...)) for every pixel, added in raster order.
double reference_difference_sum(const ChromaMap& map, const Picture& ref, const Picture& dist,
                                float* per_pixel = nullptr);

// Whether $VQTWIN_CIEDE_PATH is "scalar": the CPU extractor then runs the scalar reference (for the speed
// comparison, bench/ciede_speed.sh).
bool scalar_path_selected();

}  // namespace vqtwin::ciede
