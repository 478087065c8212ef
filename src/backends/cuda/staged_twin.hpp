#pragma once
// The CUDA side of the twin seam (backends/twin_seam.hpp). A twin derives from cuda::StagedTwin<R>,
// declares its results and buffers in declare(), enqueues one frame's kernels in record() and turns
// the staged results into values in reduce(). This base owns, per slot, the declared scratch buffers
// and objects, the device result buffer and its pinned copy; it clears the results when asked,
// copies back exactly the declared count after record() (one cudaMemcpyAsync, on the slot's stream)
// and chains a temporal twin's frames with an event: frame n's stream waits for the event recorded
// after frame n-1's work (submit() comes in frame order for temporal twins, so the one event always
// holds the previous frame's).
#include <cuda_runtime.h>

#include <memory>
#include <span>
#include <vector>

#include "backends/cuda/twin.hpp"
#include "backends/twin_seam.hpp"

namespace vqtwin::cuda {

template <class R>
class StagedTwin;

// One frame of a twin on one slot: what record() reads and writes.
template <class R>
class Frame {
 public:
  unsigned index() const { return index_; }
  CudaSlot& slot() const { return slot_; }
  cudaStream_t stream() const { return slot_.stream(); }
  const DevicePicture& ref() const { return slot_.device_ref(); }
  const DevicePicture& dist() const { return slot_.device_dist(); }
  // The device results (the declared count; cleared first when declared `zeroed`).
  R* results() const { return results_; }
  // This frame produces no results (reduce() gets an empty span): nothing is copied back.
  void skip_results() const { *staged_ = false; }
  // A declared buffer: this slot's for scratch, the twin's for persistent ones (nullptr: none).
  template <class T>
  T* operator[](seam::Buffer<T> b) const {
    if (!b.valid()) return nullptr;
    return reinterpret_cast<T*>((b.persistent ? persistent_ : scratch_)->at(b.id).get());
  }
  template <class T>
  T& operator[](seam::Object<T> o) const {
    return *static_cast<T*>(objects_->at(o.id).get());
  }

 private:
  friend class StagedTwin<R>;
  using Buffers = std::vector<DeviceArray<unsigned char>>;
  Frame(CudaSlot& slot, unsigned index, R* results, bool* staged, const Buffers* scratch, const Buffers* persistent,
        const std::vector<std::shared_ptr<void>>* objects)
      : slot_(slot), index_(index), results_(results), staged_(staged), scratch_(scratch), persistent_(persistent),
        objects_(objects) {}

  CudaSlot& slot_;
  unsigned index_;
  R* results_;
  bool* staged_;
  const Buffers* scratch_;
  const Buffers* persistent_;
  const std::vector<std::shared_ptr<void>>* objects_;
};

template <class R>
class StagedTwin : public CudaTwin, public seam::TwinDeclarations<R> {
 protected:
  // One frame's kernels on frame.stream(): read frame.ref()/dist(), write frame.results().
  virtual void record(const Frame<R>& frame) = 0;

  // The frame's staged results (after the slot's wait()).
  seam::Staged<R> staged(const CudaSlot& slot) const {
    const Slot& s = *slots_.at(slot.index());
    return {s.host.get(), plan_.result_count, s.staged};
  }
  // For a twin that, seeing its results, computes the frame again another way (the slot's pictures
  // are still on the device until collect returns): record `again` on the slot, copy the results
  // back and wait for them.
  template <class F>
  seam::Staged<R> restage(CudaSlot& slot, unsigned index, F again) {
    Slot& s = *slots_.at(slot.index());
    again(frame(slot, s, index));
    copy_back(slot, s);
    check(cudaStreamSynchronize(slot.stream()), "cudaStreamSynchronize (restaged results)");
    return staged(slot);
  }
  void read_back(CudaSlot& slot, unsigned index, FeatureSink& out) override {
    this->collect_staged(staged(slot), index, out);
  }

 private:
  struct Slot {
    DeviceArray<R> results;
    PinnedArray<R> host;
    std::vector<DeviceArray<unsigned char>> scratch;
    std::vector<std::shared_ptr<void>> objects;
    bool staged = false;
  };

  void init_device(const PictureFormat& format, unsigned slots) final {
    plan_ = seam::TwinPlan<R>{};
    slots_.clear();
    persistent_.clear();
    this->declare(format, plan_);
    for (auto& b : plan_.persistent_buffers) {
      persistent_.emplace_back(b.bytes);
      if (!b.contents.empty())
        check(cudaMemcpy(persistent_.back().get(), b.contents.data(), b.bytes, cudaMemcpyHostToDevice),
              "cudaMemcpy (twin table)");
    }
    for (unsigned i = 0; i < slots; ++i) {
      auto s = std::make_unique<Slot>();
      s->results = DeviceArray<R>(plan_.result_count);
      s->host = PinnedArray<R>(plan_.result_count);
      for (auto& b : plan_.scratch_buffers) s->scratch.emplace_back(b.bytes);
      for (auto& make : plan_.factories) s->objects.push_back(make());
      slots_.push_back(std::move(s));
    }
    previous_ = plan_.is_temporal ? std::make_unique<Event>() : nullptr;
    chained_ = false;
  }

  bool collect_in_order() const final { return !plan_.any_order_collect; }

  void enqueue(CudaSlot& slot, unsigned index) final {
    Slot& s = *slots_.at(slot.index());
    const cudaStream_t stream = slot.stream();
    if (previous_ && chained_) check(cudaStreamWaitEvent(stream, previous_->get(), 0), "cudaStreamWaitEvent");
    const std::size_t bytes = plan_.result_count * sizeof(R);
    if (plan_.zero_results && bytes) check(cudaMemsetAsync(s.results.get(), 0, bytes, stream), "cudaMemsetAsync");
    s.staged = bytes > 0;
    record(frame(slot, s, index));
    if (previous_) {
      check(cudaEventRecord(previous_->get(), stream), "cudaEventRecord");
      chained_ = true;
    }
    copy_back(slot, s);
  }

  void copy_back(CudaSlot& slot, Slot& s) {
    if (!s.staged) return;
    check(cudaMemcpyAsync(s.host.get(), s.results.get(), plan_.result_count * sizeof(R), cudaMemcpyDeviceToHost,
                          slot.stream()),
          "cudaMemcpyAsync (twin results)");
  }

  Frame<R> frame(CudaSlot& slot, Slot& s, unsigned index) {
    return Frame<R>(slot, index, s.results.get(), &s.staged, &s.scratch, &persistent_, &s.objects);
  }

  seam::TwinPlan<R> plan_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<DeviceArray<unsigned char>> persistent_;
  std::unique_ptr<Event> previous_;  // recorded after the latest frame's work (temporal twins)
  bool chained_ = false;             // a frame was submitted since init
};

}  // namespace vqtwin::cuda
