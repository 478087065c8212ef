// The CUDA backend's frame pipeline: one slot per worker, so reading frame n+2, uploading n+1 and
// computing n overlap. Device and pinned memory are allocated here, once, and reused every frame.
#include <string>
#include <vector>

#include "backends/cuda/slot.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace cuda {
namespace {

DevicePicture device_view(const Picture& host, const unsigned char* host_base, const unsigned char* device_base) {
  DevicePicture d;
  d.planes = host.format().num_planes();
  d.bitdepth = host.format().bitdepth;
  for (int p = 0; p < d.planes; ++p) {
    const auto offset = static_cast<const unsigned char*>(host.data(p)) - host_base;
    d.plane[p] = {device_base + offset, host.width(p), host.height(p), host.stride(p)};
  }
  return d;
}

class CudaPipeline final : public DevicePipeline {
 public:
  CudaPipeline(const PictureFormat& format, int device, unsigned slots) : format_(format) {
    use_device(device);
    for (unsigned i = 0; i < slots; ++i) slots_.push_back(std::make_unique<CudaSlot>(format, device, i));
  }
  unsigned slot_count() const override { return unsigned(slots_.size()); }
  FrameSlot& slot(unsigned i) override { return *slots_.at(i); }
  const PictureFormat& format() const override { return format_; }
  void set_uploaded_planes(unsigned mask) override {
    for (auto& s : slots_) s->set_uploaded_planes(mask);
  }

 private:
  PictureFormat format_;
  std::vector<std::unique_ptr<CudaSlot>> slots_;
};

}  // namespace

void use_device(int device) { check(cudaSetDevice(device), "cudaSetDevice"); }

CudaSlot::CudaSlot(const PictureFormat& format, int device, unsigned index)
    : device_(device),
      index_(index),
      picture_bytes_(Picture::storage_bytes(format)),
      host_(2 * picture_bytes_),
      device_copy_(2 * picture_bytes_),
      ref_(format, host_.get()),
      dist_(format, host_.get() + picture_bytes_),
      device_ref_(device_view(ref_, host_.get(), device_copy_.get())),
      device_dist_(device_view(dist_, host_.get(), device_copy_.get())) {}

void CudaSlot::upload() {
  use_device(device_);
  const int planes = ref_.format().num_planes();
  if ((planes_ & kAllPlanes) == kAllPlanes || (planes == 1 && (planes_ & 1))) {
    check(cudaMemcpyAsync(device_copy_.get(), host_.get(), 2 * picture_bytes_, cudaMemcpyHostToDevice, stream_.get()),
          "upload (cudaMemcpyAsync)");
    return;
  }
  // Only the planes read: one copy per plane and picture (its rows with their padding).
  for (const Picture* pic : {&ref_, &dist_})
    for (int p = 0; p < planes; ++p) {
      if (!(planes_ & (1u << p))) continue;
      const auto* from = static_cast<const unsigned char*>(pic->data(p));
      const std::size_t bytes = std::size_t(pic->stride_bytes(p)) * std::size_t(pic->height(p));
      check(cudaMemcpyAsync(device_copy_.get() + (from - host_.get()), from, bytes, cudaMemcpyHostToDevice,
                            stream_.get()),
            "upload (cudaMemcpyAsync)");
    }
}

void CudaSlot::wait() { check(cudaStreamSynchronize(stream_.get()), "frame (cudaStreamSynchronize)"); }

CudaSlot& cuda_slot(FrameSlot& slot) {
  auto* s = dynamic_cast<CudaSlot*>(&slot);
  if (!s) throw Error("a CUDA twin was handed a frame slot of another backend");
  return *s;
}

}  // namespace cuda

std::unique_ptr<DevicePipeline> make_cuda_pipeline(const PictureFormat& format, int device, unsigned slots) {
  return std::make_unique<cuda::CudaPipeline>(format, device, slots);
}

}  // namespace vqtwin
