#pragma once
// The CUDA frame slot: a (reference, distorted) pair in one pinned host block, its copy on the
// device (same layout; uploaded in one transfer, or plane by plane when only some planes are read),
// and the stream the frame's work is ordered on.
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cuda/device_picture.hpp"
#include "backends/cuda/memory.hpp"
#include "backends/device.hpp"

namespace vqtwin::cuda {

class BusyTimes;

// Decoded surfaces whose conversion is queued on a slot's stream. Each (the decoder's frame, which
// keeps its surface mapped) is released once the event recorded after its conversion has completed,
// so that the reader hands frames over without waiting for the device. The decoder has a fixed
// number of surfaces (io/decoded_source.cpp's kExtraSurfaces counts kMaxPerInput of them), so with
// more than kMaxPerInput of one input outstanding the reader waits for the oldest.
class HeldSurfaces {
 public:
  static constexpr std::size_t kMaxPerInput = 3;
  ~HeldSurfaces();
  // Keeps `hold` until the work queued on `stream` so far has completed; `which`: 0 reference,
  // 1 distorted; `launch_ms`: the conversion's launch, for the report.
  void add(int which, std::shared_ptr<void> hold, cudaStream_t stream, double launch_ms);

 private:
  struct Held {
    std::unique_ptr<Event> done;
    std::shared_ptr<void> hold;
  };
  std::mutex mutex_;
  std::deque<Held> held_[2];
  std::vector<std::unique_ptr<Event>> spare_;
  // VQTWIN_REPORT_DECODE: frames converted, their launches, the reader's waits for the oldest.
  unsigned frames_ = 0, waits_ = 0;
  double launch_ms_ = 0, waited_ms_ = 0;
};

class CudaSlot final : public FrameSlot {
 public:
  // `times`: where each frame's device interval goes (VQTWIN_REPORT_DEVICE_BUSY), or null.
  CudaSlot(const PictureFormat& format, int device, unsigned index, BusyTimes* times = nullptr,
           HeldSurfaces* held = nullptr);
  unsigned index() const override { return index_; }
  Picture& ref() override { return ref_; }
  Picture& dist() override { return dist_; }
  void upload() override;
  void wait() override;
  void begin_frame() override;
  DeviceFrameTarget* device_target(int which) override { return &targets_[which]; }
  void host_pictures() override;
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
  RegisteredHostBlock host_;  // ref then dist, each picture_bytes_ (a multiple of 64); pinned
  DeviceArray<unsigned char> device_copy_;  // the same block on the device
  unsigned planes_ = kAllPlanes;
  Stream stream_;
  Picture ref_, dist_;
  DevicePicture device_ref_, device_dist_;
  // The frame's interval on the device, when measured: recorded before the upload, after it, and
  // after the frame's last work (in wait()).
  BusyTimes* times_;
  std::unique_ptr<Event> uploading_, computing_, done_;
  bool timed_ = false;  // upload() recorded this frame's first two events

  void upload_planes();  // the transfers themselves: the whole block, or the planes read
  void upload_picture(const Picture& pic);  // one picture's planes read

  // Where this frame's picture is. kHost: the host picture holds it (upload() copies it);
  // kConverted: a frame decoded on the device, converted into the device picture when it was handed
  // over (the host picture is stale); kBoth: copied back as well (host_pictures()).
  enum class Where { kHost, kConverted, kBoth };
  class Target final : public DeviceFrameTarget {
   public:
    Target(CudaSlot& slot, int which) : slot_(slot), which_(which) {}
    int device() const override { return slot_.device_; }
    void take(DeviceFrame frame) override;

   private:
    CudaSlot& slot_;
    int which_;
  };
  Target targets_[2] = {{*this, 0}, {*this, 1}};
  Where where_[2] = {Where::kHost, Where::kHost};
  std::unique_ptr<Event> decoded_;  // recorded on the decoder's stream (made at the first device frame)
  HeldSurfaces* held_;  // where the decoded frames wait for their conversions (null: waited for here)
  // Queues the conversion of `frame` into picture `which`; the decoder's surface goes back to its
  // pool when the conversion has completed (held_), not when the frame's work has: NVDEC has a fixed
  // number of surfaces, and frames in flight must not hold them.
  void take_frame(int which, const DeviceFrame& frame);
};

// The slot a twin was handed, as the CUDA slot it is (an error if another backend's).
CudaSlot& cuda_slot(FrameSlot& slot);

// Sets `device` current for the calling thread (each worker thread calls it before device work).
void use_device(int device);

}  // namespace vqtwin::cuda
