#include "core/static_stalls.hpp"

#include <algorithm>
#include <unordered_map>

#include "kernel/cfg.hpp"

namespace gpusim::core {

bool has_fixed_latency(const InstructionTiming& t) {
  // MUFU, conversions through it, shuffles, loads and long sequences (division, REDUX, MATCH)
  // are scoreboarded in SASS.
  constexpr int kLongestFixed = 16;
  const bool pipe = t.unit == Unit::Fp32 || t.unit == Unit::Int32 || t.unit == Unit::Fp64;
  return pipe && !t.is_memory && !t.rare && t.latency <= kLongestFixed;
}

void set_static_stalls(const kernel::Program& program, std::vector<InstructionTiming>& timing) {
  const kernel::ControlFlowGraph cfg = kernel::build_cfg(program.code);
  std::unordered_map<uint32_t, int64_t> ready;  // register -> static cycle its fixed-latency value is readable
  for (const kernel::BasicBlock& b : cfg.blocks) {
    ready.clear();
    int64_t cursor = 0;   // the static cycle the next instruction may issue
    int last = -1;        // the last instruction that takes an issue slot
    int64_t last_at = 0;  // and its static cycle
    for (int pc = b.first; pc <= b.last; ++pc) {
      InstructionTiming& t = timing[static_cast<size_t>(pc)];
      t.stall = 0;
      int64_t at = cursor;
      for (uint32_t r : t.reads) {
        if (r == kernel::kNoReg) break;
        if (const auto it = ready.find(r); it != ready.end())
          at = std::max(at, it->second - (r == t.early_reg ? int64_t{t.early_by} : 0));
      }
      if (t.issue_slots > 0) {
        if (last >= 0) timing[static_cast<size_t>(last)].stall = static_cast<uint16_t>(std::min<int64_t>(at - last_at, 0xFFFF));
        last = pc;
        last_at = at;
        cursor = at + t.issue_slots;
      }
      for (uint32_t r : t.writes) {
        if (r == kernel::kNoReg) break;
        if (has_fixed_latency(t)) ready[r] = at + t.latency;
        else ready.erase(r);
      }
    }
  }
}

}  // namespace gpusim::core
