#pragma once
// What the engine sees of a device backend: a pipeline of frame slots (several frames in flight)
// and extractors that enqueue work on a slot and read their results back once it is done. No CUDA
// or Vulkan type appears here; backends/cuda and backends/vulkan implement it, backends/none.cpp and
// backends/vulkan_none.cpp say no device exists.
#include <cstring>
#include <memory>
#include <string>

#include "core/extractor.hpp"
#include "io/device_frame.hpp"
#include "io/hwdec.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin {

// One frame pair in flight: host pictures the device can copy from (pinned), their copy on the
// device, and a queue (stream) the frame's work is ordered on.
class FrameSlot {
 public:
  virtual ~FrameSlot() = default;
  virtual unsigned index() const = 0;  // 0..slot_count()-1
  virtual Picture& ref() = 0;
  virtual Picture& dist() = 0;
  // Enqueues the pair's upload: raw samples as stored, no conversion; the planes its pipeline
  // uploads (every plane unless set_uploaded_planes said fewer).
  virtual void upload() = 0;
  // Blocks until everything enqueued on this slot is done (the frame's one host synchronisation).
  // Throws vqtwin::Error on a device fault.
  virtual void wait() = 0;

  // Frames decoded on the device (--hwdec). A new frame starts with begin_frame(): both pictures are
  // host pictures again. device_target(0 reference, 1 distorted) is where a source may hand a frame
  // decoded on the device instead of filling ref()/dist() (null: this backend takes none); upload()
  // then converts it on the device instead of copying the host picture. host_pictures() makes ref()
  // and dist() hold the frame (copies such pictures back, and waits for that): before a CPU context
  // reads them.
  virtual void begin_frame() {}
  virtual DeviceFrameTarget* device_target(int which) { return nullptr; }
  virtual void host_pictures() {}
};

class DevicePipeline {
 public:
  virtual ~DevicePipeline() = default;
  virtual unsigned slot_count() const = 0;
  virtual FrameSlot& slot(unsigned i) = 0;
  virtual const PictureFormat& format() const = 0;
  // The planes every slot's upload() copies from now on (bit p = plane p): the union of what the
  // twins bound to it read. A luma-only twin then costs a third less upload at 4:2:0, half at 4:4:4.
  virtual void set_uploaded_planes(unsigned mask) = 0;
};

inline constexpr unsigned kAllPlanes = 0x7;

// Copies the planes in `planes` (bit p = plane p) of a pair into a slot's host pictures, row by row
// (the strides may differ): what a twin's extract() does before upload() on its private pipeline.
inline void fill_slot(FrameSlot& slot, const Picture& ref, const Picture& dist, unsigned planes) {
  const PictureFormat& f = ref.format();
  for (int p = 0; p < f.num_planes(); ++p) {
    if (!(planes & (1u << p))) continue;  // never uploaded
    const std::size_t row = std::size_t(ref.width(p)) * std::size_t(f.bytes_per_sample());
    for (int y = 0; y < ref.height(p); ++y) {
      std::memcpy(slot.ref().row<unsigned char>(p, 0) + y * slot.ref().stride_bytes(p),
                  static_cast<const unsigned char*>(ref.data(p)) + y * ref.stride_bytes(p), row);
      std::memcpy(slot.dist().row<unsigned char>(p, 0) + y * slot.dist().stride_bytes(p),
                  static_cast<const unsigned char*>(dist.data(p)) + y * dist.stride_bytes(p), row);
    }
  }
}

// The slot a twin was handed, as its backend's slot type S (an error naming `backend` if another
// backend's slot reached it).
template <class S>
S& backend_slot(FrameSlot& slot, const char* backend) {
  auto* s = dynamic_cast<S*>(&slot);
  if (!s) throw Error(std::string("a ") + backend + " twin was handed a frame slot of another backend");
  return *s;
}

// A twin: its work for a frame is enqueued by submit() (no waiting) and its values written by
// collect() after the slot's wait(). Temporal twins get submit() and collect() each in frame order
// (collect() in any order where collect_in_order() says so); others in any order, from several threads. extract() (inherited) runs one frame synchronously on a
// private one-slot pipeline: what the twin harness and the benchmark use.
class DeviceExtractor : public Extractor {
 public:
  // Once, before init(): the pipeline whose slots this context will be handed.
  virtual void bind(DevicePipeline& pipeline) = 0;
  virtual void submit(FrameSlot& slot, unsigned index) = 0;
  virtual void collect(FrameSlot& slot, unsigned index, FeatureSink& out) = 0;
  // The planes of the pair this context reads on the device (bit p = plane p); every plane unless a
  // twin says fewer. Known from the options, before init().
  virtual unsigned planes_read() const { return kAllPlanes; }
  // A temporal twin's collect() needs frame order (the default); false where a frame's values come from
  // its own staged results alone (seam::TwinPlan::collect_any_order). Known after init().
  virtual bool collect_in_order() const { return true; }
};

// Before libavcodec's NVDEC decoder takes CUDA device `device`'s primary context (the one the CUDA
// runtime, hence the twins, use): libavcodec 5.1 asks that context for blocking synchronisation and
// refuses it when it is already active with other flags, so the runtime's context is given those
// flags first (an active context's flags are overwritten). Nothing without CUDA.
void cuda_share_with_decoder(int device);
// A decoder's own context and stream on CUDA device `device` (io/hwdec.hpp): the runtime's primary
// context, as it is (libavcodec, handed a context, asks nothing of its flags), and a new non-blocking
// stream. Empty when the device cannot be used (the decoder then says why) or built without CUDA.
DecoderStream cuda_decoder_stream(int device);

// How many CUDA devices this process sees (0 when none, or built without CUDA: `why` then says why).
// What --gpu all means.
int cuda_device_count(std::string* why);
// Whether CUDA device `device` can be used; when not, `why` says why (no device, old driver, ...).
bool cuda_device_usable(int device, std::string* why);
// A pipeline of `slots` frame slots on CUDA device `device` for pictures of `format`. Throws
// vqtwin::Error (out of memory, no device).
std::unique_ptr<DevicePipeline> make_cuda_pipeline(const PictureFormat& format, int device, unsigned slots);

// The same for Vulkan (backends/vulkan/; backends/vulkan_none.cpp without it). Devices are the
// physical devices the Vulkan loader lists, in its order.
int vulkan_device_count(std::string* why);
// `gpu_only`: a device of type CPU (lavapipe) counts as unusable (what --backend auto wants).
bool vulkan_device_usable(int device, std::string* why, bool gpu_only = false);
std::unique_ptr<DevicePipeline> make_vulkan_pipeline(const PictureFormat& format, int device, unsigned slots);
// A few lines per Vulkan device: name, type, vendor, driver, API version, the features the twins'
// checks ask about, whether vqtwin can use it (or the one line saying why there is none).
std::string vulkan_device_listing();

// The device backend's functions by Backend (kCuda or kVulkan).
inline bool device_usable(Backend backend, int device, std::string* why) {
  return backend == Backend::kVulkan ? vulkan_device_usable(device, why) : cuda_device_usable(device, why);
}
inline std::unique_ptr<DevicePipeline> make_device_pipeline(Backend backend, const PictureFormat& format, int device,
                                                            unsigned slots) {
  return backend == Backend::kVulkan ? make_vulkan_pipeline(format, device, slots)
                                     : make_cuda_pipeline(format, device, slots);
}

}  // namespace vqtwin
