#include "core/instruction_profile.hpp"

#include "kernel/ir.hpp"

namespace gpusim::core {

uint64_t InstructionCounters::total_warp_cycles() const {
  uint64_t n = 0;
  for (uint64_t c : warp_cycles) n += c;
  return n;
}

void InstructionCounters::add(const InstructionCounters& o) {
  stats::add_counters(*this, o, counters());
  for (size_t i = 0; i < warp_cycles.size(); ++i) warp_cycles[i] += o.warp_cycles[i];
}

std::span<const stats::Counter<InstructionCounters>> InstructionCounters::counters() {
  using C = stats::Counter<InstructionCounters>;
  using I = InstructionCounters;
  static const std::array list{
      C{"warp_executions", "", "instructions", "times a warp issued it (smsp__inst_executed)", &I::warp_executions},
      C{"thread_executions", "", "instructions", "active lanes summed over its executions (smsp__thread_inst_executed)",
        &I::thread_executions},
      C{"predicated_threads", "", "instructions", "of those, lanes whose guard predicate held "
        "(smsp__thread_inst_executed_pred_on)", &I::predicated_threads},
      C{"global_requests", "memory", "requests", "warp accesses to global or local memory", &I::global_requests},
      C{"global_sectors", "memory", "sectors", "sectors those accesses took", &I::global_sectors},
      C{"l1_hit_sectors", "memory", "sectors", "L1 sector lookups that hit", &I::l1_hit_sectors},
      C{"l1_miss_sectors", "memory", "sectors", "L1 sector lookups that missed", &I::l1_miss_sectors},
      C{"l2_hit_sectors", "memory", "sectors", "L2 sector reads that hit", &I::l2_hit_sectors},
      C{"l2_miss_sectors", "memory", "sectors", "L2 sector reads that missed", &I::l2_miss_sectors},
      C{"shared_requests", "memory", "requests", "warp accesses to shared memory", &I::shared_requests},
      C{"shared_passes", "memory", "passes", "bank passes those accesses took (a conflict adds passes)",
        &I::shared_passes},
  };
  return list;
}

InstructionProfile InstructionProfile::for_program(const kernel::Program& program) {
  InstructionProfile p;
  p.ptx_file = program.file;
  p.source_files = program.source_files;
  p.sites.reserve(program.code.size());
  for (const kernel::Instruction& in : program.code) p.sites.push_back({in.line, in.source_line, in.source_file});
  p.counters.resize(program.code.size());
  return p;
}

void InstructionProfile::add(const InstructionProfile& o) {
  if (empty()) {
    *this = o;
    return;
  }
  for (size_t i = 0; i < counters.size() && i < o.counters.size(); ++i) counters[i].add(o.counters[i]);
}

}  // namespace gpusim::core
