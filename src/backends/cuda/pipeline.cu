// The CUDA backend's frame pipeline: one slot per worker, so reading frame n+2, uploading n+1 and
// computing n overlap. Device and pinned memory are allocated here, once, and reused every frame.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <system_error>
#include <thread>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda/busy_times.hpp"
#include "backends/cuda/slot.hpp"
#include "backends/cuda/surface_convert.hpp"
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
    if (BusyTimes::wanted()) times_ = std::make_unique<BusyTimes>();
    held_ = std::make_unique<HeldSurfaces>();
    // The slots are made one per thread: pinning their host memory is most of a run's start-up (a
    // 4K pair is 25 MB, one slot per worker), and the pages of different slots can be pinned at once.
    // On any failure every slot made is freed and the first error is thrown.
    std::vector<std::unique_ptr<CudaSlot>> made(slots);
    std::vector<std::exception_ptr> errors(slots);
    auto make = [&](unsigned i) {
      try {
        use_device(device);
        made[i] = std::make_unique<CudaSlot>(format, device, i, times_.get(), held_.get());
      } catch (...) {
        errors[i] = std::current_exception();
      }
    };
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < slots; ++i) {
      try {
        pool.emplace_back(make, i);
      } catch (const std::system_error&) {
        make(i);  // no thread to be had: made here
      }
    }
    if (slots) make(0);
    for (auto& t : pool) t.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    slots_ = std::move(made);
  }
  unsigned slot_count() const override { return unsigned(slots_.size()); }
  FrameSlot& slot(unsigned i) override { return *slots_.at(i); }
  const PictureFormat& format() const override { return format_; }
  void set_uploaded_planes(unsigned mask) override {
    for (auto& s : slots_) s->set_uploaded_planes(mask);
  }

 private:
  PictureFormat format_;
  std::unique_ptr<BusyTimes> times_;  // outlives the slots that write to it
  std::unique_ptr<HeldSurfaces> held_;  // outlives the slots (their streams end the conversions)
  std::vector<std::unique_ptr<CudaSlot>> slots_;
};

// The length of the union of intervals [a, b) (sorted by a here).
double union_ms(std::vector<std::pair<float, float>> v) {
  std::sort(v.begin(), v.end());
  double total = 0;
  float lo = 0, hi = 0;
  bool open = false;
  for (const auto& [a, b] : v) {
    if (open && a <= hi) {
      hi = std::max(hi, b);
      continue;
    }
    if (open) total += hi - lo;
    lo = a;
    hi = b;
    open = true;
  }
  if (open) total += hi - lo;
  return total;
}

}  // namespace

void use_device(int device) { check(cudaSetDevice(device), "cudaSetDevice"); }

bool BusyTimes::wanted() {
  const char* v = std::getenv("VQTWIN_REPORT_DEVICE_BUSY");
  return v && *v && *v != '0';
}

BusyTimes::BusyTimes() {
  check(cudaEventRecord(origin_.get(), 0), "cudaEventRecord");
  check(cudaEventSynchronize(origin_.get()), "cudaEventSynchronize");
}

float BusyTimes::since_origin(cudaEvent_t e) const {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, origin_.get(), e), "cudaEventElapsedTime");
  return ms;
}

void BusyTimes::add(float upload_start, float compute_start, float end) {
  std::lock_guard lock(mutex_);
  frames_.push_back({upload_start, compute_start, end});
}

BusyTimes::Summary BusyTimes::summary() const {
  std::lock_guard lock(mutex_);
  Summary s;
  s.frames = unsigned(frames_.size());
  if (frames_.empty()) return s;
  std::vector<std::pair<float, float>> all, up, compute;
  float first = frames_[0].upload, last = frames_[0].end;
  for (const Interval& f : frames_) {
    all.emplace_back(f.upload, f.end);
    up.emplace_back(f.upload, f.compute);
    compute.emplace_back(f.compute, f.end);
    first = std::min(first, f.upload);
    last = std::max(last, f.end);
    s.in_flight_ms += f.end - f.upload;
  }
  s.span_ms = last - first;
  s.busy_ms = union_ms(all);
  s.upload_ms = union_ms(up);
  s.compute_ms = union_ms(compute);
  return s;
}

BusyTimes::~BusyTimes() {
  const Summary s = summary();
  if (s.frames == 0 || s.span_ms <= 0) return;
  std::fprintf(stderr,
               "vqtwin: device busy: %.1f ms of %.1f ms (%.1f%%) from the first upload to the last frame's end, "
               "%u frames; uploading %.1f ms (%.1f%%), computing %.1f ms (%.1f%%); %.2f frames in flight on average\n",
               s.busy_ms, s.span_ms, 100 * s.busy_ms / s.span_ms, s.frames, s.upload_ms, 100 * s.upload_ms / s.span_ms,
               s.compute_ms, 100 * s.compute_ms / s.span_ms, s.in_flight_ms / s.span_ms);
}

CudaSlot::CudaSlot(const PictureFormat& format, int device, unsigned index, BusyTimes* times, HeldSurfaces* held)
    : device_(device),
      index_(index),
      picture_bytes_(Picture::storage_bytes(format)),
      host_(2 * picture_bytes_),
      device_copy_(2 * picture_bytes_),
      ref_(format, host_.get()),
      dist_(format, host_.get() + picture_bytes_),
      device_ref_(device_view(ref_, host_.get(), device_copy_.get())),
      device_dist_(device_view(dist_, host_.get(), device_copy_.get())),
      times_(times),
      held_(held) {
  if (times_) {
    uploading_ = std::make_unique<Event>(true);
    computing_ = std::make_unique<Event>(true);
    done_ = std::make_unique<Event>(true);
  }
}

void CudaSlot::upload() {
  use_device(device_);
  if (times_) check(cudaEventRecord(uploading_->get(), stream_.get()), "cudaEventRecord");
  if (where_[0] == Where::kHost && where_[1] == Where::kHost) {
    upload_planes();
  } else {
    // A picture decoded on the device is there already (take_frame()).
    for (int w = 0; w < 2; ++w)
      if (where_[w] == Where::kHost) upload_picture(w == 0 ? ref_ : dist_);
  }
  drill_after_upload(stream_.get());
  if (times_) {
    check(cudaEventRecord(computing_->get(), stream_.get()), "cudaEventRecord");
    timed_ = true;
  }
}

void CudaSlot::upload_planes() {
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

void CudaSlot::upload_picture(const Picture& pic) {
  for (int p = 0; p < pic.format().num_planes(); ++p) {
    if (!(planes_ & (1u << p))) continue;
    const auto* from = static_cast<const unsigned char*>(pic.data(p));
    const std::size_t bytes = std::size_t(pic.stride_bytes(p)) * std::size_t(pic.height(p));
    check(cudaMemcpyAsync(device_copy_.get() + (from - host_.get()), from, bytes, cudaMemcpyHostToDevice,
                          stream_.get()),
          "upload (cudaMemcpyAsync)");
  }
}

void CudaSlot::Target::take(DeviceFrame frame) { slot_.take_frame(which_, frame); }

void CudaSlot::begin_frame() { where_[0] = where_[1] = Where::kHost; }

void CudaSlot::take_frame(int which, const DeviceFrame& frame) {
  use_device(device_);
  if (!decoded_) decoded_ = std::make_unique<Event>();
  const auto t0 = std::chrono::steady_clock::now();
  convert_surface(frame, which == 0 ? device_ref_ : device_dist_, decoded_->get(), stream_.get());
  const double launch_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (held_)
    held_->add(which, frame.hold, stream_.get(), launch_ms);
  else
    check(cudaStreamSynchronize(stream_.get()), "convert a decoded frame (cudaStreamSynchronize)");
  where_[which] = Where::kConverted;
}

void HeldSurfaces::add(int which, std::shared_ptr<void> hold, cudaStream_t stream, double launch_ms) {
  std::lock_guard lock(mutex_);
  ++frames_;
  launch_ms_ += launch_ms;
  // Those whose conversion has completed go back to their decoders.
  for (auto& q : held_)
    while (!q.empty()) {
      const cudaError_t e = cudaEventQuery(q.front().done->get());
      if (e == cudaErrorNotReady) break;
      check(e, "convert a decoded frame (cudaEventQuery)");
      spare_.push_back(std::move(q.front().done));
      q.pop_front();
    }
  std::unique_ptr<Event> done;
  if (spare_.empty()) {
    done = std::make_unique<Event>();
  } else {
    done = std::move(spare_.back());
    spare_.pop_back();
  }
  check(cudaEventRecord(done->get(), stream), "convert a decoded frame (cudaEventRecord)");
  auto& q = held_[which == 0 ? 0 : 1];
  q.push_back({std::move(done), std::move(hold)});
  while (q.size() > kMaxPerInput) {
    const auto t0 = std::chrono::steady_clock::now();
    check(cudaEventSynchronize(q.front().done->get()), "convert a decoded frame (cudaEventSynchronize)");
    waited_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ++waits_;
    spare_.push_back(std::move(q.front().done));
    q.pop_front();
  }
}

HeldSurfaces::~HeldSurfaces() {
  // Every conversion still queued ends before its surface goes back (errors: the run has failed and
  // said so already).
  for (auto& q : held_)
    for (Held& h : q) (void)cudaEventSynchronize(h.done->get());
  (void)cudaGetLastError();
  const char* v = std::getenv("VQTWIN_REPORT_DECODE");
  if (frames_ && v && *v && *v != '0')
    std::fprintf(stderr,
                 "vqtwin: decode report: device conversions: %u frames, launching %.1f ms; the reader waited %.1f ms "
                 "for conversions (%u times, more than %zu of one input queued)\n",
                 frames_, launch_ms_, waited_ms_, waits_, kMaxPerInput);
}

void CudaSlot::host_pictures() {
  if (where_[0] != Where::kConverted && where_[1] != Where::kConverted) return;
  use_device(device_);
  for (int w = 0; w < 2; ++w) {
    if (where_[w] != Where::kConverted) continue;
    const std::size_t offset = w == 0 ? 0 : picture_bytes_;
    check(cudaMemcpyAsync(host_.get() + offset, device_copy_.get() + offset, picture_bytes_, cudaMemcpyDeviceToHost,
                          stream_.get()),
          "copy a decoded frame back (cudaMemcpyAsync)");
  }
  check(cudaStreamSynchronize(stream_.get()), "copy a decoded frame back (cudaStreamSynchronize)");
  for (Where& w : where_)
    if (w == Where::kConverted) w = Where::kBoth;
}

void CudaSlot::wait() {
  if (times_) check(cudaEventRecord(done_->get(), stream_.get()), "cudaEventRecord");
  check(cudaStreamSynchronize(stream_.get()), "frame (cudaStreamSynchronize)");
  if (times_ && std::exchange(timed_, false))
    times_->add(times_->since_origin(uploading_->get()), times_->since_origin(computing_->get()),
                times_->since_origin(done_->get()));
}

CudaSlot& cuda_slot(FrameSlot& slot) { return backend_slot<CudaSlot>(slot, "CUDA"); }

}  // namespace cuda

std::unique_ptr<DevicePipeline> make_cuda_pipeline(const PictureFormat& format, int device, unsigned slots) {
  return std::make_unique<cuda::CudaPipeline>(format, device, slots);
}

}  // namespace vqtwin
