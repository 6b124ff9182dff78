#include "core/ptxas_predication.hpp"

#include <algorithm>

#include "kernel/cfg.hpp"

namespace gpusim::core {
namespace {

using kernel::Instruction;
using kernel::Opcode;
using kernel::StateSpace;

// Instructions a guard cannot switch off lane by lane, or that change the warp's flow.
bool stays_unpredicated(const Instruction& in) {
  switch (in.op) {
    case Opcode::Bra: case Opcode::Ret: case Opcode::Exit: case Opcode::Call: case Opcode::Bar:
    case Opcode::Shfl: case Opcode::Vote: case Opcode::WarpSync: case Opcode::Activemask: case Opcode::Redux:
    case Opcode::Match: case Opcode::Trap: case Opcode::Nanosleep: case Opcode::CpAsync:
      return true;
    default: return in.guard != kernel::kNoReg;  // already guarded: ptxas would combine predicates
  }
}

// An instruction's weight in quarters, at the kernel's top level or inside a loop.
int cost(const Instruction& in, const InstructionTiming& t, bool in_loop) {
  if (t.issue_slots == 0) return 0;  // folded into its user
  if (in.op == Opcode::St && !in.call_abi && !in_loop) return in.space == StateSpace::Shared ? 5 : 16;
  return 4 * t.issue_slots;
}

}  // namespace

kernel::Program predicate_like_ptxas(const kernel::Program& program, const std::vector<InstructionTiming>& timing) {
  const std::vector<Instruction>& code = program.code;
  const int size = static_cast<int>(code.size());
  std::vector<int> jumps_to(static_cast<size_t>(size) + 1, 0);
  for (const Instruction& in : code)
    if (in.op == Opcode::Bra) ++jumps_to[static_cast<size_t>(in.src[0].imm)];
  const auto ends_kernel = [&](int pc) {
    return pc >= size || code[pc].op == Opcode::Exit || (code[pc].op == Opcode::Ret && !code[pc].returns);
  };

  kernel::Program out = program;
  bool changed = false;
  for (int pc = 0; pc < size; ++pc) {
    const Instruction& branch = code[pc];
    if (branch.op != Opcode::Bra || branch.guard == kernel::kNoReg) continue;
    const int target = static_cast<int>(branch.src[0].imm);
    // `@p bra L; body; L:` runs the body where !p; NVVM also writes
    // `@p bra L1; bra.uni L2; L1: body; L2:`, which runs it where p.
    int first = pc + 1, join = target, skips = 1;
    bool negate = !branch.guard_negated;
    if (target == pc + 2 && pc + 1 < size && code[pc + 1].op == Opcode::Bra && code[pc + 1].guard == kernel::kNoReg &&
        jumps_to[static_cast<size_t>(target)] == 1) {
      first = pc + 2;
      join = static_cast<int>(code[pc + 1].src[0].imm);
      skips = 2;
      negate = branch.guard_negated;
    }
    if (join <= first || ends_kernel(join)) continue;
    bool in_loop = false;  // a later branch goes back to or above it
    for (int later = join; later < size && !in_loop; ++later)
      in_loop = code[later].op == Opcode::Bra && code[later].src[0].imm <= pc;
    bool eligible = true;
    int body_cost = 0;
    for (int i = first; i < join && eligible; ++i) {
      const auto& written = timing[static_cast<size_t>(i)].writes;
      eligible = !stays_unpredicated(code[i]) &&
                 std::find(written.begin(), written.end(), branch.guard) == written.end() &&
                 jumps_to[static_cast<size_t>(i)] == (i == first && skips == 2 ? 1 : 0);
      body_cost += cost(code[i], timing[static_cast<size_t>(i)], in_loop);
    }
    if (!eligible || body_cost > (in_loop ? kPredicatedLoopBodyCost : kPredicatedBodyCost)) continue;
    for (int i = pc; i < pc + skips; ++i) {
      Instruction& gone = out.code[static_cast<size_t>(i)];
      gone.guard = kernel::kNoReg;
      gone.guard_negated = false;
      gone.uniform = true;
      gone.src[0].imm = i + 1;
    }
    for (int i = first; i < join; ++i) {
      out.code[static_cast<size_t>(i)].guard = branch.guard;
      out.code[static_cast<size_t>(i)].guard_negated = negate;
    }
    changed = true;
    pc = join - 1;
  }
  if (changed) kernel::assign_reconvergence_points(out);
  return out;
}

}  // namespace gpusim::core
