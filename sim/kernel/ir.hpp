// The decoded instruction IR: PTX is parsed once into these compact structs (opcode
// enums, typed operands, register indices, resolved branch targets), so the
// execution path never touches strings or maps.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gpusim::kernel {

enum class Opcode : uint8_t {
  Add, Sub, Mul, Mad, Fma, Div, Rem, Min, Max, Abs, Neg,
  And, Or, Xor, Not, Cnot, Shl, Shr, Popc, Clz, Brev, Bfe, Bfi,
  Setp, Selp, Mov, Cvt, Cvta,
  Ld, St, Atom, Red,
  Bar, Membar, Bra, Ret, Exit, Call,
  Shfl, Vote,
  WarpSync, Activemask, Redux, Match, Prmt, Nanosleep, Bfind, Bmsk,
  Ex2, Lg2, Sqrt, Rsqrt, Rcp, Sin, Cos, Copysign,
  CpAsync, Trap, Shf,
};

const char* opcode_name(Opcode op);

enum class DataType : uint8_t {
  None, Pred, B8, B16, B32, B64, U8, U16, U32, U64, S8, S16, S32, S64, F16, F32, F64, BF16, F16X2, BF16X2
};

constexpr int type_bits(DataType t) {
  switch (t) {
    case DataType::None: return 0;
    case DataType::Pred: return 1;
    case DataType::B8: case DataType::U8: case DataType::S8: return 8;
    case DataType::B16: case DataType::U16: case DataType::S16: case DataType::F16: case DataType::BF16: return 16;
    case DataType::B32: case DataType::U32: case DataType::S32: case DataType::F32: case DataType::F16X2:
    case DataType::BF16X2: return 32;
    case DataType::B64: case DataType::U64: case DataType::S64: case DataType::F64: return 64;
  }
  return 0;
}
constexpr bool is_float(DataType t) {
  return t == DataType::F16 || t == DataType::F32 || t == DataType::F64 || t == DataType::BF16 || t == DataType::F16X2 ||
         t == DataType::BF16X2;
}
constexpr bool is_signed(DataType t) {
  return t == DataType::S8 || t == DataType::S16 || t == DataType::S32 || t == DataType::S64;
}
constexpr bool is_half(DataType t) {  // half and bfloat16, scalar and pairs
  return t == DataType::F16 || t == DataType::BF16 || t == DataType::F16X2 || t == DataType::BF16X2;
}
const char* type_name(DataType t);

enum class StateSpace : uint8_t { Generic, Global, Shared, Local, Const, Param };

// Per-opcode variant, in Instruction::mode.
enum class MulMode : uint8_t { Lo, Hi, Wide };
enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class AtomOp : uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
enum class MatchMode : uint8_t { Any, All };
// prmt's modes: the default selector, then .f4e .b4e .rc8 .ecl .ecr .rc16.
enum class PrmtMode : uint8_t { Default, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };
// shf's mode bits.
constexpr uint8_t kShfRight = 1, kShfClamp = 2;
enum class Rounding : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
// bar.red.popc/and/or: a block-wide barrier that also reduces a predicate over the block.
enum class BarMode : uint8_t { Sync, Arrive, RedPopc, RedAnd, RedOr };
// cp.async: the copy itself, then its group operations.
enum class CpAsyncMode : uint8_t { Copy, CommitGroup, WaitGroup, WaitAll };
// ld/st cache operators that change where data is cached.
enum class CacheOp : uint8_t { Default, CacheAll, CacheGlobal, Streaming, NonCoherent };

enum class SpecialReg : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  LaneId, WarpId, NWarpId, SmId, NSmId, Clock, Clock64, GlobalTimer,
  LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt, LanemaskGe,
  // The block's reserved shared memory (sm_80+; cooperative groups keep their scratch there).
  ReservedSmemBegin, ReservedSmemEnd, ReservedSmemCap, ReservedSmem0, ReservedSmem1,
};

constexpr uint32_t kNoReg = 0xFFFFFFFFu;
constexpr uint8_t kCarryIn = 1, kCarryOut = 2;

struct Operand {
  enum class Kind : uint8_t { None, Reg, Imm, Special, Addr, Vec, Label };
  Kind kind = Kind::None;
  bool negate = false;          // "!%p" predicate source
  bool frame = false;           // Imm/Addr: relative to the lane's call frame (a device function's locals and params)
  uint8_t count = 0;            // Vec: number of registers
  SpecialReg special = SpecialReg::TidX;
  uint32_t reg = kNoReg;        // Reg; Addr base register (kNoReg: absolute)
  std::array<uint32_t, 4> regs{kNoReg, kNoReg, kNoReg, kNoReg};  // Vec (kNoReg: "_" sink)
  int64_t imm = 0;              // Imm: raw bits in the instruction's type; Addr: offset; Label: target pc
};

struct Instruction {
  Opcode op = Opcode::Mov;
  DataType type = DataType::None;   // operation type
  DataType type2 = DataType::None;  // cvt: source type; setp/selp: none
  StateSpace space = StateSpace::Generic;
  uint8_t mode = 0;                 // MulMode, CmpOp, AtomOp, ShflMode, VoteMode, BarMode or cvta direction
  BoolOp bool_op = BoolOp::None;    // setp combine
  Rounding rounding = Rounding::None;
  bool ftz = false;
  bool sat = false;
  bool uniform = false;             // bra.uni
  uint8_t vec = 1;                  // ld/st vector width
  CacheOp cache_op = CacheOp::Default;
  bool call_abi = false;            // ld/st of a call's parameters: registers on the GPU, timed as such
  bool returns = false;             // ret: from a device function (not the kernel's end)
  bool nounroll = false;            // the first of a loop ptxas must not unroll (.pragma "nounroll")
  uint8_t carry = 0;                // add/sub/mad carry chains: kCarryIn (addc, subc, madc) | kCarryOut (.cc)
  uint8_t num_src = 0;
  uint32_t guard = kNoReg;          // predicate register guarding the instruction
  bool guard_negated = false;
  Operand dst;
  Operand dst2;                     // setp's second result (p|q)
  std::array<Operand, 4> src{};
  int32_t reconverge_pc = -1;       // bra: immediate post-dominator (program size = exit)
  int32_t line = 0;                 // PTX source line
  int32_t source_line = 0;          // CUDA source line (.loc, from nvcc -lineinfo); 0: unknown
  uint16_t source_file = 0;         // index in Program::source_files
};

// The registers an operand names: a register, an address's base, a vector's elements.
template <class F>
void for_each_register(const Operand& o, F f) {
  if ((o.kind == Operand::Kind::Reg || o.kind == Operand::Kind::Addr) && o.reg != kNoReg) f(o.reg);
  if (o.kind == Operand::Kind::Vec)
    for (int i = 0; i < o.count; ++i)
      if (o.regs[static_cast<size_t>(i)] != kNoReg) f(o.regs[static_cast<size_t>(i)]);
}
// The registers an instruction reads, in order: its guard, then its sources (a store's and a
// reduction's address and data are sources).
template <class F>
void for_each_register_read(const Instruction& in, F f) {
  if (in.guard != kNoReg) f(in.guard);
  for (int i = 0; i < in.num_src; ++i) for_each_register(in.src[static_cast<size_t>(i)], f);
}
// The registers it writes: its destinations (a store and a reduction write none).
template <class F>
void for_each_register_written(const Instruction& in, F f) {
  if (in.op == Opcode::St || in.op == Opcode::Red) return;
  for_each_register(in.dst, f);
  for_each_register(in.dst2, f);
}

// Reading a clock is volatile: it happens where the program put it (ptxas keeps it there, and
// the SM runs nothing ahead of it), or in-kernel timing would measure nothing. Any source
// operand may name a special register (nvcc writes a mov).
inline bool reads_clock(const Instruction& in) {
  for (int i = 0; i < in.num_src; ++i)
    if (const Operand& op = in.src[static_cast<size_t>(i)]; op.kind == Operand::Kind::Special &&
        (op.special == SpecialReg::Clock || op.special == SpecialReg::Clock64 || op.special == SpecialReg::GlobalTimer))
      return true;
  return false;
}

struct Param {
  std::string name;
  DataType type = DataType::None;
  uint32_t offset = 0;  // in the kernel's parameter buffer
  uint32_t size = 0;
};

// A device function linked into a kernel: its code is a range of the kernel's, its frame
// (locals, parameters, return value, outgoing call parameters) is on the thread's stack.
struct Function {
  std::string name;
  int32_t entry_pc = 0;
  uint32_t frame_bytes = 0;
  std::vector<std::pair<uint32_t, uint32_t>> params;  // (offset in the frame, bytes)
  uint32_t ret_offset = 0, ret_bytes = 0;
  uint32_t first_reg = 0, reg_count = 0;  // its registers, saved around a recursive call
  bool recursive = false;
};

// Stack bytes a call costs besides the callee's frame (return address, saved registers on the
// GPU): what the linker sizes stacks with and the executor allocates frames with; it also
// makes endless recursion of empty frames overflow.
constexpr uint32_t kCallOverhead = 16;

// Shared memory the driver reserves per block on sm_80 and later (cudaDevAttrReservedSharedMemoryPerBlock).
constexpr uint32_t kReservedSharedBytes = 1024;

// Functions the simulator provides (CUDA's device runtime).
enum class Builtin : int32_t { Vprintf = -1, AssertFail = -2 };

struct CallSite {
  int32_t callee = 0;  // index in Program::functions, or a Builtin
  uint32_t caller_frame_bytes = 0;
  std::vector<std::pair<uint32_t, uint32_t>> args;  // (offset in the caller's frame, bytes)
  uint32_t ret_offset = 0, ret_bytes = 0;           // where the result goes in the caller's frame
};

struct Program {
  std::string name;            // entry name
  std::string file;            // PTX file
  std::vector<Instruction> code;
  std::vector<std::string> reg_names;  // for messages only
  // Registers of 32 bits or fewer are stored in 32-bit slots, 64-bit ones in 64-bit slots:
  // half the memory for the common case. reg_slot is the index within its kind.
  std::vector<uint8_t> reg_wide;
  std::vector<uint32_t> reg_slot;
  uint32_t narrow_regs = 0, wide_regs = 0;
  std::vector<Param> params;
  uint32_t param_bytes = 0;
  uint32_t static_shared_bytes = 0;    // static .shared variables, laid out from 0
  uint32_t dynamic_shared_offset = 0;  // where `.extern .shared` arrays start
  uint32_t local_bytes = 0;            // per-thread local memory: the kernel's frame and the call stack
  uint32_t kernel_frame_bytes = 0;     // the kernel's own .local variables and call parameters
  bool uses_dynamic_shared = false;
  uint32_t reserved_shared_bytes = 0;  // the driver's reserved shared memory, when the kernel reads where it is
  std::vector<Function> functions;     // device functions this kernel reaches
  std::vector<CallSite> call_sites;    // call instructions: src[0].imm indexes this
  std::string unsupported;             // why this kernel cannot run (empty: it can)
  std::vector<std::string> source_files;  // the .cu files of .loc lines (PTX .file numbers)
};

// What makes a kernel's blocks or SMs meet other than through memory's contents, so that they
// must run in order: atomics that other blocks may see (their values depend on the order) and
// printf (its lines' order). An atomic on shared memory stays within its block (a cluster here
// is one block), so its order is its SM's alone; a generic address may be global.
inline bool is_atomic_beyond_block(const Instruction& in) {
  return (in.op == Opcode::Atom || in.op == Opcode::Red) && in.space != StateSpace::Shared;
}
// Those that SMs ticking in batches, or blocks run side by side, cannot hold back with their
// stores (exec/store_log.hpp): an atomic whose returned value the kernel reads, a
// compare-and-swap (two operands), and one on a generic address (it may name shared memory,
// which the log does not hold). The others, on global memory (red, and an atom whose
// destination no instruction reads: nvcc writes atom for an atomicAdd whose result is unused),
// are applied in the stores' order, as SMs ticking in order, or blocks run one after another,
// would apply them.
inline bool atomics_need_sm_order(const Program& p) {
  std::vector<bool> read;  // by register
  for (const Instruction& in : p.code)
    for_each_register_read(in, [&read](uint32_t r) {
      if (r >= read.size()) read.resize(r + 1);
      read[r] = true;
    });
  bool any = false;
  for (const Instruction& in : p.code) {
    if (!is_atomic_beyond_block(in)) continue;
    any = any || in.space != StateSpace::Global || static_cast<AtomOp>(in.mode) == AtomOp::Cas;
    if (in.op == Opcode::Atom) for_each_register(in.dst, [&](uint32_t r) { any = any || (r < read.size() && read[r]); });
  }
  return any;
}
// Why a kernel for which atomics_need_sm_order holds runs in order.
inline constexpr const char* kAtomicsNeedOrder =
    "its atomics on memory other blocks see return values it reads, compare and swap, or use generic addresses";
inline bool calls_printf(const Program& p) {
  for (const CallSite& site : p.call_sites)
    if (site.callee == static_cast<int32_t>(Builtin::Vprintf)) return true;
  return false;
}

}  // namespace gpusim::kernel

namespace gpusim::kernel {

// Fixed windows of the generic address space (cvta moves addresses between them).
constexpr uint64_t kModuleGlobalBase = 0x0800'0000ull;   // module .global/.const variables
constexpr uint64_t kGlobalHeapBase = 0x1000'0000ull;     // workload buffers
constexpr uint64_t kLocalWindow = 0x7E00'0000'0000ull;   // generic view of .local
constexpr uint64_t kSharedWindow = 0x7F00'0000'0000ull;  // generic view of .shared
constexpr uint64_t kWindowSize = 0x0100'0000'0000ull;

struct ModuleVariable {
  std::string name;
  StateSpace space = StateSpace::Global;
  uint64_t address = 0;  // absolute, from kModuleGlobalBase
  uint64_t size = 0;
  std::vector<uint8_t> init;  // initial bytes (zero when empty)
};

struct Module {
  std::string file;
  std::vector<Program> kernels;
  std::vector<ModuleVariable> variables;

  const Program* find(const std::string& entry) const {
    for (const Program& p : kernels)
      if (p.name == entry) return &p;
    return nullptr;
  }
};

}  // namespace gpusim::kernel
