#include "util/cpu_count.hpp"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <thread>

namespace gpusim::util {

unsigned usable_cpus() {
  // A mask sized for the CPUs the kernel may know of: EINVAL says it was too small.
  for (int cpus = 1024; cpus <= (1 << 20); cpus *= 2) {
    cpu_set_t* set = CPU_ALLOC(cpus);
    if (!set) break;
    const size_t bytes = CPU_ALLOC_SIZE(cpus);
    const int got = sched_getaffinity(0, bytes, set);
    const int count = got == 0 ? CPU_COUNT_S(bytes, set) : 0;
    const bool too_small = got != 0 && errno == EINVAL;
    CPU_FREE(set);
    if (got == 0) return static_cast<unsigned>(std::max(count, 1));
    if (!too_small) break;
  }
  return std::max(std::thread::hardware_concurrency(), 1u);
}

}  // namespace gpusim::util
