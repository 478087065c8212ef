#include "backends/cuda/twin.hpp"

#include <cstdlib>
#include <cstring>

#include "vqtwin/error.hpp"

namespace vqtwin::cuda {

void CudaTwin::init(const PictureFormat& format) {
  if (!pipeline_) {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    own_ = make_cuda_pipeline(format, device, 1);
    own_->set_uploaded_planes(planes_read());
    pipeline_ = own_.get();
  }
  if (!(pipeline_->format() == format))
    throw Error("a CUDA twin was bound to a pipeline of " + pipeline_->format().describe() + " pictures, not " +
                format.describe());
  init_device(format, pipeline_->slot_count());
}

void CudaTwin::extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) {
  if (!pipeline_) throw Error("CUDA twin used before init()");
  CudaSlot& slot = cuda_slot(pipeline_->slot(0));
  const PictureFormat& f = ref.format();
  for (int p = 0; p < f.num_planes(); ++p) {
    if (!(planes_read() & (1u << p))) continue;  // never uploaded
    const std::size_t row = std::size_t(ref.width(p)) * std::size_t(f.bytes_per_sample());
    for (int y = 0; y < ref.height(p); ++y) {
      std::memcpy(slot.ref().row<unsigned char>(p, 0) + y * slot.ref().stride_bytes(p),
                  static_cast<const unsigned char*>(ref.data(p)) + y * ref.stride_bytes(p), row);
      std::memcpy(slot.dist().row<unsigned char>(p, 0) + y * slot.dist().stride_bytes(p),
                  static_cast<const unsigned char*>(dist.data(p)) + y * dist.stride_bytes(p), row);
    }
  }
  slot.upload();
  enqueue(slot, index);
  slot.wait();
  read_back(slot, index, out);
}

const char* planted_bug() {
  static const char* name = [] {
    const char* v = std::getenv("VQTWIN_PLANT");
    return v ? v : "";
  }();
  return name;
}

bool plant(const char* name) { return std::strcmp(planted_bug(), name) == 0; }

}  // namespace vqtwin::cuda
