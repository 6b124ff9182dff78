// Turns one warp memory instruction (a lane address per active lane) into the memory
// transactions its compute capability's rules produce (CUDA C Programming Guide,
// "Global Memory" per compute capability):
//   cc1.0  per half-warp: one 64/128/2x128-byte transaction only when thread k reads
//          word k of an aligned segment, else one transaction per thread;
//   cc1.2  per half-warp: the segment (32/64/128 bytes by word size) around the lowest
//          pending thread serves every thread inside it, shrunk to 64 or 32 bytes when
//          only half is used; repeat;
//   cc2.0  per warp (8-byte words per half-warp, 16-byte per quarter-warp): one 128-byte
//          line per distinct line when cached in L1, 32-byte segments when not;
//   sectored32 (3.x on) per warp: one 32-byte sector per distinct sector.
#pragma once

#include <cstdint>
#include <vector>

#include "arch/arch_config.hpp"

namespace gpusim::memory {

struct Transaction {
  uint64_t address = 0;  // aligned to its size
  uint32_t bytes = 0;
};

// `size` is the bytes each lane accesses (vector accesses included). `through_l1`
// selects the cached path on cc2.0 (128-byte lines) versus 32-byte segments.
std::vector<Transaction> coalesce(arch::CoalescingRule rule, const uint64_t* addresses, uint32_t mask, uint32_t size,
                                  bool through_l1);
// The same into `out` (cleared first), reusing its storage.
void coalesce_into(std::vector<Transaction>& out, arch::CoalescingRule rule, const uint64_t* addresses, uint32_t mask,
                   uint32_t size, bool through_l1);

// Shared memory: passes (wavefronts) one warp access needs: the largest number of
// distinct words any bank is asked for (the same word broadcasts), per conflict scope
// (16 threads on 1.x, else 32), summed over the scopes; at least the passes its bytes
// need at banks x bank_width bytes per pass. Atomics also serialise on equal addresses.
int shared_passes(const uint64_t* addresses, uint32_t mask, uint32_t size, int banks, int bank_width, int scope_threads,
                  bool atomic);

}  // namespace gpusim::memory
