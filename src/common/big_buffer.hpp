#pragma once
// An uninitialised array for whole planes, backed by transparent huge pages where the OS offers them.
// Why: a plane buffer is touched first during the first frames, and on virtual machines each 4 KiB
// page fault can cost tens of microseconds (measured ~40 us on the development VM: 16 MiB of fresh
// memory took 170 ms to touch, 11-35 ms with 2 MiB pages). Used by float_motion and integer motion.
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace vqtwin {

template <class T>
class BigBuffer {
 public:
  BigBuffer() = default;
  explicit BigBuffer(std::size_t count) : size_(count) {
    constexpr std::size_t kHuge = std::size_t(2) << 20;
    const std::size_t bytes = count * sizeof(T);
    const bool huge = bytes >= kHuge / 2;
    const std::size_t align = huge ? kHuge : 64;
    const std::size_t rounded = (bytes + align - 1) / align * align;
    void* p = std::aligned_alloc(align, rounded ? rounded : align);
    if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge) madvise(p, rounded, MADV_HUGEPAGE);  // a hint: ignored where THP is off
#endif
    data_.reset(static_cast<T*>(p));
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t size_ = 0;
};

}  // namespace vqtwin
