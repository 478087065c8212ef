#include "io/device_frame.hpp"

namespace vqtwin {

void unpack_surface(const unsigned char* const plane[3], const std::ptrdiff_t pitch[3], const SurfaceLayout& layout,
                    Picture& pic) {
  const PictureFormat& f = pic.format();
  for (int p = 0; p < f.num_planes(); ++p)
    for (int y = 0; y < pic.height(p); ++y) {
      if (f.bytes_per_sample() == 1) {
        auto* out = pic.row<std::uint8_t>(p, y);
        for (int x = 0; x < pic.width(p); ++x) out[x] = std::uint8_t(surface_at(plane, pitch, layout, p, x, y));
      } else {
        auto* out = pic.row<std::uint16_t>(p, y);
        for (int x = 0; x < pic.width(p); ++x) out[x] = surface_at(plane, pitch, layout, p, x, y);
      }
    }
}

}  // namespace vqtwin
