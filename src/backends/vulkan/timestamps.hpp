#pragma once
// Device timestamps around part of a slot's frame: how a benchmark times one twin's work on the device
// (bench/twin_device_time), as CUDA events do on a stream. start() and stop() each record a timestamp
// into the slot's command buffer (between upload() and wait()), written once every command recorded
// before it is done (the bottom of the pipe): the span is the work recorded between them, the frame's
// upload excluded. elapsed_ms() reads the two after the slot's wait().
#include <cstdint>
#include <string>

#include "backends/vulkan/slot.hpp"

namespace vqtwin::vulkan {

class FrameTimestamps {
 public:
  // Unavailable (why() says why) when the slot's queue writes no timestamps (timestampValidBits 0) or
  // the device reports no tick length (timestampPeriod 0).
  explicit FrameTimestamps(VulkanSlot& slot);
  ~FrameTimestamps();
  FrameTimestamps(const FrameTimestamps&) = delete;
  FrameTimestamps& operator=(const FrameTimestamps&) = delete;

  bool available() const { return pool_ != VK_NULL_HANDLE; }
  const std::string& why() const { return why_; }
  void start();
  void stop();
  // Milliseconds from start() to stop() of the frame the slot last waited for.
  double elapsed_ms() const;

 private:
  VulkanSlot* slot_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  double ns_per_tick_ = 0;
  std::uint64_t mask_ = 0;  // the valid bits: a difference is taken modulo 2^bits (the counter may wrap)
  std::string why_;
};

}  // namespace vqtwin::vulkan
