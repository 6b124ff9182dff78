#include "exec/lane_span.hpp"

#include "util/bits.hpp"

namespace gpusim::exec {

// Every lane's address, bases + offset, wrapped, and whether each half-warp steps by one
// stride: a clone for hosts with AVX2 takes four 64-bit lanes per instruction instead of two
// (the same results on any host).
__attribute__((target_clones("avx2", "default"))) void lane_addresses(uint64_t* addresses, const uint64_t* bases,
                                                                       uint64_t offset, uint64_t wrap) {
  for (uint32_t l = 0; l < kWarpSize; ++l) addresses[l] = (bases[l] + offset) & wrap;
}
__attribute__((target_clones("avx2", "default"))) void lane_addresses(uint64_t* addresses, const uint32_t* bases,
                                                                       uint64_t offset, uint64_t wrap) {
  for (uint32_t l = 0; l < kWarpSize; ++l) addresses[l] = (uint64_t{bases[l]} + offset) & wrap;
}

__attribute__((target_clones("avx2", "default"))) bool each_half_steps_by(const uint64_t* addresses, uint64_t stride) {
  return util::halves_step_by(addresses, stride);
}

}  // namespace gpusim::exec
