#include "core/pointer_roots.hpp"

#include <map>

namespace gpusim::core {

using kernel::Opcode;
using kernel::Operand;

namespace {

constexpr uint32_t kNoneYet = 0xFFFFFFFFu;  // no definition seen yet (the fixpoint's start)
constexpr uint32_t kMixed = kUnknownRoot;

// Joins what two definitions of one register say.
uint32_t join(uint32_t a, uint32_t b) {
  if (a == kNoneYet) return b;
  if (b == kNoneYet) return a;
  return a == b ? a : kMixed;
}

// Arithmetic that keeps a pointer a pointer: its result has its one pointer source's root.
bool carries_pointer(Opcode op) {
  switch (op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Mad: case Opcode::Mov: case Opcode::Cvta: case Opcode::Cvt:
    case Opcode::Selp: case Opcode::Min: case Opcode::Max:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::vector<uint32_t> pointer_roots(const kernel::Program& program) {
  const size_t regs = program.reg_names.size();
  std::vector<uint32_t> root(regs, kNoneYet);
  std::map<int64_t, uint32_t> fixed;  // parameter offsets and fixed addresses, numbered in first-seen order
  const auto number = [&](int64_t key) {
    const auto [it, added] = fixed.emplace(key, static_cast<uint32_t>(fixed.size() + 1));
    return it->second;
  };
  // What one definition gives its destination, from the roots known so far.
  const auto defines = [&](const kernel::Instruction& in) -> uint32_t {
    if (in.op == Opcode::Ld && in.space == kernel::StateSpace::Param && in.src[0].kind == Operand::Kind::Addr &&
        in.src[0].reg == kernel::kNoReg)
      return number(in.src[0].imm);  // a kernel parameter
    if (!carries_pointer(in.op)) return kMixed;
    uint32_t r = kNoneYet;
    bool any_pointer = false;
    for (int i = 0; i < in.num_src; ++i) {
      const Operand& o = in.src[i];
      if (o.kind != Operand::Kind::Reg || o.reg >= regs) continue;
      const uint32_t s = root[o.reg];
      if (s == kNoneYet || s == kMixed) continue;  // an offset, or not known yet
      if (any_pointer && s != r) return kMixed;    // two different bases
      r = s;
      any_pointer = true;
    }
    if (any_pointer) return r;
    // mov/cvta of a fixed address (a variable's): a base of its own.
    if ((in.op == Opcode::Mov || in.op == Opcode::Cvta) && in.num_src == 1 && in.src[0].kind == Operand::Kind::Imm &&
        kernel::type_bits(in.type) >= 32)
      return number(-1 - in.src[0].imm);
    return kNoneYet;  // plain integer arithmetic: no pointer yet
  };
  // Registers may have several definitions (loop counters, pointers bumped each trip): iterate
  // until nothing changes. Each register's root only moves from none to a root to mixed.
  for (bool changed = true; changed;) {
    changed = false;
    for (const kernel::Instruction& in : program.code) {
      if (in.dst.kind != Operand::Kind::Reg || in.dst.reg >= regs || in.op == Opcode::St || in.op == Opcode::Red)
        continue;
      const uint32_t next = join(root[in.dst.reg], defines(in));
      if (next != root[in.dst.reg]) {
        root[in.dst.reg] = next;
        changed = true;
      }
    }
  }
  std::vector<uint32_t> out(program.code.size(), kUnknownRoot);
  for (size_t pc = 0; pc < program.code.size(); ++pc) {
    const kernel::Instruction& in = program.code[pc];
    if (in.op != Opcode::Ld && in.op != Opcode::St && in.op != Opcode::Atom && in.op != Opcode::Red) continue;
    const Operand& a = in.src[0];  // the address, for loads, stores and atomics alike
    if (a.kind != Operand::Kind::Addr) continue;
    if (a.reg == kernel::kNoReg) out[pc] = number(-1 - a.imm);
    else if (a.reg < regs && root[a.reg] != kNoneYet) out[pc] = root[a.reg];
  }
  return out;
}

}  // namespace gpusim::core
