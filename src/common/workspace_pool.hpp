#pragma once
// Scratch memory owned by one extractor context: frames run concurrently, so each extract() call
// borrows a workspace for its duration and gives it back; the pool keeps at most one per frame in
// flight (one per worker thread), reused from frame to frame, and frees them with the context.
// This replaces process-wide thread_local buffers, which are shared by every context of a thread,
// never freed, and cannot hold device memory or streams (the CUDA twins use the same pool).
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace vqtwin {

template <class W, class Deleter = std::default_delete<W>>
class WorkspacePool {
 public:
  using Ptr = std::unique_ptr<W, Deleter>;

  // A borrowed workspace; returns to its pool when destroyed.
  class Lease {
   public:
    Lease(WorkspacePool& pool, Ptr ws) : pool_(&pool), ws_(std::move(ws)) {}
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (ws_) pool_->give_back(std::move(ws_));
    }
    W& operator*() const { return *ws_; }
    W* operator->() const { return ws_.get(); }

   private:
    WorkspacePool* pool_;
    Ptr ws_;
  };

  // An idle workspace, or a new one from make() (called without the lock held).
  template <class Make>
  Lease take(Make&& make) {
    {
      std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        Ptr ws = std::move(idle_.back());
        idle_.pop_back();
        return Lease(*this, std::move(ws));
      }
      // Room to give every workspace back without allocating in a destructor.
      idle_.reserve(++created_);
    }
    return Lease(*this, make());
  }
  Lease take() {
    return take([] { return Ptr(new W()); });
  }

 private:
  void give_back(Ptr ws) {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(ws));
  }

  std::mutex mutex_;
  std::vector<Ptr> idle_;
  std::size_t created_ = 0;
};

}  // namespace vqtwin
