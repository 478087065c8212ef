#pragma once
// The Vulkan side of the twin seam (backends/twin_seam.hpp), as cuda/staged_twin.hpp is CUDA's. A twin
// derives from vulkan::StagedTwin<R>, declares its results and buffers in declare(), records one
// frame's dispatches in record() and turns the staged results into values in reduce(). This base
// owns, per slot, the declared scratch buffers and objects, the device result buffer and its
// host-visible copy; it clears the results when asked (vkCmdFillBuffer), records the copy-back of
// exactly the declared count after record(), and orders a temporal twin's frames: frame n's
// submission waits on the timeline semaphore value of the slot that ran frame n-1 (submit() comes in
// frame order for temporal twins), and is made only after frame n-1's (VulkanSlot::wait_for).
#include <cstring>
#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

#include "backends/twin_seam.hpp"
#include "backends/vulkan/twin.hpp"

namespace vqtwin::vulkan {

template <class R>
class StagedTwin;

// One frame of a twin on one slot: what record() reads and writes.
template <class R>
class Frame {
 public:
  unsigned index() const { return index_; }
  VulkanSlot& slot() const { return slot_; }
  VkCommandBuffer commands() const { return slot_.commands(); }
  // Plane p of the reference / distorted picture on the device (Range::base: its first byte).
  Range ref_plane(int p) const { return slot_.plane_range(0, p); }
  Range dist_plane(int p) const { return slot_.plane_range(1, p); }
  // The device results (the declared count; cleared first when declared `zeroed`).
  Range results() const { return results_; }
  // This frame produces no results (reduce() gets an empty span): nothing is copied back.
  void skip_results() const { *staged_ = false; }
  // A declared buffer: this slot's for scratch, the twin's for persistent ones.
  template <class T>
  Range operator[](seam::Buffer<T> b) const {
    if (!b.valid()) return {};
    const Buffer& buf = (b.persistent ? *persistent_ : *scratch_).at(b.id);
    return {buf.get(), 0, buf.bytes() ? buf.bytes() : 16, 0};
  }
  template <class T>
  T& operator[](seam::Object<T> o) const {
    return *static_cast<T*>(objects_->at(o.id).get());
  }
  // Records kernel `name` (shaders/NAME.comp or a feature's NAME.comp) with binding i = buffers[i]
  // and push constants `push`, over `groups_x` x `groups_y` workgroups.
  template <class P>
  void dispatch(const char* name, std::initializer_list<Range> buffers, const P& push, unsigned groups_x,
                unsigned groups_y = 1) const {
    const Kernel& k = slot_.device().kernel(name, unsigned(buffers.size()), sizeof(P));
    vulkan::dispatch(slot_, k, buffers.begin(), unsigned(buffers.size()), &push, sizeof(P), groups_x, groups_y);
  }
  // The writes of the dispatches so far visible to the next ones (one pass feeding another).
  void compute_barrier() const {
    barrier(commands(), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }

 private:
  friend class StagedTwin<R>;
  Frame(VulkanSlot& slot, unsigned index, Range results, bool* staged, const std::vector<Buffer>* scratch,
        const std::vector<Buffer>* persistent, const std::vector<std::shared_ptr<void>>* objects)
      : slot_(slot), index_(index), results_(results), staged_(staged), scratch_(scratch), persistent_(persistent),
        objects_(objects) {}

  VulkanSlot& slot_;
  unsigned index_;
  Range results_;
  bool* staged_;
  const std::vector<Buffer>* scratch_;
  const std::vector<Buffer>* persistent_;
  const std::vector<std::shared_ptr<void>>* objects_;
};

template <class R>
class StagedTwin : public VulkanTwin, public seam::TwinDeclarations<R> {
 protected:
  // One frame's dispatches: read frame.ref_plane()/dist_plane(), write frame.results().
  virtual void record(const Frame<R>& frame) = 0;

  seam::Staged<R> staged(const VulkanSlot& slot) const {
    const Slot& s = *slots_.at(slot.index());
    s.host.invalidate();
    return {static_cast<const R*>(s.host.mapped()), plan_.result_count, s.staged};
  }
  void read_back(VulkanSlot& slot, unsigned index, FeatureSink& out) override {
    this->collect_staged(staged(slot), index, out);
  }

 private:
  struct Slot {
    Buffer results, host;
    std::vector<Buffer> scratch;
    std::vector<std::shared_ptr<void>> objects;
    bool staged = false;
  };

  std::size_t result_bytes() const { return plan_.result_count * sizeof(R); }

  void init_device(Device& device, const PictureFormat& format, std::span<VulkanSlot* const> slots) final {
    plan_ = seam::TwinPlan<R>{};
    slots_.clear();
    persistent_.clear();
    this->declare(format, plan_);
    for (auto& b : plan_.persistent_buffers) {
      persistent_.emplace_back(device, b.bytes, Buffer::Kind::kDevice);
      if (!b.contents.empty()) device.upload_now(persistent_.back(), b.contents.data(), b.bytes);
    }
    for (std::size_t i = 0; i < slots.size(); ++i) {
      auto s = std::make_unique<Slot>();
      s->results = Buffer(device, result_bytes(), Buffer::Kind::kDevice);
      s->host = Buffer(device, result_bytes(), Buffer::Kind::kReadback);
      for (auto& b : plan_.scratch_buffers) s->scratch.emplace_back(device, b.bytes, Buffer::Kind::kDevice);
      for (auto& make : plan_.factories) s->objects.push_back(make());
      slots_.push_back(std::move(s));
    }
    previous_ = nullptr;
    previous_value_ = 0;
  }

  bool collect_in_order() const final { return !plan_.any_order_collect; }

  void enqueue(VulkanSlot& slot, unsigned index) final {
    Slot& s = *slots_.at(slot.index());
    VkCommandBuffer cb = slot.commands();
    if (plan_.is_temporal && previous_) slot.wait_for(*previous_, previous_value_);
    const std::size_t bytes = result_bytes();
    if (plan_.zero_results && bytes) {
      vk().vkCmdFillBuffer(cb, s.results.get(), 0, VK_WHOLE_SIZE, 0);
      barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
    s.staged = bytes > 0;
    record(Frame<R>(slot, index, {s.results.get(), 0, bytes ? bytes : 16, 0}, &s.staged, &s.scratch, &persistent_,
                    &s.objects));
    if (plan_.is_temporal) {
      previous_ = &slot;
      previous_value_ = slot.frame_value();
    }
    if (!s.staged) return;
    barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferCopy all{0, 0, bytes};
    vk().vkCmdCopyBuffer(cb, s.results.get(), s.host.get(), 1, &all);
  }

  seam::TwinPlan<R> plan_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Buffer> persistent_;
  const VulkanSlot* previous_ = nullptr;  // the slot that ran the latest frame (temporal twins)
  std::uint64_t previous_value_ = 0;       // and the value its timeline reaches when that frame is done
};

}  // namespace vqtwin::vulkan
