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
  fill_slot(slot, ref, dist, planes_read());
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
