// A buffer's bytes: the workload's buffers, the GPU's memory, the references' outputs.
// Their allocator gives zeroed memory, and value-initialising an element leaves it as it is.
// A large buffer is fresh pages mapped for it, which the kernel zeroes when one is first
// written: its pages are first touched where the buffer is filled (on --threads threads),
// not by a zero fill on one thread before it. (calloc would clear heap memory that an earlier
// buffer gave back, on the calling thread.) Small ones come from calloc. A writer of a part
// of a buffer makes that part's pages present first, in one call (prefault()).
// So an element value-initialised where allocate() did not just place it keeps what it held:
// size Bytes when making them (Bytes(n) is n zeros), and do not grow them in place after
// shrinking them.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

namespace gpusim::util {

// From kMappedBytes on (by default 256 pages), memory is mapped for the buffer alone; with
// kPopulate its pages are made present by the mapping call (MAP_POPULATE), for arrays whose
// first writes come one page at a time from one thread (a cache's ways).
inline constexpr std::size_t kMappedFrom = std::size_t{1} << 20;
template <class T, std::size_t kMappedBytes = kMappedFrom, bool kPopulate = false>
struct ZeroedAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = ZeroedAllocator<U, kMappedBytes, kPopulate>;
  };
  ZeroedAllocator() = default;
  template <class U>
  constexpr ZeroedAllocator(const ZeroedAllocator<U, kMappedBytes, kPopulate>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    if (n * sizeof(T) >= kMappedBytes) {
      void* p = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | (kPopulate ? MAP_POPULATE : 0), -1, 0);
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
// Zeros whose pages, from kMappedFrom on, are present from the start (a cache's ways).
template <class T>
using PresentZeros = std::vector<T, ZeroedAllocator<T, kMappedFrom, true>>;

// Makes the whole pages of [begin, begin + bytes) present and writable in one system call
// (MADV_POPULATE_WRITE), before a writer fills them: a first write takes a page fault per page,
// which costs several times more (on this project's VMs, about 5 microseconds each). Where the
// kernel cannot (before Linux 5.14, or memory not mapped privately), the writes fault as before.
inline void prefault(void* begin, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto from = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) & ~(page - 1);
  const auto to = (reinterpret_cast<std::uintptr_t>(begin) + bytes) & ~(page - 1);
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
#else
  (void)begin;
  (void)bytes;
#endif
}

}  // namespace gpusim::util
