#pragma once
// The seam between a device twin and its backend, in no backend's terms. A twin declares what it
// computes; the backend supplies the machinery:
//   twin:    declare(format, plan)  -- its front's init, how many result values of type R a frame
//                                      produces, whether frame n needs frame n-1 done first, and its
//                                      buffers by element type and count (per slot, or persistent);
//            record(frame)          -- backend-specific: the kernels (CUDA) or dispatches (Vulkan) of
//                                      one frame on one slot, writing frame.results();
//            reduce(results, i, out) -- the frame's staged results -> values, through its front.
//   backend: the per-slot buffers and objects, the device result buffer, its host-visible copy and
//            the asynchronous copy-back of exactly the declared count, the frame order of temporal
//            twins (an event chain on CUDA, a timeline semaphore on Vulkan), and the collect path.
// backends/cuda/staged_twin.hpp implements it for CUDA; backends/README.md says how to add a twin.
#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/extractor.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::seam {

// A buffer the twin asked for: `count` elements of T, allocated by the backend. A default handle
// names no buffer (the frame gives nullptr for it).
template <class T>
struct Buffer {
  static constexpr unsigned kNone = ~0u;
  unsigned id = kNone;
  std::size_t count = 0;
  bool persistent = false;  // the twin's one buffer, not the slot's
  bool valid() const { return id != kNone; }
};

// A backend-side helper object made once per slot (for instance a CUDA ordered-sum plan with its own
// scratch): the twin names how to build it, the backend keeps one per slot.
template <class T>
struct Object {
  unsigned id = ~0u;
};

struct BufferDecl {
  std::size_t bytes = 0;
  std::vector<unsigned char> contents;  // uploaded once at init when not empty (persistent only)
};

// What a twin declares in declare(): its result staging, its frame order and its buffers.
template <class R>
class TwinPlan {
  static_assert(std::is_trivially_copyable_v<R>, "results are copied back as bytes");

 public:
  // Each frame writes `count` values of R into frame.results(); the backend copies back exactly
  // these (never more: a value not written is never read). `zeroed`: cleared before record().
  void results(std::size_t count, bool zeroed = false) {
    result_count = count;
    zero_results = zeroed;
  }
  // Frame n's work must see frame n-1's complete (a ring of previous frames on the device). The
  // engine submits a temporal twin's frames in frame order; the backend orders their device work.
  void temporal() { is_temporal = true; }
  // A temporal twin whose reduce() of a frame reads only that frame's staged results (its order lives
  // on the device, in the ring temporal() orders): the engine then collects its frames in any order,
  // from several threads, as a non-temporal twin's, so that a heavy host part runs on every worker.
  void collect_any_order() { any_order_collect = true; }

  // One buffer per frame slot (the frame's scratch), uninitialised.
  template <class T>
  Buffer<T> scratch(std::size_t count) {
    return add<T>(scratch_buffers, count, {}, false);
  }
  // One buffer for the twin, shared by every slot (a temporal twin's ring), uninitialised.
  template <class T>
  Buffer<T> persistent(std::size_t count) {
    return add<T>(persistent_buffers, count, {}, true);
  }
  // A persistent buffer holding `host` (a table computed on the host), uploaded once.
  template <class T>
  Buffer<T> table(std::span<const T> host) {
    std::vector<unsigned char> bytes(host.size_bytes());
    if (!host.empty()) std::memcpy(bytes.data(), host.data(), bytes.size());
    return add<T>(persistent_buffers, host.size(), std::move(bytes), true);
  }
  // One T per slot, built as T(args...).
  template <class T, class... A>
  Object<T> per_slot(A... args) {
    factories.push_back([=] { return std::shared_ptr<void>(std::make_shared<T>(args...)); });
    return {unsigned(factories.size() - 1)};
  }

  std::size_t result_count = 0;
  bool zero_results = false;
  bool is_temporal = false;
  bool any_order_collect = false;
  std::vector<BufferDecl> scratch_buffers, persistent_buffers;
  std::vector<std::function<std::shared_ptr<void>()>> factories;

 private:
  template <class T>
  static Buffer<T> add(std::vector<BufferDecl>& list, std::size_t count, std::vector<unsigned char> contents,
                       bool persistent) {
    list.push_back({count * sizeof(T), std::move(contents)});
    return {unsigned(list.size() - 1), count, persistent};
  }
};

// A frame's staged results on the host: what the backend hands to reduce().
template <class R>
struct Staged {
  const R* host = nullptr;
  std::size_t count = 0;
  bool written = false;  // the frame staged its results (record() did not skip them)
  std::span<const R> view() const { return written ? std::span<const R>(host, count) : std::span<const R>(); }
};

// The backend-neutral half of a twin: what every backend's twin base asks of it. R: the type of
// one staged result value (a number, or a small struct of several).
template <class R>
class TwinDeclarations {
 public:
  using Result = R;
  virtual ~TwinDeclarations() = default;

 protected:
  // Once per init, before any frame: init the front for `format` (throw vqtwin::Error to refuse it)
  // and declare results, order and buffers.
  virtual void declare(const PictureFormat& format, TwinPlan<R>& plan) = 0;
  // After the frame's slot is done: its results (empty when record() said it staged none) -> values.
  virtual void reduce(std::span<const R> results, unsigned index, FeatureSink& out) = 0;
  // The collect path every backend ends in: the staged results, as declared, into reduce().
  void collect_staged(const Staged<R>& staged, unsigned index, FeatureSink& out) {
    reduce(staged.view(), index, out);
  }
};

}  // namespace vqtwin::seam
