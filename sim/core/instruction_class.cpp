#include "core/instruction_class.hpp"

#include <algorithm>
#include <bit>

#include "core/pointer_roots.hpp"
#include "core/static_stalls.hpp"
#include "core/ptxas_fusion.hpp"
#include "kernel/cfg.hpp"

namespace gpusim::core {

using kernel::DataType;
using kernel::Opcode;
using kernel::Operand;

const char* unit_name(Unit u) {
  switch (u) {
    case Unit::Fp32: return "fp32";
    case Unit::Int32: return "int32";
    case Unit::Fp64: return "fp64";
    case Unit::Sfu: return "sfu";
    case Unit::LoadStore: return "load_store";
    case Unit::Branch: return "branch";
    case Unit::Count: break;
  }
  return "?";
}

namespace {

Unit unit_of(const kernel::Instruction& in) {
  switch (in.op) {
    case Opcode::Ld: case Opcode::St: case Opcode::Atom: case Opcode::Red: case Opcode::Shfl:
      return Unit::LoadStore;
    case Opcode::CpAsync:  // the copy is a load; committing and waiting are bookkeeping, as a branch
      return in.mode == static_cast<uint8_t>(kernel::CpAsyncMode::Copy) ? Unit::LoadStore : Unit::Branch;
    case Opcode::Bra: case Opcode::Ret: case Opcode::Exit: case Opcode::Call: case Opcode::Bar: case Opcode::Membar:
    case Opcode::WarpSync: case Opcode::Nanosleep: case Opcode::Trap:
      return Unit::Branch;
    case Opcode::Ex2: case Opcode::Lg2: case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Rcp: case Opcode::Sin:
    case Opcode::Cos:
      return in.type == DataType::F64 ? Unit::Fp64 : Unit::Sfu;
    case Opcode::Div:
      if (in.type == DataType::F32) return Unit::Sfu;  // a reciprocal and refinement on the SFU path
      break;
    default: break;
  }
  const DataType t = in.op == Opcode::Cvt ? std::max(in.type, in.type2) : in.type;
  if (t == DataType::F64) return Unit::Fp64;
  if (t == DataType::F32 || kernel::is_half(t))
    return Unit::Fp32;
  return Unit::Int32;
}

// Whether `in` writes register `reg` (a store's or reduction's dst is its address).
bool writes_register(const kernel::Instruction& in, uint32_t reg) {
  return in.dst.kind == Operand::Kind::Reg && in.dst.reg == reg && in.op != Opcode::St && in.op != Opcode::Red;
}

// The instruction before `pc` (in program order) that last wrote `reg`, if any.
const kernel::Instruction* last_writer(const kernel::Program& program, size_t pc, uint32_t reg) {
  for (size_t i = pc; i-- > 0;)
    if (writes_register(program.code[i], reg)) return &program.code[i];
  return nullptr;
}

// A special function ptxas wraps in a subnormal fix-up: FSETP on the input, a scaling FMUL
// before the MUFU and after it (rcp: two FSETPs and FSELs; validate/sass/kernels_nbody_parts.sass).
// Not where ptxas can see the input is at least the smallest normal: |x| plus a constant that
// is (math_funcs' rsqrtf(fabsf(v) + 1.0f) has none).
int range_fixup_slots(const kernel::Program& program, size_t pc) {
  const kernel::Instruction& in = program.code[pc];
  const bool fixed_up = in.op == Opcode::Rsqrt || in.op == Opcode::Ex2 || in.op == Opcode::Lg2 ||
                        in.op == Opcode::Sqrt || in.op == Opcode::Rcp;
  if (!fixed_up || in.type != DataType::F32 || in.ftz || in.rounding != kernel::Rounding::None) return 0;
  if (in.op != Opcode::Ex2 && in.src[0].kind == Operand::Kind::Reg) {
    const kernel::Instruction* def = last_writer(program, pc, in.src[0].reg);
    if (def && def->op == Opcode::Add && def->type == DataType::F32 && def->num_src == 2) {
      constexpr float kSmallestNormal = 1.17549435e-38f;
      for (int k = 0; k < 2; ++k) {
        const Operand& c = def->src[k];
        const Operand& x = def->src[1 - k];
        if (c.kind != Operand::Kind::Imm || x.kind != Operand::Kind::Reg) continue;
        const float value = std::bit_cast<float>(static_cast<uint32_t>(c.imm));
        const kernel::Instruction* abs = last_writer(program, static_cast<size_t>(def - program.code.data()), x.reg);
        if (value >= kSmallestNormal && abs && abs->op == Opcode::Abs) return 0;
      }
    }
  }
  return in.op == Opcode::Rcp ? 6 : 3;
}

// Whether the SASS of integer div/rem `pc` computes its divisor's reciprocal (I2F.U32.RP,
// MUFU.RCP, F2I and two IMADs) where it stands. ptxas hoists a loop-invariant divisor's out of
// the loop (micro_int_rem) and reuses one computed for an earlier division by the same
// register; a divisor the loop writes gets its own every trip (micro_int_rem_varying, and the
// 64-bit remainder's 32-bit fast path, whose divisor is a cvt inside the loop:
// validate/results/int_divide_sass_sm90.txt, validate/sass/kernels_micro.sass).
bool computes_reciprocal(const kernel::Program& program, size_t pc) {
  const kernel::Instruction& div = program.code[pc];
  if (div.src[1].kind != Operand::Kind::Reg) return false;  // a constant divisor: a multiply
  const uint32_t divisor = div.src[1].reg;
  // The innermost loop around pc: of the backward branches at or after it, the latest target.
  size_t head = 0, tail = 0;
  bool in_loop = false;
  for (size_t b = pc; b < program.code.size(); ++b) {
    const kernel::Instruction& br = program.code[b];
    if (br.op != Opcode::Bra || br.src[0].kind != Operand::Kind::Label || br.src[0].imm < 0) continue;
    const size_t target = static_cast<size_t>(br.src[0].imm);
    if (target <= pc && (!in_loop || target > head)) {
      head = target;
      tail = b;
      in_loop = true;
    }
  }
  const auto writes_divisor = [&](const kernel::Instruction& in) { return writes_register(in, divisor); };
  if (in_loop && std::none_of(program.code.begin() + static_cast<std::ptrdiff_t>(head),
                              program.code.begin() + static_cast<std::ptrdiff_t>(tail) + 1, writes_divisor))
    return false;
  // An earlier division by the same register (with no write between) reuses its reciprocal.
  for (size_t i = pc; i-- > head;) {
    const kernel::Instruction& in = program.code[i];
    if (writes_divisor(in)) return true;
    if ((in.op == Opcode::Div || in.op == Opcode::Rem) && in.type == div.type && in.src[1].kind == Operand::Kind::Reg &&
        in.src[1].reg == divisor)
      return false;
  }
  return true;
}

// 64-bit integer add/sub/multiply/compare: two dependent 32-bit SASS instructions.
bool is_wide_integer_pair(const kernel::Instruction& in) {
  if (kernel::type_bits(in.type) != 64 || in.type == DataType::F64) return false;
  switch (in.op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Setp: case Opcode::Min: case Opcode::Max: return true;
    case Opcode::Mul: return in.mode == static_cast<uint8_t>(kernel::MulMode::Lo);
    default: return false;
  }
}

int lanes_of(Unit u, const ExecutionUnits& units) {
  switch (u) {
    case Unit::Fp32: return units.fp32;
    case Unit::Int32: return units.int32;
    case Unit::Fp64: return units.fp64;
    case Unit::Sfu: return units.sfu;
    case Unit::LoadStore: return units.load_store;
    default: return 0;
  }
}

int latency_of(Unit u, const Latencies& l) {
  switch (u) {
    case Unit::Fp32: return l.fp32;
    case Unit::Int32: return l.int32;
    case Unit::Fp64: return l.fp64;
    case Unit::Sfu: return l.sfu;
    default: return 1;
  }
}

template <size_t N>
void add_reg(std::array<uint32_t, N>& list, size_t& n, uint32_t reg) {
  if (reg == kernel::kNoReg || n == N) return;
  if (std::find(list.begin(), list.begin() + static_cast<long>(n), reg) != list.begin() + static_cast<long>(n)) return;
  list[n++] = reg;
}

// Volta onward an SM sub-partition has two 16-lane pipes for integer work: the ALU (logic,
// shifts, compares, IADD3, LEA) and the FMA pipe, which runs IMAD beside FP32
// (validate/kernels/int_pipes.cu: shift-XOR chains and multiply-add chains run at 0.5 warp
// instructions per cycle each, half of each at 0.9). ptxas writes a plain add, move or left
// shift as IMAD.IADD / IMAD.MOV / IMAD.SHL where that balances the two (int_add: half of
// its adds), so those take whichever pipe is free first. Latency and occupancy stay the
// int32 class's.
void place_integer_work(const kernel::Instruction& in, bool sass_like, InstructionTiming& t) {
  if (in.op == Opcode::Mul || in.op == Opcode::Mad) {
    t.unit = Unit::Fp32;
    return;
  }
  if (!sass_like || kernel::type_bits(in.type) != 32 || in.carry != 0) return;
  const bool plain_add = (in.op == Opcode::Add || in.op == Opcode::Sub);
  const bool plain_move = in.op == Opcode::Mov && (in.src[0].kind == Operand::Kind::Reg || in.src[0].kind == Operand::Kind::Imm);
  const bool left_shift = in.op == Opcode::Shl && in.src[1].kind == Operand::Kind::Imm;
  if (plain_add || plain_move || left_shift) t.other_unit = Unit::Fp32;
}

// ptxas balances each basic block as a whole: it writes adds and moves as IMADs only where the
// ALU is the block's busiest pipe (int_add: every add is ALU work; an FFMA loop's counter add,
// or the address adds between SpMV's loads, stay IADD3: the FMA pipe or the load/store unit
// bounds those blocks, and the SASS has no IMAD.IADD there).
void balance_integer_pipes(const kernel::Program& program, std::vector<InstructionTiming>& timing) {
  const kernel::ControlFlowGraph cfg = kernel::build_cfg(program.code);
  for (const kernel::BasicBlock& b : cfg.blocks) {
    std::array<uint64_t, kUnitCount> busy{};
    for (int pc = b.first; pc <= b.last; ++pc) {
      const InstructionTiming& t = timing[static_cast<size_t>(pc)];
      busy[static_cast<size_t>(t.unit)] += t.occupancy;
    }
    const uint64_t alu = busy[static_cast<size_t>(Unit::Int32)];
    if (std::all_of(busy.begin(), busy.end(), [&](uint64_t other) { return other <= alu; }) &&
        alu > busy[static_cast<size_t>(Unit::Fp32)])
      continue;
    for (int pc = b.first; pc <= b.last; ++pc) timing[static_cast<size_t>(pc)].other_unit = Unit::Count;
  }
}

// The class of its own an instruction belongs to, if any.
const InstructionClass* own_class(const kernel::Instruction& in, const InstructionClasses& c) {
  switch (in.op) {
    case Opcode::Prmt: return &c.byte_permute;
    case Opcode::Shf: return &c.funnel_shift;
    case Opcode::Popc: case Opcode::Clz: case Opcode::Bfind: return &c.bit_scan;
    case Opcode::Redux: return &c.warp_reduce;
    case Opcode::Match: return &c.warp_match;
    default: break;
  }
  const DataType t = in.op == Opcode::Cvt ? DataType::None : in.type;
  if (kernel::is_half(t) && in.op != Opcode::Ld && in.op != Opcode::St && in.op != Opcode::Atom && in.op != Opcode::Red &&
      in.op != Opcode::Mov)
    return &c.half;
  return nullptr;
}

// Orders memory for the whole warp or leaves the code: nothing moves across it, in ptxas's
// unrolling or in the warp's set-aside instructions.
bool orders_memory(Opcode op) {
  switch (op) {
    case Opcode::Bar: case Opcode::Membar: case Opcode::Atom: case Opcode::Red: case Opcode::Call: case Opcode::Ret:
    case Opcode::Exit:
      return true;
    default:
      return false;
  }
}

// How many trips of the loop closed by the backward branch at `pc` ptxas unrolls into one
// body (validate/sass_structure.py on the SASS of 52 loops: it unrolls 4 times more exactly
// the small, straight, counted loops): `unroll` for a body of one basic block of at most
// kUnrollBody instructions, with no barrier, atomic or call, whose branch tests a counter
// stepped by a constant, and not marked nounroll; 1 for any other loop.
int unroll_trips(const kernel::Program& program, size_t pc, int unroll) {
  constexpr size_t kUnrollBody = 32;
  const kernel::Instruction& branch = program.code[pc];
  if (unroll <= 1 || branch.src[0].kind != Operand::Kind::Label || branch.src[0].imm < 0 ||
      static_cast<size_t>(branch.src[0].imm) > pc || branch.guard == kernel::kNoReg)
    return 1;
  const size_t start = static_cast<size_t>(branch.src[0].imm);
  if (pc - start + 1 > kUnrollBody) return 1;
  if (program.code[start].nounroll) return 1;
  const kernel::Instruction* test = nullptr;
  for (size_t i = start; i < pc; ++i) {
    const kernel::Instruction& in = program.code[i];
    if (in.op == Opcode::Bra || orders_memory(in.op)) return 1;
    if (in.op == Opcode::Setp && in.dst.kind == Operand::Kind::Reg && in.dst.reg == branch.guard) test = &in;
  }
  if (!test) return 1;
  // The counter: a register the test reads that the body steps by a constant.
  for (int k = 0; k < test->num_src; ++k) {
    if (test->src[k].kind != Operand::Kind::Reg) continue;
    for (size_t i = start; i < pc; ++i) {
      const kernel::Instruction& in = program.code[i];
      if ((in.op == Opcode::Add || in.op == Opcode::Sub) && in.dst.kind == Operand::Kind::Reg &&
          in.dst.reg == test->src[k].reg && in.num_src == 2 && in.src[1].kind == Operand::Kind::Imm)
        return unroll;
    }
  }
  return 1;
}

}  // namespace

// IMAD.WIDE's 64-bit result: ptxas counts 2 cycles more than a 32-bit IMAD's (core/ptxas_fusion.hpp).
constexpr int kWideHighHalf = 2;

// latencies.compare is what a guard or a branch waits for a compare's predicate; an instruction
// that reads it as an operand (SEL, PLOP3, a combining ISETP) waits the integer latency, as
// ptxas counts: ISETP -> SEL 4 and ISETP -> ISETP 4 in the corpus's SASS, against 13 to a guard.
void read_predicates_as_data(const kernel::Program& program, const Latencies& latencies,
                             std::vector<InstructionTiming>& out) {
  std::vector<bool> compared(program.reg_wide.size(), false);
  for (const kernel::Instruction& in : program.code)
    if (in.op == Opcode::Setp) {
      if (in.dst.kind == Operand::Kind::Reg && in.dst.reg < compared.size()) compared[in.dst.reg] = true;
      if (in.dst2.kind == Operand::Kind::Reg && in.dst2.reg < compared.size()) compared[in.dst2.reg] = true;
    }
  for (size_t pc = 0; pc < program.code.size(); ++pc) {
    const kernel::Instruction& in = program.code[pc];
    InstructionTiming& t = out[pc];
    if (t.is_control) continue;
    for (uint32_t r : t.reads) {
      if (r == kernel::kNoReg) break;
      if (r == in.guard || r >= compared.size() || !compared[r]) continue;
      t.early_reg = r;
      t.early_by = static_cast<uint16_t>(latencies.compare - latencies.int32);
      break;
    }
  }
}

std::vector<InstructionTiming> classify_program(const kernel::Program& program, const ClassifierConfig& config) {
  std::vector<InstructionTiming> out;
  out.reserve(program.code.size());
  const std::vector<uint32_t> roots = pointer_roots(program);
  const int schedulers = config.schedulers;
  for (const kernel::Instruction& in : program.code) {
    InstructionTiming t;
    const InstructionClass* own = own_class(in, config.classes);
    t.unit = own ? own->unit : unit_of(in);
    t.is_memory = t.unit == Unit::LoadStore;
    t.needs_mshr = (in.op == Opcode::Ld || in.op == Opcode::Atom) &&
                   (in.space == kernel::StateSpace::Global || in.space == kernel::StateSpace::Local ||
                    in.space == kernel::StateSpace::Generic);
    t.is_barrier = in.op == Opcode::Bar;
    if (in.op == Opcode::CpAsync) {
      static constexpr AsyncRole kRoles[] = {AsyncRole::Copy, AsyncRole::Commit, AsyncRole::Wait, AsyncRole::WaitAll};
      t.async = kRoles[in.mode];
      t.needs_mshr = t.async == AsyncRole::Copy;
      if (t.async == AsyncRole::Wait) t.async_allowed = static_cast<uint8_t>(std::min<int64_t>(in.src[0].imm, 255));
    }
    t.is_control = t.unit == Unit::Branch;
    if (t.unit == Unit::Fp64 && config.units.fp64 == 0) t.unit = Unit::Fp32;  // no FP64 unit: emulated on FP32 (CC 1.0)
    const int lanes = lanes_of(t.unit, config.units);
    // A warp instruction occupies its unit for warp_size / (lanes per scheduler) cycles.
    t.occupancy = lanes == 0 ? kUnitTicks
                             : static_cast<uint32_t>((int64_t{config.warp_size} * schedulers * kUnitTicks + lanes - 1) / lanes);
    t.latency = static_cast<uint16_t>(t.is_control ? 1 : latency_of(t.unit, config.latencies));
    if (own && own->latency > 0) t.latency = static_cast<uint16_t>(own->latency);
    if (in.op == Opcode::Match) t.per_value = static_cast<uint16_t>(config.classes.warp_match_per_value);
    t.rare = in.op == Opcode::CpAsync || in.op == Opcode::Match || in.op == Opcode::Nanosleep;
    t.hoist_fence = orders_memory(in.op) || in.op == Opcode::Trap || in.op == Opcode::WarpSync || t.rare ||
                    kernel::reads_clock(in);
    t.is_store = in.op == Opcode::St && !in.call_abi;
    t.passes_stores = in.op == Opcode::Ld && (in.cache_op == kernel::CacheOp::NonCoherent || in.call_abi ||
                                             in.space == kernel::StateSpace::Const || in.space == kernel::StateSpace::Param);
    t.space = in.space;
    t.root = roots[out.size()];
    if ((in.op == Opcode::Div || in.op == Opcode::Rem) && t.unit == Unit::Int32) {
      t.latency = static_cast<uint16_t>(config.latencies.int_divide);
      t.issue_slots = static_cast<uint16_t>(config.latencies.int_divide_slots);
      const bool reciprocal_modelled =
          config.latencies.int_divide_reciprocal > 0 || config.latencies.int_divide_reciprocal_slots > 0;
      if (reciprocal_modelled && computes_reciprocal(program, out.size())) {
        t.latency = static_cast<uint16_t>(t.latency + config.latencies.int_divide_reciprocal);
        t.issue_slots = static_cast<uint16_t>(t.issue_slots + config.latencies.int_divide_reciprocal_slots);
      }
    } else if (const int fixup = config.sass_like && config.latencies.sfu_range_fixup > 0
                                     ? range_fixup_slots(program, out.size()) : 0) {
      t.latency = static_cast<uint16_t>(t.latency + config.latencies.sfu_range_fixup);
      t.issue_slots = static_cast<uint16_t>(t.issue_slots + fixup);
    } else if (t.unit == Unit::Int32 && config.sass_like && is_wide_integer_pair(in)) {
      // The integer datapath is 32 bits: SASS does this as a low and a high half, the high
      // one waiting for the low one's carry or comparison.
      t.latency = static_cast<uint16_t>(2 * t.latency);
      t.issue_slots = 2;
    }
    // A predicate is read later than a register: ISETP and FSETP carry a stall of 13 before
    // the branch or guarded instruction that reads theirs (validate/probes/branch_cost.py).
    if (in.op == Opcode::Setp && config.latencies.compare > 0 && t.unit != Unit::Fp64)
      t.latency = static_cast<uint16_t>(config.latencies.compare + (t.issue_slots > 1 ? config.latencies.int32 : 0));
    if (t.unit == Unit::Int32 && !own && config.units.int_multiply_on_fp32) place_integer_work(in, config.sass_like, t);
    // A branch to the next instruction (a predicated if-then's, core/ptxas_predication.hpp)
    // is no instruction in SASS.
    if (config.sass_like && in.op == Opcode::Bra && in.guard == kernel::kNoReg &&
        in.src[0].imm == static_cast<int64_t>(out.size()) + 1) {
      t.issue_slots = 0;
      t.latency = 0;
      t.occupancy = 0;
    }
    // A bit cast (mov.b32 between a float and an integer register, as NVVM writes
    // __float_as_int and a shuffled float) is no instruction: SASS has one register file
    // (spmv_csr_vector's shuffle reduction: SHFL, FADD, SHFL; the model issued two moves a step).
    if (config.sass_like && in.op == Opcode::Mov && (in.type == DataType::B32 || in.type == DataType::B64) &&
        in.src[0].kind == Operand::Kind::Reg) {
      t.issue_slots = 0;
      t.latency = 0;
      t.occupancy = 0;
    }
    // A constant or parameter at a fixed address is an operand in SASS (c[bank][offset]) or a
    // uniform load (ULDC.64) beside the load/store unit: it takes an issue slot but no
    // load/store time (micro_const_operands: 128 taps from constant memory run as fast as the
    // FFMAs and ULDCs alone, not at the load/store unit's one warp per 4 cycles).
    if (config.sass_like && in.op == Opcode::Ld &&
        (in.space == kernel::StateSpace::Const || in.space == kernel::StateSpace::Param) &&
        in.src[0].kind == Operand::Kind::Addr && in.src[0].reg == kernel::kNoReg && !in.src[0].frame)
      t.occupancy = 0;
    t.reads.fill(kernel::kNoReg);
    t.writes.fill(kernel::kNoReg);
    size_t nr = 0, nw = 0;
    kernel::for_each_register_read(in, [&](uint32_t r) { add_reg(t.reads, nr, r); });
    kernel::for_each_register_written(in, [&](uint32_t r) { add_reg(t.writes, nw, r); });
    out.push_back(t);
  }
  for (size_t pc = 0; pc < program.code.size(); ++pc) {
    const kernel::Instruction& in = program.code[pc];
    if (in.op != Opcode::Bra) continue;
    out[pc].unroll_trips = static_cast<uint8_t>(unroll_trips(program, pc, config.ptxas_unroll));
    out[pc].closes_loop = in.src[0].kind == Operand::Kind::Label && in.src[0].imm >= 0 && static_cast<size_t>(in.src[0].imm) <= pc;
  }
  if (config.sass_like)
    fuse_like_ptxas(program, out, config.units.int_multiply_on_fp32, config.latencies.int32 + kWideHighHalf);
  if (config.sass_like && config.units.int_multiply_on_fp32) balance_integer_pipes(program, out);
  if (config.latencies.compare > config.latencies.int32) read_predicates_as_data(program, config.latencies, out);
  if (config.static_stalls) set_static_stalls(program, out);
  for (InstructionTiming& t : out) {
    t.reads_mask = register_mask(t.reads);
    t.writes_mask = register_mask(t.writes);
  }
  return out;
}

}  // namespace gpusim::core
