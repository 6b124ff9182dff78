// A buffer's bytes: the workload's buffers, the GPU's memory, the references' outputs.
// Their allocator gives zeroed memory, and value-initialising an element leaves it as it is.
// A large buffer is fresh pages mapped for it, which the kernel zeroes when one is first
// written: its pages are first touched where the buffer is filled (on --threads threads),
// not by a zero fill on one thread before it. (calloc would clear heap memory that an earlier
// buffer gave back, on the calling thread.) Small ones come from calloc.
// So an element value-initialised where allocate() did not just place it keeps what it held:
// size Bytes when making them (Bytes(n) is n zeros), and do not grow them in place after
// shrinking them.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

namespace gpusim::util {

template <class T, std::size_t kMappedBytes = std::size_t{1} << 20>
struct ZeroedAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = ZeroedAllocator<U, kMappedBytes>;
  };
  ZeroedAllocator() = default;
  template <class U>
  constexpr ZeroedAllocator(const ZeroedAllocator<U, kMappedBytes>&) noexcept {}

  // From kMappedBytes on (by default 256 pages), memory is mapped for the buffer alone, its
  // pages made present by the mapping call (MAP_POPULATE): one system call where first
  // touches took a page fault each (on this project's VMs, each fault costs several times
  // what the kernel's batch does per page).
  T* allocate(std::size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    if (n * sizeof(T) >= kMappedBytes) {
      void* p = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      return static_cast<T*>(p);
    }
    if (void* p = std::calloc(n, sizeof(T))) return static_cast<T*>(p);
    throw std::bad_alloc();
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) >= kMappedBytes) munmap(p, n * sizeof(T));
    else std::free(p);
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) > 0) ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    // else: the zeros allocate() gave are the value
  }
  friend bool operator==(const ZeroedAllocator&, const ZeroedAllocator&) { return true; }
};

using Bytes = std::vector<uint8_t, ZeroedAllocator<uint8_t>>;

}  // namespace gpusim::util
