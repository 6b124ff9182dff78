// ArchConfig: one GPU described by a configs/*.yaml file, as plain validated data. It is
// made of the components' own parts (each declared beside the code that uses it), so a
// component is built from its part alone; arch/ adds what the occupancy calculator reads.
// The parameters are declared in the `declare` members (util/params.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/block_dispatch_config.hpp"
#include "core/scheduling_config.hpp"
#include "core/units_config.hpp"
#include "engine/event_queue.hpp"  // the most SMs the event priorities order
#include "host/host_link_config.hpp"
#include "memory/banks.hpp"
#include "memory/memory_config.hpp"
#include "util/params.hpp"

namespace gpusim::arch {

struct ComputeCapability {
  int major = 0;
  int minor = 0;
  auto operator<=>(const ComputeCapability&) const = default;
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
};

struct GpuInfo {
  std::string name;          // marketing name, e.g. "Tesla K20X"
  std::string architecture;  // family, e.g. "Kepler"
  ComputeCapability compute_capability;
  int sm_count = 0;
  double core_clock_mhz = 0;  // the clock all cycle counts are in

  static params::CustomSpec<ComputeCapability> compute_capability_spec();

  template <class V>
  void declare(V& v) {
    v.text("name", name, {.doc = "marketing name, e.g. \"Tesla K20X\""});
    v.text("architecture", architecture, {.doc = "family, e.g. \"Kepler\""});
    v.custom("compute_capability", compute_capability, compute_capability_spec());
    v.integer("sm_count", sm_count, {.min = 1, .max = engine::priority::kMaxSms, .unit = "SMs", .doc = "streaming multiprocessors"});
    v.number("core_clock_mhz", core_clock_mhz,
             {.min = 1, .max = 100000, .unit = "MHz", .doc = "the SM clock every cycle count is in"});
  }
};

struct Limits {
  int max_threads_per_sm = 0;
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  int max_threads_per_block = 0;
  std::array<int64_t, 3> max_block_dims{};
  std::array<int64_t, 3> max_grid_dims{};

  template <class V>
  void declare(V& v) {
    v.integer("max_threads_per_sm", max_threads_per_sm, {.min = 1, .max = 65536, .unit = "threads", .doc = "resident threads per SM"});
    v.integer("max_warps_per_sm", max_warps_per_sm, {.min = 1, .max = 2048, .unit = "warps", .doc = "resident warps per SM"});
    v.integer("max_blocks_per_sm", max_blocks_per_sm, {.min = 1, .max = 1024, .unit = "blocks", .doc = "resident blocks per SM"});
    v.integer("max_threads_per_block", max_threads_per_block, {.min = 1, .max = 65536, .unit = "threads", .doc = "threads per block"});
    v.integers("max_block_dims", max_block_dims,
               {.min = 1, .max = 2147483647, .unit = "threads", .doc = "largest block in x, y, z (enforced at launch)"});
    v.integers("max_grid_dims", max_grid_dims,
               {.min = 1, .max = 2147483647, .unit = "blocks", .doc = "largest grid in x, y, z (enforced at launch)"});
    v.check([&](const params::Checker& c) {
      c.require(max_threads_per_block <= max_threads_per_sm, "max_threads_per_block", "exceeds max_threads_per_sm");
    });
  }
};

enum class RegisterAllocation { PerBlock, PerWarp };

struct Registers {
  int per_sm = 0;
  int max_per_block = 0;
  int max_per_thread = 255;
  int allocation_unit = 256;
  RegisterAllocation allocation = RegisterAllocation::PerWarp;
  // Per block: warps are rounded up to this before registers are counted (1.x).
  // Per warp: the register file is split into this many equal sub-partitions and a
  // block's warps are rounded up to it for the launch check (2.x and later).
  int warp_allocation_granularity = 4;
  // Some parts must also fit a sibling's register-file split to launch at all
  // (GP100 is checked as if it had GP10x's 4 sub-partitions). Equals the above otherwise.
  int launch_check_granularity = 4;
  // Registers per thread whose per-warp allocation uses a larger unit (Fermi).
  std::map<int, int> allocation_unit_overrides;

  int unit_for(int regs_per_thread) const {
    auto it = allocation_unit_overrides.find(regs_per_thread);
    return it == allocation_unit_overrides.end() ? allocation_unit : it->second;
  }

  static params::CustomSpec<std::map<int, int>> overrides_spec();

  template <class V>
  void declare(V& v) {
    v.integer("per_sm", per_sm, {.min = 1, .max = 2147483647, .unit = "registers", .doc = "32-bit registers per SM"});
    v.integer("max_per_block", max_per_block, {.min = 1, .max = 2147483647, .unit = "registers", .doc = "registers one block may use"});
    v.integer("max_per_thread", max_per_thread,
              {.min = 1, .max = 1024, .def = 255, .unit = "registers", .doc = "registers one thread may use"});
    v.integer("allocation_unit", allocation_unit,
              {.min = 1, .max = 65536, .def = 256, .unit = "registers", .doc = "registers are allocated in multiples of this"});
    v.choice("allocation_granularity", allocation,
             std::vector<params::Choice<RegisterAllocation>>{
                 {"block", RegisterAllocation::PerBlock, "a block's registers are allocated together (1.x)"},
                 {"warp", RegisterAllocation::PerWarp, "each warp's registers are allocated on its own (2.x and later)"}},
             std::optional(RegisterAllocation::PerWarp), "how registers are allocated");
    v.integer("warp_allocation_granularity", warp_allocation_granularity,
              {.min = 1, .max = 64, .def = 4, .unit = "warps",
               .doc = "per block: warps are rounded up to this; per warp: register-file sub-partitions"});
    v.integer("launch_check_granularity", launch_check_granularity,
              {.min = 1, .max = 64, .def = 4, .unit = "warps",
               .doc = "a block's warps are rounded up to this for the launch check (GP100: 4 though it has 2 partitions)"});
    v.custom("allocation_unit_overrides", allocation_unit_overrides, overrides_spec());
    v.check([&](const params::Checker& c) {
      c.require(max_per_block <= per_sm, "max_per_block", "exceeds per_sm");
      c.require(per_sm % warp_allocation_granularity == 0, "warp_allocation_granularity",
                "must divide per_sm into equal sub-partitions");
      c.require(launch_check_granularity % warp_allocation_granularity == 0, "launch_check_granularity",
                "must be a multiple of warp_allocation_granularity");
      c.require(per_sm % allocation_unit == 0, "per_sm", "must be a multiple of allocation_unit");
      for (const auto& [regs, unit] : allocation_unit_overrides)
        c.require(regs <= max_per_thread, "allocation_unit_overrides",
                  "register count " + std::to_string(regs) + " exceeds max_per_thread");
    });
  }
};

struct SharedMemory {
  int64_t per_sm = 0;               // default carve-out available to blocks
  int64_t max_per_block = 49152;    // without opt-in
  int64_t max_per_block_optin = 0;  // with cudaFuncSetAttribute opt-in
  int64_t allocation_unit = 0;
  int64_t reserved_per_block = 0;   // taken by the driver for each block (8.0 and later)
  std::vector<int> carveouts_kb;    // shared capacities the driver may configure; empty: always per_sm
  memory::SharedAccessConfig access;

  static params::CustomSpec<std::vector<int>> carveouts_spec();
  // The shared capacity the driver configures for a kernel whose resident blocks need `needed`
  // bytes: the smallest carve-out that holds them (so occupancy is not limited) and the
  // kernel's preferred carve-out (a percent of per_sm; negative: none), as cudaFuncAttribute-
  // PreferredSharedMemoryCarveout asks.
  int64_t carveout_for(int64_t needed, int preferred_percent) const;  // banks and latency: the SM's load/store unit

  template <class V>
  void declare(V& v) {
    constexpr int64_t big = int64_t{1} << 40;
    v.integer("per_sm", per_sm, {.min = 1, .max = big, .unit = "bytes", .doc = "shared memory per SM (the default carve-out)"});
    v.integer("max_per_block", max_per_block,
              {.min = 1, .max = big, .def = 49152, .unit = "bytes", .doc = "per block without opt-in"});
    v.integer("max_per_block_optin", max_per_block_optin,
              {.min = 1, .max = big, .unit = "bytes", .doc = "per block with the cudaFuncSetAttribute opt-in"});
    v.integer("allocation_unit", allocation_unit,
              {.min = 1, .max = big, .unit = "bytes", .doc = "allocated in multiples of this (a power of two)"});
    v.integer("reserved_per_block", reserved_per_block,
              {.min = 0, .max = big, .def = 0, .unit = "bytes", .doc = "taken by the driver for each block (8.0 and later)"});
    v.custom("carveouts_kb", carveouts_kb, carveouts_spec());
    access.declare(v);
    v.check([&](const params::Checker& c) {
      c.require(max_per_block_optin >= max_per_block, "max_per_block_optin", "is smaller than max_per_block");
      c.require(max_per_block_optin + reserved_per_block <= per_sm, "max_per_block_optin",
                "plus reserved_per_block exceeds per_sm");
      c.require((allocation_unit & (allocation_unit - 1)) == 0, "allocation_unit", "must be a power of two");
      c.require(carveouts_kb.empty() || int64_t{carveouts_kb.back()} * 1024 == per_sm, "carveouts_kb",
                "the largest carve-out must be per_sm (" + std::to_string(per_sm) + " bytes)");
    });
  }
};

struct ArchConfig {
  std::string source_file;
  GpuInfo gpu;
  int warp_size = 32;
  Limits limits;
  Registers registers;
  SharedMemory shared_memory;
  core::SchedulingConfig scheduling;
  core::BlockDispatchConfig block_scheduler;
  core::ExecutionUnits units;
  core::Latencies latencies;
  core::InstructionClasses instruction_classes;
  memory::MemoryConfig memory;
  host::HostLinkConfig host_link;

  template <class V>
  void declare(V& v) {
    v.section("gpu", gpu, "What the GPU is");
    v.integer("warp_size", warp_size,
              {.min = 32, .max = 32, .def = 32, .unit = "threads",
               .doc = "threads per warp: 32 on every NVIDIA GPU; the model's SIMT masks are 32 bits wide"});
    v.section("limits", limits, "Launch and residency limits");
    v.section("registers", registers, "The register file");
    v.section("shared_memory", shared_memory, "Shared memory: capacity, banks and latency");
    v.section("scheduling", scheduling, "Warp schedulers");
    v.section("block_scheduler", block_scheduler, "The GPU-wide block scheduler");
    v.section("execution_units", units, "Execution units");
    v.section("latencies", latencies, "Dependent-issue latencies");
    v.section("instruction_classes", instruction_classes,
              "Instructions timed as a class of their own: their pipe and latency (defaults: the integer or FP32 pipe's)");
    v.section("memory", memory, "The memory system");
    v.section("host_link", host_link, "The host link and copy engines");
    v.check([&](const params::Checker& c) {
      if (int64_t{limits.max_warps_per_sm} * warp_size != limits.max_threads_per_sm)
        c.fail("limits", "max_warps_per_sm x warp_size (" + std::to_string(limits.max_warps_per_sm) + " x " +
                             std::to_string(warp_size) + ") must equal max_threads_per_sm (" +
                             std::to_string(limits.max_threads_per_sm) + ")");
      c.require(limits.max_threads_per_block % warp_size == 0, "limits",
                "max_threads_per_block must be a multiple of warp_size");
      c.require(scheduling.warp_schedulers_per_sm <= limits.max_warps_per_sm, "scheduling",
                "more warp schedulers than warps per SM");
      if (memory.l1 && memory.l1->unified_bytes > 0) {
        const int64_t set_bytes = int64_t{memory.l1->line_bytes} * memory.l1->associativity;
        std::vector<int64_t> carveouts{shared_memory.per_sm};
        for (int kb : shared_memory.carveouts_kb) carveouts.push_back(int64_t{kb} * 1024);
        for (int64_t carve : carveouts)
          c.require(memory.l1->unified_bytes - carve >= set_bytes && (memory.l1->unified_bytes - carve) % set_bytes == 0,
                    "memory.l1.unified_bytes",
                    "less a shared carve-out of " + std::to_string(carve) + " bytes must leave a whole number of sets (" +
                        std::to_string(set_bytes) + " bytes each)");
      }
      c.require((units.fp64 == 0) == (latencies.fp64 == 0), "latencies.fp64",
                "must be 0 exactly when execution_units.fp64 is 0 (no double precision)");
      // A study that changes gpu.sm_count alone leaves every list made per SM behind: the
      // first one found names them all, with the values that fit any count.
      const auto sms = static_cast<size_t>(gpu.sm_count);
      const auto stale = [sms](const auto& per_sm) { return !per_sm.empty() && per_sm.size() != sms; };
      const bool partitions_stale = memory.l2 && stale(memory.l2->sm_partitions);
      const bool paths_stale = memory.l2 && stale(memory.l2->sm_path_cycles);
      const bool order_stale = stale(block_scheduler.sm_order);
      std::string reset;
      if (partitions_stale) reset += " --set memory.l2.sm_partitions=halves";
      if (paths_stale) reset += " --set memory.l2.sm_path_cycles=none";
      if (order_stale) reset += " --set block_scheduler.sm_order=ascending";
      const std::string hint = " (gpu.sm_count is " + std::to_string(sms) + "; to run with it:" + reset + ")";
      c.require(!partitions_stale, "memory.l2.sm_partitions",
                "expected 'halves' or a list of " + std::to_string(sms) + " partitions, one per SM" + hint);
      c.require(!paths_stale, "memory.l2.sm_path_cycles",
                "expected 'none' or a list of " + std::to_string(sms) + " cycles, one per SM" + hint);
      if (!block_scheduler.sm_order.empty()) {
        c.require(!order_stale, "block_scheduler.sm_order",
                  "expected 'ascending' or a list of " + std::to_string(sms) + " SM indices" + hint);
        std::vector<bool> seen(sms, false);
        for (int sm : block_scheduler.sm_order) {
          c.require(sm >= 0 && sm < gpu.sm_count, "block_scheduler.sm_order",
                    "SM " + std::to_string(sm) + " is out of range [0, " + std::to_string(gpu.sm_count - 1) + "]");
          c.require(!seen[static_cast<size_t>(sm)], "block_scheduler.sm_order", "SM " + std::to_string(sm) + " appears twice");
          seen[static_cast<size_t>(sm)] = true;
        }
      }
    });
  }
};

}  // namespace gpusim::arch
