#include "arch/occupancy.hpp"

#include <algorithm>

namespace gpusim::arch {
namespace {

int64_t div_up(int64_t x, int64_t y) { return (x + y - 1) / y; }
int64_t round_up(int64_t x, int64_t y) { return div_up(x, y) * y; }

// Warps of one block that fit in the register file, given registers per warp and
// the number of equal sub-partitions the file is split into.
int64_t warps_by_registers(int64_t regs_per_sm, int64_t regs_per_warp, int64_t sub_partitions) {
  return (regs_per_sm / sub_partitions / regs_per_warp) * sub_partitions;
}

struct RegisterLimit {
  int blocks = 0;
  int64_t allocated_per_block = 0;
  std::string why_zero;
};

RegisterLimit register_limit(const ArchConfig& arch, int regs, int warps) {
  const Registers& rf = arch.registers;
  RegisterLimit out;
  if (rf.allocation == RegisterAllocation::PerBlock) {
    const int64_t allocated_warps = round_up(warps, rf.warp_allocation_granularity);
    out.allocated_per_block = round_up(int64_t{regs} * arch.warp_size * allocated_warps, rf.allocation_unit);
    if (out.allocated_per_block == 0) {
      out.blocks = kUnlimited;
    } else if (out.allocated_per_block > rf.max_per_block) {
      out.why_zero = "a block needs " + std::to_string(out.allocated_per_block) + " registers, more than the " +
                     std::to_string(rf.max_per_block) + " allowed per block";
    } else {
      out.blocks = static_cast<int>(rf.per_sm / out.allocated_per_block);
    }
    return out;
  }

  const int64_t per_warp = round_up(int64_t{regs} * arch.warp_size, rf.unit_for(regs));
  out.allocated_per_block = per_warp * warps;
  // The hardware checks a block as if its warps were spread over every sub-partition.
  const int64_t assumed = per_warp * round_up(warps, rf.launch_check_granularity);
  if (std::max(assumed, out.allocated_per_block) > rf.max_per_block) {
    out.why_zero = "a block needs " + std::to_string(assumed) + " registers (" + std::to_string(per_warp) +
                   " per warp, warps rounded up to " + std::to_string(rf.launch_check_granularity) +
                   "), more than the " + std::to_string(rf.max_per_block) + " allowed per block";
    return out;
  }
  if (per_warp == 0) {
    out.blocks = kUnlimited;
    return out;
  }
  const int64_t fit = warps_by_registers(rf.per_sm, per_warp, rf.warp_allocation_granularity) / warps;
  // A launch must also fit the sibling layout it is checked against (GP100 vs GP10x).
  const int64_t fit_check = warps_by_registers(rf.per_sm, per_warp, rf.launch_check_granularity) / warps;
  if (fit_check == 0 || fit == 0) {
    out.why_zero = "the register file's sub-partitions cannot hold one block's " + std::to_string(warps) +
                   " warps at " + std::to_string(per_warp) + " registers per warp";
    return out;
  }
  out.blocks = static_cast<int>(fit);
  return out;
}

}  // namespace

const char* limiter_name(Limiter l) {
  switch (l) {
    case Limiter::Warps: return "warps";
    case Limiter::Blocks: return "blocks";
    case Limiter::Registers: return "registers";
    case Limiter::SharedMemory: return "shared_memory";
    case Limiter::NoneFit: return "none_fit";
  }
  return "none_fit";
}

std::string invalid_request(const ArchConfig& arch, const KernelResources& k) {
  if (k.threads_per_block <= 0) return "threads per block must be positive";
  if (k.threads_per_block > arch.limits.max_threads_per_block)
    return std::to_string(k.threads_per_block) + " threads per block exceeds the limit of " +
           std::to_string(arch.limits.max_threads_per_block) + " on " + arch.gpu.name;
  if (k.registers_per_thread < 0) return "registers per thread must not be negative";
  if (k.registers_per_thread > arch.registers.max_per_thread)
    return std::to_string(k.registers_per_thread) + " registers per thread exceeds the maximum of " +
           std::to_string(arch.registers.max_per_thread) + " on " + arch.gpu.name;
  if (k.shared_bytes_per_block < 0) return "shared memory per block must not be negative";
  if (k.shared_bytes_per_block > arch.shared_memory.max_per_block_optin)
    return std::to_string(k.shared_bytes_per_block) + " bytes of shared memory per block exceeds the limit of " +
           std::to_string(arch.shared_memory.max_per_block_optin) + " on " + arch.gpu.name;
  return "";
}

OccupancyResult compute_occupancy(const ArchConfig& arch, const KernelResources& k) {
  OccupancyResult r;
  r.kernel = k;
  r.max_warps_per_sm = arch.limits.max_warps_per_sm;
  // Nothing can be computed for non-positive sizes; everything else is computed, and a
  // resource over its per-block limit simply allows 0 blocks (as cuda_occupancy.h does).
  if (k.threads_per_block <= 0 || k.registers_per_thread < 0 || k.shared_bytes_per_block < 0) {
    r.none_fit_reason = invalid_request(arch, k);
    return r;
  }
  r.warps_per_block = static_cast<int>(div_up(k.threads_per_block, arch.warp_size));

  r.limit_warps = k.threads_per_block > arch.limits.max_threads_per_block
                      ? 0
                      : arch.limits.max_warps_per_sm / r.warps_per_block;
  r.limit_blocks = arch.limits.max_blocks_per_sm;

  const RegisterLimit regs = register_limit(arch, k.registers_per_thread, r.warps_per_block);
  r.limit_registers = k.registers_per_thread > arch.registers.max_per_thread ? 0 : regs.blocks;
  r.registers_per_block = static_cast<int>(regs.allocated_per_block);

  const SharedMemory& sm = arch.shared_memory;
  r.shared_bytes_per_block = round_up(k.shared_bytes_per_block + sm.reserved_per_block, sm.allocation_unit);
  if (k.shared_bytes_per_block > sm.max_per_block_optin)
    r.limit_shared_memory = 0;
  else if (r.shared_bytes_per_block == 0)
    r.limit_shared_memory = kUnlimited;
  else
    r.limit_shared_memory = static_cast<int>(sm.per_sm / r.shared_bytes_per_block);

  r.active_blocks = std::min({r.limit_warps, r.limit_blocks, r.limit_registers, r.limit_shared_memory});
  r.active_warps = r.active_blocks * r.warps_per_block;
  r.active_threads = r.active_blocks * k.threads_per_block;
  r.occupancy = static_cast<double>(r.active_warps) / r.max_warps_per_sm;

  const std::pair<Limiter, int> limits[] = {{Limiter::Warps, r.limit_warps},
                                            {Limiter::Blocks, r.limit_blocks},
                                            {Limiter::Registers, r.limit_registers},
                                            {Limiter::SharedMemory, r.limit_shared_memory}};
  for (const auto& [which, blocks] : limits)
    if (blocks == r.active_blocks) r.limiters.push_back(which);
  if (r.active_blocks == 0) {
    r.limiter = Limiter::NoneFit;
    if (const std::string bad = invalid_request(arch, k); !bad.empty())
      r.none_fit_reason = bad;
    else if (r.limit_registers == 0)
      r.none_fit_reason = "registers: " + regs.why_zero;
    else
      r.none_fit_reason = "shared memory: a block needs " + std::to_string(r.shared_bytes_per_block) +
                          " bytes, more than the " + std::to_string(sm.per_sm) + " per SM";
  } else {
    r.limiter = r.limiters.front();
  }
  return r;
}

BestBlockSize max_potential_block_size(const ArchConfig& arch, int registers_per_thread,
                                       int64_t shared_bytes_per_block) {
  BestBlockSize best;
  int best_threads = 0;
  const int limit = arch.limits.max_threads_per_block;
  for (int64_t aligned = round_up(limit, arch.warp_size); aligned > 0; aligned -= arch.warp_size) {
    const int size = static_cast<int>(std::min<int64_t>(limit, aligned));
    const OccupancyResult r = compute_occupancy(arch, {size, registers_per_thread, shared_bytes_per_block});
    if (r.active_threads > best_threads) {
      best_threads = r.active_threads;
      best = {size, r.active_blocks, r.active_blocks * arch.gpu.sm_count, r.occupancy};
    }
    if (best_threads == arch.limits.max_threads_per_sm) break;
  }
  return best;
}

}  // namespace gpusim::arch
