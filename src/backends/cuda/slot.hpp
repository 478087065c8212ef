#pragma once
// The CUDA frame slot: a (reference, distorted) pair in one pinned host block, its copy on the
// device (same layout; uploaded in one transfer, or plane by plane when only some planes are read),
// and the stream the frame's work is ordered on.
#include <memory>

#include "backends/cuda/device_picture.hpp"
#include "backends/cuda/memory.hpp"
#include "backends/device.hpp"

namespace vqtwin::cuda {

class CudaSlot final : public FrameSlot {
 public:
  CudaSlot(const PictureFormat& format, int device, unsigned index);
  unsigned index() const override { return index_; }
  Picture& ref() override { return ref_; }
  Picture& dist() override { return dist_; }
  void upload() override;
  void wait() override;
  // The planes upload() copies (bit p = plane p; DevicePipeline::set_uploaded_planes).
  void set_uploaded_planes(unsigned mask) { planes_ = mask; }

  int device() const { return device_; }
  cudaStream_t stream() const { return stream_.get(); }
  const DevicePicture& device_ref() const { return device_ref_; }
  const DevicePicture& device_dist() const { return device_dist_; }

 private:
  int device_;
  unsigned index_;
  std::size_t picture_bytes_;
  PinnedArray<unsigned char> host_;  // ref then dist, each picture_bytes_ (a multiple of 64)
  DeviceArray<unsigned char> device_copy_;  // the same block on the device
  unsigned planes_ = kAllPlanes;
  Stream stream_;
  Picture ref_, dist_;
  DevicePicture device_ref_, device_dist_;
};

// The slot a twin was handed, as the CUDA slot it is (an error if another backend's).
CudaSlot& cuda_slot(FrameSlot& slot);

// Sets `device` current for the calling thread (each worker thread calls it before device work).
void use_device(int device);

}  // namespace vqtwin::cuda
