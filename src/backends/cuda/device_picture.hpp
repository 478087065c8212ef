#pragma once
// A picture as the device sees it: the raw samples of each plane as stored (uint8 for 8 bits,
// uint16 above), with the host picture's strides. Passed to kernels by value.
#include <cstddef>

#include "core/hd.hpp"

namespace vqtwin::cuda {

struct DevicePlane {
  const void* data = nullptr;
  int width = 0;
  int height = 0;
  std::ptrdiff_t stride = 0;  // in samples

  template <class T>
  VQTWIN_HD const T* row(int y) const {
    return static_cast<const T*>(data) + y * stride;
  }
};

struct DevicePicture {
  DevicePlane plane[3];
  int planes = 0;
  int bitdepth = 8;
};

}  // namespace vqtwin::cuda
