#include "arch/arch_loader.hpp"

#include <limits>
#include <sstream>

#include "util/yaml_reader.hpp"

namespace gpusim::arch {
namespace {

using util::MapReader;
constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();
constexpr int64_t kBig = int64_t{1} << 40;

int as_int(int64_t v) { return static_cast<int>(v); }

bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

ComputeCapability parse_cc(MapReader& r) {
  const std::string text = r.string("compute_capability");
  ComputeCapability cc;
  char dot = 0;
  std::istringstream in(text);
  if (!(in >> cc.major >> dot >> cc.minor) || dot != '.' || !in.eof() || cc.major < 1 || cc.minor < 0)
    r.fail("compute_capability", "expected MAJOR.MINOR such as \"3.5\", got '" + text + "'");
  return cc;
}

GpuInfo read_gpu(MapReader r) {
  GpuInfo g;
  g.name = r.string("name");
  g.architecture = r.string("architecture");
  g.compute_capability = parse_cc(r);
  g.sm_count = as_int(r.integer("sm_count", 1, 4096));
  g.core_clock_mhz = r.number("core_clock_mhz", 1, 100000);
  g.memory_clock_mhz = r.number("memory_clock_mhz", 1, 100000);
  r.finish();
  return g;
}

Limits read_limits(MapReader r) {
  Limits l;
  l.max_threads_per_sm = as_int(r.integer("max_threads_per_sm", 1, 65536));
  l.max_warps_per_sm = as_int(r.integer("max_warps_per_sm", 1, 2048));
  l.max_blocks_per_sm = as_int(r.integer("max_blocks_per_sm", 1, 1024));
  l.max_threads_per_block = as_int(r.integer("max_threads_per_block", 1, 65536));
  const auto block = r.integer_list("max_block_dims", 3, 1, kIntMax);
  const auto grid = r.integer_list("max_grid_dims", 3, 1, kIntMax);
  for (int i = 0; i < 3; ++i) {
    l.max_block_dims[i] = block[i];
    l.max_grid_dims[i] = grid[i];
  }
  r.finish();
  return l;
}

Registers read_registers(MapReader r) {
  Registers g;
  g.per_sm = as_int(r.integer("per_sm", 1, kIntMax));
  g.max_per_block = as_int(r.integer("max_per_block", 1, kIntMax));
  g.max_per_thread = as_int(r.integer("max_per_thread", 1, 1024));
  g.allocation_unit = as_int(r.integer("allocation_unit", 1, 65536));
  g.allocation = r.choice<RegisterAllocation>(
      "allocation_granularity", {{"block", RegisterAllocation::PerBlock}, {"warp", RegisterAllocation::PerWarp}});
  g.warp_allocation_granularity = as_int(r.integer("warp_allocation_granularity", 1, 64));
  g.launch_check_granularity = as_int(r.integer("launch_check_granularity", 1, 64));
  if (r.has("allocation_unit_overrides")) {  // optional
    MapReader o = r.map("allocation_unit_overrides");
    for (const std::string& key : o.keys()) {
      std::istringstream in(key);
      int regs = 0;
      if (!(in >> regs) || !in.eof() || regs < 1 || regs > g.max_per_thread)
        o.fail(key, "expected a register count between 1 and max_per_thread");
      g.allocation_unit_overrides[regs] = as_int(o.integer(key, 1, 65536));
    }
    o.finish();
  }
  if (g.max_per_block > g.per_sm) r.fail("max_per_block", "exceeds per_sm");
  if (g.per_sm % g.warp_allocation_granularity != 0)
    r.fail("warp_allocation_granularity", "must divide per_sm into equal sub-partitions");
  if (g.launch_check_granularity % g.warp_allocation_granularity != 0)
    r.fail("launch_check_granularity", "must be a multiple of warp_allocation_granularity");
  r.finish();
  return g;
}

SharedMemory read_shared_memory(MapReader r) {
  SharedMemory s;
  s.per_sm = r.integer("per_sm", 1, kBig);
  s.max_per_block = r.integer("max_per_block", 1, kBig);
  s.max_per_block_optin = r.integer("max_per_block_optin", 1, kBig);
  s.allocation_unit = r.integer("allocation_unit", 1, kBig);
  s.reserved_per_block = r.integer("reserved_per_block", 0, kBig);
  s.banks = as_int(r.integer("banks", 1, 1024));
  s.bank_width_bytes = as_int(r.integer("bank_width_bytes", 1, 64));
  s.conflict_scope_threads = as_int(r.integer("conflict_scope_threads", 1, 1024));
  s.latency = as_int(r.integer("latency", 1, 100000));
  s.replay_cycles = as_int(r.integer("replay_cycles", 1, 1000));
  if (s.max_per_block_optin < s.max_per_block) r.fail("max_per_block_optin", "is smaller than max_per_block");
  if (s.max_per_block_optin + s.reserved_per_block > s.per_sm)
    r.fail("max_per_block_optin", "plus reserved_per_block exceeds per_sm");
  if (!is_power_of_two(s.allocation_unit)) r.fail("allocation_unit", "must be a power of two");
  if (!is_power_of_two(s.banks)) r.fail("banks", "must be a power of two");
  if (!is_power_of_two(s.bank_width_bytes)) r.fail("bank_width_bytes", "must be a power of two");
  r.finish();
  return s;
}

Scheduling read_scheduling(MapReader r) {
  Scheduling s;
  s.warp_schedulers_per_sm = as_int(r.integer("warp_schedulers_per_sm", 1, 64));
  s.issue_width = as_int(r.integer("issue_width", 1, 8));
  s.policy = r.choice<SchedulerPolicy>("policy", {{"lrr", SchedulerPolicy::LooseRoundRobin},
                                                  {"gto", SchedulerPolicy::GreedyThenOldest},
                                                  {"two_level", SchedulerPolicy::TwoLevel}});
  s.sass_like = r.boolean("sass_like");
  r.finish();
  return s;
}

BlockScheduling read_block_scheduler(MapReader r, int sm_count) {
  BlockScheduling b;
  const YAML::Node order = r.node("sm_order");
  if (order.IsScalar() && order.Scalar() == "ascending") {
    for (int i = 0; i < sm_count; ++i) b.sm_order.push_back(i);
  } else {
    const auto list = r.integer_list("sm_order", static_cast<size_t>(sm_count), 0, sm_count - 1);
    std::vector<bool> seen(static_cast<size_t>(sm_count), false);
    for (int64_t v : list) {
      if (seen[static_cast<size_t>(v)]) r.fail("sm_order", "SM " + std::to_string(v) + " appears twice");
      seen[static_cast<size_t>(v)] = true;
      b.sm_order.push_back(static_cast<int>(v));
    }
  }
  b.kernel_launch_cycles = as_int(r.integer("kernel_launch_cycles", 0, 100'000'000));
  b.block_launch_cycles = as_int(r.integer("block_launch_cycles", 0, 100'000'000));
  b.block_dispatch_interval = r.number("block_dispatch_interval", 0, 1e6);
  r.finish();
  return b;
}

// Replaces the value at a dotted path ("memory.dram.latency") that must already exist.
void apply_override(YAML::Node root, const std::string& path, const std::string& text) {
  const std::string where = "--set '" + path + "=" + text + "': ";
  std::vector<std::string> keys;
  size_t start = 0;
  for (size_t dot; (dot = path.find('.', start)) != std::string::npos; start = dot + 1)
    keys.push_back(path.substr(start, dot - start));
  keys.push_back(path.substr(start));
  std::vector<YAML::Node> chain{root};
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    YAML::Node next = chain.back()[keys[i]];
    if (!next || !next.IsMap()) throw util::InputError(where + "the architecture file has no section '" + keys[i] + "'");
    chain.push_back(next);
  }
  if (!chain.back()[keys.back()]) throw util::InputError(where + "the architecture file has no key '" + path + "'");
  chain.back()[keys.back()] = YAML::Load(text);
}

ExecutionUnits read_units(MapReader r) {
  ExecutionUnits u;
  u.fp32 = as_int(r.integer("fp32", 1, 4096));
  u.int32 = as_int(r.integer("int32", 1, 4096));
  u.fp64 = as_int(r.integer("fp64", 0, 4096));  // 0: no double precision (CC 1.0)
  u.sfu = as_int(r.integer("sfu", 1, 4096));
  u.load_store = as_int(r.integer("load_store", 1, 4096));
  u.tensor_cores = as_int(r.integer("tensor_cores", 0, 64));
  r.finish();
  return u;
}

Latencies read_latencies(MapReader r, const ExecutionUnits& units) {
  Latencies l;
  l.fp32 = as_int(r.integer("fp32", 1, 10000));
  l.int32 = as_int(r.integer("int32", 1, 10000));
  l.fp64 = as_int(r.integer("fp64", 0, 10000));
  l.sfu = as_int(r.integer("sfu", 1, 10000));
  l.barrier = as_int(r.integer("barrier", 0, 100000));
  l.barrier_per_warp = r.number("barrier_per_warp", 0, 10000);
  l.int_divide = as_int(r.integer("int_divide", 1, 100000));
  l.int_divide_slots = as_int(r.integer("int_divide_slots", 1, 1000));
  if ((units.fp64 == 0) != (l.fp64 == 0))
    r.fail("fp64", "must be 0 exactly when execution_units.fp64 is 0 (no double precision)");
  r.finish();
  return l;
}

void read_cache_common(MapReader& r, Cache& c) {
  c.size_bytes = r.integer("size_bytes", 1, kBig);
  c.line_bytes = as_int(r.integer("line_bytes", 1, 4096));
  c.sector_bytes = as_int(r.integer("sector_bytes", 1, 4096));
  c.associativity = as_int(r.integer("associativity", 1, 1024));
  c.latency = as_int(r.integer("latency", 1, 100000));
  if (!is_power_of_two(c.line_bytes)) r.fail("line_bytes", "must be a power of two");
  if (!is_power_of_two(c.sector_bytes) || c.line_bytes % c.sector_bytes != 0)
    r.fail("sector_bytes", "must be a power of two dividing line_bytes");
  if (c.size_bytes % (int64_t{c.line_bytes} * c.associativity) != 0)
    r.fail("size_bytes", "must be a whole number of sets (line_bytes x associativity)");
}

Memory read_memory(MapReader r) {
  Memory m;
  m.coalescing = r.choice<CoalescingRule>("coalescing", {{"cc1.0", CoalescingRule::Cc10},
                                                         {"cc1.2", CoalescingRule::Cc12},
                                                         {"cc2.0", CoalescingRule::Cc20},
                                                         {"sectored32", CoalescingRule::Sectored32}});
  if (auto l1 = r.map_or_none("l1")) {
    L1Cache c;
    read_cache_common(*l1, c);
    c.caches_global_loads = l1->boolean("caches_global_loads");
    c.miss_line_cycles = as_int(l1->integer("miss_line_cycles", 0, 1000));
    l1->finish();
    m.l1 = c;
  }
  if (auto l2 = r.map_or_none("l2")) {
    L2Cache c;
    read_cache_common(*l2, c);
    c.slices = as_int(l2->integer("slices", 1, 1024));
    l2->finish();
    m.l2 = c;
  }
  MapReader d = r.map("dram");
  m.dram.latency = as_int(d.integer("latency", 1, 100000));
  m.dram.bandwidth_gbs = d.number("bandwidth_gbs", 0.001, 1e6);
  m.dram.channels = as_int(d.integer("channels", 1, 1024));
  d.finish();
  if (m.l2 && m.l1 && m.l2->latency <= m.l1->latency) r.fail("l2", "latency must exceed the L1's");
  if (m.l2 && m.dram.latency <= m.l2->latency) r.fail("dram", "latency must exceed the L2's");
  r.finish();
  return m;
}

HostLink read_host_link(MapReader r) {
  HostLink h;
  h.name = r.string("name");
  h.bandwidth_gbs = r.number("bandwidth_gbs", 0.001, 1e6);
  h.pageable_bandwidth_gbs = r.number("pageable_bandwidth_gbs", 0.001, 1e6);
  if (h.pageable_bandwidth_gbs > h.bandwidth_gbs) r.fail("pageable_bandwidth_gbs", "exceeds bandwidth_gbs (pinned)");
  h.latency_us = r.number("latency_us", 0, 1e6);
  h.copy_engines = as_int(r.integer("copy_engines", 0, 64));
  r.finish();
  return h;
}

void check_cross_fields(MapReader& root, const ArchConfig& c) {
  const Limits& l = c.limits;
  if (int64_t{l.max_warps_per_sm} * c.warp_size != l.max_threads_per_sm)
    root.fail("limits", "max_warps_per_sm x warp_size (" + std::to_string(l.max_warps_per_sm) + " x " +
                            std::to_string(c.warp_size) + ") must equal max_threads_per_sm (" +
                            std::to_string(l.max_threads_per_sm) + ")");
  if (l.max_threads_per_block > l.max_threads_per_sm)
    root.fail("limits", "max_threads_per_block exceeds max_threads_per_sm");
  if (l.max_threads_per_block % c.warp_size != 0)
    root.fail("limits", "max_threads_per_block must be a multiple of warp_size");
  if (c.registers.per_sm % c.registers.allocation_unit != 0)
    root.fail("registers", "per_sm must be a multiple of allocation_unit");
  if (c.scheduling.warp_schedulers_per_sm > l.max_warps_per_sm)
    root.fail("scheduling", "more warp schedulers than warps per SM");
  if (c.shared_memory.conflict_scope_threads > c.warp_size)
    root.fail("shared_memory", "conflict_scope_threads exceeds warp_size");
}

}  // namespace

ArchConfig load_arch_config(const std::string& path, const std::vector<std::string>& overrides) {
  YAML::Node doc = util::load_yaml_file(path);
  for (const std::string& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos) throw util::InputError("--set '" + o + "': expected SECTION.KEY=VALUE");
    apply_override(doc, o.substr(0, eq), o.substr(eq + 1));
  }
  MapReader root(doc, path);
  ArchConfig c;
  c.source_file = path;
  c.gpu = read_gpu(root.map("gpu"));
  c.warp_size = as_int(root.integer("warp_size", 1, 1024));
  if (!is_power_of_two(c.warp_size)) root.fail("warp_size", "must be a power of two");
  c.limits = read_limits(root.map("limits"));
  c.registers = read_registers(root.map("registers"));
  c.shared_memory = read_shared_memory(root.map("shared_memory"));
  c.scheduling = read_scheduling(root.map("scheduling"));
  c.block_scheduler = read_block_scheduler(root.map("block_scheduler"), c.gpu.sm_count);
  c.units = read_units(root.map("execution_units"));
  c.latencies = read_latencies(root.map("latencies"), c.units);
  c.memory = read_memory(root.map("memory"));
  c.host_link = read_host_link(root.map("host_link"));
  check_cross_fields(root, c);
  root.finish();
  return c;
}

}  // namespace gpusim::arch
