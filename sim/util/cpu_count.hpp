// How many CPUs this process may run on, for --threads auto and a sweep's default workers.
#pragma once

namespace gpusim::util {

// The CPUs in the calling thread's affinity mask (taskset, a container's or a batch
// scheduler's cpuset), not the machine's count: threads past it only take turns on those
// CPUs, and a simulation thread waiting for one that is not running waits for nothing. The
// machine's count where the mask cannot be read; at least 1.
unsigned usable_cpus();

}  // namespace gpusim::util
