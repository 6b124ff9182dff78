#include "kernel/register_slots.hpp"

#include <algorithm>
#include <vector>

#include <boost/dynamic_bitset.hpp>

#include "kernel/cfg.hpp"

namespace gpusim::kernel {
namespace {

using Registers = boost::dynamic_bitset<uint64_t>;

// Past these the live sets (blocks x registers bits) and the interference matrix (8 MB at
// 8192 registers) grow large for little: such kernels keep a slot per register, as before.
constexpr size_t kMaxRegisters = 8192;
constexpr size_t kMaxInstructions = 65536;

// Live before `in`, from live after it.
void step_back(const Instruction& in, Registers& live) {
  if (in.guard == kNoReg) for_each_register_written(in, [&](uint32_t r) { live.reset(r); });
  for_each_register_read(in, [&](uint32_t r) { live.set(r); });
}

}  // namespace

RegisterSlots assign_register_slots(const Program& program) {
  const size_t n = program.reg_names.size();
  if (n == 0 || program.code.empty() || n > kMaxRegisters || program.code.size() > kMaxInstructions)
    return {program.reg_slot, program.narrow_regs, program.wide_regs};
  const ControlFlowGraph cfg = build_cfg(program.code);
  const size_t blocks = cfg.blocks.size();

  // Live at each block's start and end, to the fixed point (blocks backwards converge fastest).
  // A call falls through, and a function's code is reached from no other block: each
  // function's liveness is its own.
  std::vector<Registers> live_in(blocks, Registers(n)), live_out(blocks, Registers(n));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = blocks; b-- > 0;) {
      Registers live(n);
      for (int s : cfg.blocks[b].successors)
        if (s != cfg.exit_node()) live |= live_in[static_cast<size_t>(s)];
      live_out[b] = live;
      for (int pc = cfg.blocks[b].last; pc >= cfg.blocks[b].first; --pc)
        step_back(program.code[static_cast<size_t>(pc)], live);
      if (live != live_in[b]) {
        live_in[b] = std::move(live);
        changed = true;
      }
    }
  }

  // A register written while another is live (or written alongside) may not share its slot.
  std::vector<Registers> interferes(n, Registers(n));
  for (size_t b = 0; b < blocks; ++b) {
    Registers live = live_out[b];
    for (int pc = cfg.blocks[b].last; pc >= cfg.blocks[b].first; --pc) {
      const Instruction& in = program.code[static_cast<size_t>(pc)];
      for_each_register_written(in, [&](uint32_t d) {
        interferes[d] |= live;
        for_each_register_written(in, [&](uint32_t other) { interferes[d].set(other); });
      });
      step_back(in, live);
    }
  }
  for (size_t a = 0; a < n; ++a)
    for (size_t b = interferes[a].find_first(); b != Registers::npos; b = interferes[a].find_next(b))
      interferes[b].set(a);
  // Registers live on entry (read before any write, on some path) were never written: they
  // read zero through the lanes' written-register masks, whatever their slot holds.

  // Greedy colouring in register order, each kind apart: the lowest slot no neighbour holds,
  // above the slots of the groups before (the kernel's registers, then each function's).
  std::vector<uint32_t> group_start{0};
  for (const Function& f : program.functions) group_start.push_back(f.first_reg);
  constexpr uint32_t kNone = ~0u;
  RegisterSlots out{std::vector<uint32_t>(n, kNone), 0, 0};
  std::vector<uint32_t> taken(n, kNone);
  uint32_t base[2] = {0, 0};
  for (size_t g = 0; g < group_start.size(); ++g) {
    const uint32_t end = g + 1 < group_start.size() ? group_start[g + 1] : static_cast<uint32_t>(n);
    uint32_t used[2] = {0, 0};
    for (uint32_t r = group_start[g]; r < end; ++r) {
      const int kind = program.reg_wide[r] ? 1 : 0;
      const Registers& near = interferes[r];
      for (size_t other = near.find_first(); other != Registers::npos; other = near.find_next(other))
        if (other >= group_start[g] && other < end && out.slot[other] != kNone &&
            program.reg_wide[other] == program.reg_wide[r])
          taken[out.slot[other] - base[kind]] = r;
      uint32_t s = 0;
      while (taken[s] == r) ++s;
      out.slot[r] = base[kind] + s;
      used[kind] = std::max(used[kind], s + 1);
    }
    base[0] += used[0];
    base[1] += used[1];
  }
  out.narrow = base[0];
  out.wide = base[1];
  return out;
}

}  // namespace gpusim::kernel
