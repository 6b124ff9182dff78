#include "stats/metrics.hpp"

#include "core/instruction_class.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace gpusim::stats {
namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0; }
double d(uint64_t v) { return static_cast<double>(v); }
int64_t i(uint64_t v) { return static_cast<int64_t>(v); }

double seconds(const LaunchView& v) { return d(v.launch.cycles) / (v.arch.gpu.core_clock_mhz * 1e6); }
uint64_t scheduler_cycles(const LaunchView& v) {
  return uint64_t{v.launch.per_sm.size()} * static_cast<uint64_t>(v.launch.schedulers_per_sm) * v.launch.cycles;
}
uint64_t stall_cycles(const LaunchView& v) {
  uint64_t n = 0;
  for (uint64_t s : v.total.stalls) n += s;
  return n;
}
uint64_t blocks_per_wave(const LaunchView& v) {
  return static_cast<uint64_t>(v.launch.blocks_per_sm) * v.launch.per_sm.size();
}

uint64_t launch_overhead(const LaunchView& v) {
  return std::min<uint64_t>(v.launch.cycles, static_cast<uint64_t>(v.arch.block_scheduler.kernel_launch_cycles));
}
double l1_throughput(const LaunchView& v) { return ratio(d(v.total.l1_wavefronts), d(v.total.active_cycles)); }
double l2_throughput(const LaunchView& v) {
  const memory::MemoryStats& m = v.launch.memory;
  const int slices = v.arch.memory.l2 ? v.arch.memory.l2->slices : 0;
  return ratio(d(m.l2_hits + m.l2_misses + m.global_store_transactions), d(v.launch.cycles) * slices);
}
double dram_throughput(const LaunchView& v) {
  const double bytes = d(v.launch.memory.dram_read_bytes + v.launch.memory.dram_write_bytes);
  return ratio(ratio(bytes, seconds(v)) / 1e9, v.arch.memory.dram.bandwidth_gbs);
}
double issue_active(const LaunchView& v) {
  return ratio(d(v.total.issue_cycles), d(v.total.active_cycles) * v.launch.schedulers_per_sm);
}
double pipe_utilisation(const LaunchView& v, int unit) {
  return ratio(d(v.total.pipe_busy[static_cast<size_t>(unit)]) / core::kUnitTicks,
               d(v.total.active_cycles) * v.launch.schedulers_per_sm);
}

// Nsight Compute's names (Profiling Guide, metrics reference) for the metrics that have one.
struct NcuName {
  const char* key;
  const char* ncu;
  double scale;
};
constexpr NcuName kNcuNames[] = {
    {"cycles", "gpc__cycles_elapsed.max", 1},
    {"time_us", "gpu__time_duration.sum", 1000},  // ns
    {"warp_instructions", "smsp__inst_executed.sum", 1},
    {"thread_instructions", "smsp__thread_inst_executed.sum", 1},
    {"predicated_on_threads", "smsp__thread_inst_executed_pred_on.sum", 1},
    {"issue_cycles", "smsp__issue_active.sum", 1},
    {"active_cycles", "sm__cycles_active.sum", 1},
    {"warp_cycles", "sm__warps_active.sum", 1},
    {"blocks", "launch__grid_size", 1},
    {"ipc", "sm__inst_executed.avg.per_cycle_active", 1},
    {"issue_active", "smsp__issue_active.avg.pct_of_peak_sustained_active", 100},
    {"threads_per_instruction", "smsp__thread_inst_executed_per_inst_executed.ratio", 1},
    {"achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active", 100},
    {"theoretical_occupancy", "sm__maximum_warps_per_active_cycle_pct", 100},
    {"waves", "launch__waves_per_multiprocessor", 1},
    {"shared_carveout", "launch__shared_mem_config_size", 1},
    {"global_load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1},
    {"global_load_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1},
    {"global_store_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 1},
    {"global_store_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 1},
    {"load_sectors_per_request", "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 1},
    {"store_sectors_per_request", "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio", 1},
    {"l1_hit_sectors", "l1tex__t_sectors_lookup_hit.sum", 1},
    {"l1_miss_sectors", "l1tex__t_sectors_lookup_miss.sum", 1},
    {"l2_hit_sectors", "lts__t_sectors_lookup_hit.sum", 1},
    {"l2_miss_sectors", "lts__t_sectors_lookup_miss.sum", 1},
    {"l1_hit_rate", "l1tex__t_sector_hit_rate.pct", 100},
    {"l2_hit_rate", "lts__t_sector_hit_rate.pct", 100},
    {"dram_read_bytes", "dram__bytes_read.sum", 1},
    {"dram_write_bytes", "dram__bytes_write.sum", 1},
    {"dram_bandwidth_gbs", "dram__bytes.sum.per_second", 1e9},  // bytes/s
    {"shared_passes", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 1},
    {"shared_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 1},
    {"l1_wavefronts", "l1tex__data_pipe_lsu_wavefronts.sum", 1},
    {"l1_throughput", "l1tex__throughput.avg.pct_of_peak_sustained_active", 100},
    {"l2_throughput", "lts__throughput.avg.pct_of_peak_sustained_elapsed", 100},
    {"dram_throughput", "dram__throughput.avg.pct_of_peak_sustained_elapsed", 100},
    {"memory_throughput", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 100},
    {"compute_throughput", "sm__throughput.avg.pct_of_peak_sustained_elapsed", 100},
    {"pipe_fp32", "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", 100},
    {"pipe_int32", "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active", 100},
    {"pipe_fp64", "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", 100},
    {"pipe_sfu", "sm__pipe_xu_cycles_active.avg.pct_of_peak_sustained_active", 100},
    {"pipe_load_store", "sm__pipe_lsu_cycles_active.avg.pct_of_peak_sustained_active", 100},
    {"pipe_branch", "sm__pipe_cbu_cycles_active.avg.pct_of_peak_sustained_active", 100},
};

std::vector<LaunchMetric> build_launch_metrics() {
  using V = const LaunchView&;
  std::vector<LaunchMetric> m;
  // Whole numbers are counts and add up over launches unless `combine` says otherwise.
  const auto add = [&](std::string key, std::string group, std::string label, std::string unit, std::string description,
                       Style style, std::function<Value(V)> value, std::optional<Combine> combine = std::nullopt) {
    const Combine c = combine.value_or(style == Style::Integer ? Combine::Sum : Combine::CycleWeighted);
    m.push_back({std::move(key), std::move(group), std::move(label), std::move(unit), std::move(description), style,
                 std::move(value), c, "", 1});
  };
  add("cycles", "", "Cycles", "cycles", "from the launch to the last block's end and the last write landing",
      Style::Integer, [](V v) { return i(v.launch.cycles); });
  add("time_us", "", "Time", "us", "cycles at the core clock", Style::Fixed2,
      [](V v) { return d(v.launch.cycles) / v.arch.gpu.core_clock_mhz; }, Combine::Sum);
  for (const auto& c : core::SmStats::counters()) {
    if (c.group != "") continue;
    const auto member = c.member;
    add(std::string(c.name), "", std::string(c.name), std::string(c.unit), std::string(c.description), Style::Integer,
        [member](V v) { return i(v.total.*member); });
  }
  add("launch_overhead_cycles", "", "Launch overhead", "cycles",
      "from the launch to its first block's assignment (block_scheduler.kernel_launch_cycles): the host and "
      "driver's share, the same for any kernel", Style::Integer, [](V v) { return i(launch_overhead(v)); });
  add("kernel_cycles", "", "Kernel cycles", "cycles", "cycles less the launch overhead: the kernel's own time",
      Style::Integer, [](V v) { return i(v.launch.cycles - launch_overhead(v)); });
  add("ipc", "", "IPC", "instructions/cycle",
      "warp instructions per SM per active cycle (sm__inst_executed.avg.per_cycle_active)", Style::Fixed3,
      [](V v) { return ratio(d(v.total.warp_instructions), d(v.total.active_cycles)); });
  add("gpu_ipc", "", "GPU IPC", "instructions/cycle", "warp instructions per cycle, whole GPU", Style::Fixed2,
      [](V v) { return ratio(d(v.total.warp_instructions), d(v.launch.cycles)); });
  add("issue_slot_utilisation", "", "Issue-slot utilisation", "%",
      "warp instructions per scheduler issue slot (schedulers x issue width x cycles)", Style::Percent, [](V v) {
        return ratio(d(v.total.warp_instructions), d(scheduler_cycles(v)) * v.launch.issue_width);
      });
  add("issue_active", "", "Issue active", "%",
      "scheduler cycles with an issue per scheduler cycle of active SMs", Style::Percent,
      [](V v) { return issue_active(v); });
  add("threads_per_instruction", "", "Threads per instruction", "threads",
      "active lanes per issued warp instruction", Style::Fixed2,
      [](V v) { return ratio(d(v.total.thread_instructions), d(v.total.warp_instructions)); });
  add("achieved_occupancy", "", "Achieved occupancy", "%", "resident warps per active cycle / max warps per SM",
      Style::Percent, [](V v) {
        return ratio(d(v.total.warp_cycles), d(v.total.active_cycles)) / v.launch.max_warps_per_sm;
      });
  add("theoretical_occupancy", "", "Theoretical occupancy", "%", "from the occupancy calculator", Style::Percent,
      [](V v) { return v.launch.theoretical_occupancy; });
  add("simt_efficiency", "", "SIMT efficiency", "%", "active lanes per issued warp instruction / warp size",
      Style::Percent, [](V v) {
        return ratio(d(v.total.thread_instructions), v.arch.warp_size * d(v.total.warp_instructions));
      });
  add("predicated_simt_efficiency", "", "SIMT efficiency, predicated on", "%",
      "active lanes whose guard predicate held per issued warp instruction / warp size: the lanes doing work",
      Style::Percent, [](V v) {
        return ratio(d(v.total.predicated_on_threads), v.arch.warp_size * d(v.total.warp_instructions));
      });
  add("blocks_per_sm", "", "Blocks per SM", "blocks", "resident blocks per SM, from the occupancy calculator",
      Style::Integer, [](V v) { return int64_t{v.launch.blocks_per_sm}; }, Combine::CycleWeighted);
  add("blocks_per_wave", "", "Blocks per wave", "blocks", "blocks per SM x SMs", Style::Integer,
      [](V v) { return i(blocks_per_wave(v)); }, Combine::CycleWeighted);
  add("waves", "", "Waves", "waves", "blocks / blocks per wave", Style::Fixed2,
      [](V v) { return ratio(d(v.total.blocks), d(blocks_per_wave(v))); });
  add("shared_carveout", "", "Shared carve-out", "bytes",
      "shared memory the driver configures per SM for the kernel (the smallest that holds its resident blocks)",
      Style::Integer, [](V v) { return i(v.launch.shared_carveout_bytes); }, Combine::CycleWeighted);
  add("l1_size", "", "L1 size", "bytes", "L1 data capacity per SM for the kernel (a unified array less the carve-out)",
      Style::Integer, [](V v) { return i(v.launch.l1_bytes); }, Combine::CycleWeighted);
  add("tail_cycles", "", "Tail", "cycles", "from the first SM running out of work to the last (the writes' drain after it not counted)", Style::Integer,
      [](V v) { return i(v.launch.tail_cycles); });
  add("scheduler_cycles", "", "Scheduler cycles", "scheduler cycles", "SMs x schedulers x cycles", Style::Integer,
      [](V v) { return i(scheduler_cycles(v)); });
  add("stall_cycles", "", "Stall cycles", "scheduler cycles", "scheduler cycles without an issue: the sum of the stalls",
      Style::Integer, [](V v) { return i(stall_cycles(v)); });
  add("occupied_scheduler_cycles", "", "Occupied scheduler cycles", "scheduler cycles",
      "scheduler cycles with a resident warp (scheduler cycles less idle): what stall shares are taken of",
      Style::Integer, [](V v) { return i(scheduler_cycles(v) - v.total.stalls[static_cast<size_t>(core::Stall::Idle)]); });
  for (int k = 0; k < core::kStallCount; ++k) {
    const auto s = static_cast<core::Stall>(k);
    add(core::stall_name(s), "stalls", core::stall_name(s), "scheduler cycles", core::stall_description(s),
        Style::Integer, [k](V v) { return i(v.total.stalls[static_cast<size_t>(k)]); });
  }
  for (const auto& c : memory::MemoryStats::counters()) {
    const auto member = c.member;
    add(std::string(c.name), std::string(c.group), std::string(c.name), std::string(c.unit), std::string(c.description),
        Style::Integer, [member](V v) { return i(v.launch.memory.*member); });
  }
  for (const auto& c : core::SmStats::counters()) {
    if (c.group != "memory") continue;
    const auto member = c.member;
    add(std::string(c.name), "memory", std::string(c.name), std::string(c.unit), std::string(c.description),
        Style::Integer, [member](V v) { return i(v.total.*member); });
  }
  add("load_sectors_per_request", "memory", "Load sectors per request", "sectors/request",
      "global load transactions per request", Style::Fixed2, [](V v) {
        return ratio(d(v.launch.memory.global_load_transactions), d(v.launch.memory.global_load_requests));
      });
  add("store_sectors_per_request", "memory", "Store sectors per request", "sectors/request",
      "global store transactions per request", Style::Fixed2, [](V v) {
        return ratio(d(v.launch.memory.global_store_transactions), d(v.launch.memory.global_store_requests));
      });
  add("shared_bank_conflicts", "memory", "Shared bank conflicts", "passes", "bank passes beyond one per access",
      Style::Integer, [](V v) { return i(v.total.shared_passes - v.total.shared_requests); });
  add("bank_conflicts_per_request", "memory", "Bank conflicts per request", "passes/request",
      "extra bank passes per shared-memory access", Style::Fixed2, [](V v) {
        return ratio(d(v.total.shared_passes - v.total.shared_requests), d(v.total.shared_requests));
      });
  add("l1_hit_rate", "memory", "L1 hit rate", "%", "L1 sector hits / lookups", Style::Percent, [](V v) {
    return ratio(d(v.launch.memory.l1_hits), d(v.launch.memory.l1_hits + v.launch.memory.l1_misses));
  });
  add("l2_hit_rate", "memory", "L2 hit rate", "%", "L2 sector hits / reads (lts__t_sector_hit_rate)", Style::Percent,
      [](V v) { return ratio(d(v.launch.memory.l2_hits), d(v.launch.memory.l2_hits + v.launch.memory.l2_misses)); });
  add("dram_bandwidth_gbs", "memory", "DRAM bandwidth", "GB/s", "DRAM bytes read and written / time", Style::Fixed2,
      [](V v) {
        return ratio(d(v.launch.memory.dram_read_bytes + v.launch.memory.dram_write_bytes), seconds(v)) / 1e9;
      });
  add("dram_peak_gbs", "memory", "DRAM peak", "GB/s", "the configured DRAM bandwidth", Style::Fixed2,
      [](V v) { return v.arch.memory.dram.bandwidth_gbs; });
  add("l1_throughput", "throughput", "L1/shared throughput", "%",
      "data-stage cycles (shared passes, global lines) per active SM cycle", Style::Percent,
      [](V v) { return l1_throughput(v); });
  add("l2_throughput", "throughput", "L2 throughput", "%",
      "sectors read, written or updated per slice per cycle (one each at peak)", Style::Percent,
      [](V v) { return l2_throughput(v); });
  add("dram_throughput", "throughput", "DRAM throughput", "%", "DRAM bandwidth / configured peak", Style::Percent,
      [](V v) { return dram_throughput(v); });
  add("memory_throughput", "throughput", "Memory throughput", "%",
      "the busiest of L1/shared, L2 and DRAM, as a share of its peak (speed of light)", Style::Percent,
      [](V v) { return std::max({l1_throughput(v), l2_throughput(v), dram_throughput(v)}); });
  for (int u = 0; u < core::kUnitCount; ++u)
    add(std::string("pipe_") + core::unit_name(static_cast<core::Unit>(u)), "throughput",
        std::string(core::unit_name(static_cast<core::Unit>(u))) + " pipe", "%",
        "the unit's busy cycles per scheduler cycle of active SMs", Style::Percent,
        [u](V v) { return pipe_utilisation(v, u); });
  add("compute_throughput", "throughput", "Compute throughput", "%",
      "the busiest of issue and the execution pipes, as a share of its peak (speed of light)", Style::Percent,
      [](V v) {
        double most = issue_active(v);
        for (int u = 0; u < core::kUnitCount; ++u) most = std::max(most, pipe_utilisation(v, u));
        return most;
      });
  add("effective_bandwidth_gbs", "memory", "Effective bandwidth", "GB/s",
      "bytes the kernel's lanes loaded and stored / time", Style::Fixed2, [](V v) {
        return ratio(d(v.launch.memory.global_load_bytes + v.launch.memory.global_store_bytes), seconds(v)) / 1e9;
      });
  for (const NcuName& n : kNcuNames) {
    const auto it = std::find_if(m.begin(), m.end(), [&](const LaunchMetric& x) { return x.key == n.key; });
    if (it == m.end()) throw std::logic_error(std::string("Nsight name for an undeclared metric: ") + n.key);
    it->ncu = n.ncu;
    it->ncu_scale = n.scale;
  }
  return m;
}

std::vector<SmMetric> build_sm_metrics() {
  using V = const SmView&;
  std::vector<SmMetric> m;
  const auto add = [&](std::string key, std::string group, std::string label, std::string unit, std::string description,
                       Style style, std::function<Value(V)> value) {
    m.push_back({std::move(key), std::move(group), std::move(label), std::move(unit), std::move(description), style,
                 std::move(value), Combine::Sum, "", 1});
  };
  for (const auto& c : core::SmStats::counters()) {
    const auto member = c.member;
    add(std::string(c.name), "", std::string(c.name), std::string(c.unit), std::string(c.description), Style::Integer,
        [member](V v) { return i(v.sm.*member); });
  }
  add("ipc", "", "IPC", "instructions/cycle", "warp instructions per active cycle", Style::Fixed3,
      [](V v) { return ratio(d(v.sm.warp_instructions), d(v.sm.active_cycles)); });
  add("achieved_occupancy", "", "Achieved occupancy", "%", "resident warps per active cycle / max warps per SM",
      Style::Percent, [](V v) { return ratio(d(v.sm.warp_cycles), d(v.sm.active_cycles)) / v.max_warps_per_sm; });
  for (int k = 0; k < core::kStallCount; ++k) {
    const auto s = static_cast<core::Stall>(k);
    add(core::stall_name(s), "stalls", core::stall_name(s), "scheduler cycles", core::stall_description(s),
        Style::Integer, [k](V v) { return i(v.sm.stalls[static_cast<size_t>(k)]); });
  }
  return m;
}

}  // namespace

const std::vector<LaunchMetric>& launch_metrics() {
  static const std::vector<LaunchMetric> metrics = build_launch_metrics();
  return metrics;
}

const std::vector<SmMetric>& sm_metrics() {
  static const std::vector<SmMetric> metrics = build_sm_metrics();
  return metrics;
}

const LaunchMetric& launch_metric(const std::string& key) {
  for (const LaunchMetric& m : launch_metrics())
    if (m.key == key) return m;
  throw std::out_of_range("no launch metric '" + key + "'");
}

double ncu_value(const LaunchMetric& m, const LaunchView& view) { return as_double(m.value(view)) * m.ncu_scale; }

LaunchView make_view(const arch::ArchConfig& arch, const core::LaunchStats& launch) { return {arch, launch, launch.total()}; }

std::string format_value(const Value& v, Style style) {
  if (std::holds_alternative<int64_t>(v)) return std::to_string(std::get<int64_t>(v));
  const double x = std::get<double>(v);
  const auto fixed = [&](int digits) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", digits, x);
    return std::string(buf);
  };
  switch (style) {
    case Style::Fixed2: return fixed(2);
    case Style::Fixed3: return fixed(3);
    case Style::Percent: {
      char buf[48];
      std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * x);
      return buf;
    }
    case Style::Integer: break;
  }
  return fixed(0);
}

double as_double(const Value& v) {
  return std::holds_alternative<int64_t>(v) ? static_cast<double>(std::get<int64_t>(v)) : std::get<double>(v);
}

}  // namespace gpusim::stats
