#include "frontend/ptx_opcode.hpp"

#include <sstream>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpusim::frontend {

using namespace gpusim::kernel;

namespace {

const std::unordered_map<std::string_view, Opcode>& opcodes() {
  static const std::unordered_map<std::string_view, Opcode> m = {
      {"add", Opcode::Add},   {"sub", Opcode::Sub},     {"mul", Opcode::Mul},     {"mad", Opcode::Mad},
      {"fma", Opcode::Fma},   {"div", Opcode::Div},     {"rem", Opcode::Rem},     {"min", Opcode::Min},
      {"max", Opcode::Max},   {"abs", Opcode::Abs},     {"neg", Opcode::Neg},     {"and", Opcode::And},
      {"or", Opcode::Or},     {"xor", Opcode::Xor},     {"not", Opcode::Not},     {"cnot", Opcode::Cnot},
      {"shl", Opcode::Shl},   {"shr", Opcode::Shr},     {"popc", Opcode::Popc},   {"clz", Opcode::Clz},
      {"brev", Opcode::Brev}, {"bfe", Opcode::Bfe},     {"bfi", Opcode::Bfi},     {"setp", Opcode::Setp},
      {"selp", Opcode::Selp}, {"mov", Opcode::Mov},     {"cvt", Opcode::Cvt},     {"cvta", Opcode::Cvta},
      {"ld", Opcode::Ld},     {"ldu", Opcode::Ld},      {"st", Opcode::St},       {"atom", Opcode::Atom},
      {"red", Opcode::Red},   {"bar", Opcode::Bar},     {"barrier", Opcode::Bar}, {"membar", Opcode::Membar},
      {"fence", Opcode::Membar}, {"bra", Opcode::Bra},  {"ret", Opcode::Ret},     {"exit", Opcode::Exit},
      {"call", Opcode::Call}, {"addc", Opcode::Add},  {"subc", Opcode::Sub},    {"madc", Opcode::Mad},
      {"shfl", Opcode::Shfl}, {"vote", Opcode::Vote},   {"ex2", Opcode::Ex2},     {"lg2", Opcode::Lg2},
      {"sqrt", Opcode::Sqrt}, {"rsqrt", Opcode::Rsqrt}, {"rcp", Opcode::Rcp},     {"sin", Opcode::Sin},
      {"cos", Opcode::Cos},   {"copysign", Opcode::Copysign}, {"activemask", Opcode::Activemask},
      {"redux", Opcode::Redux}, {"match", Opcode::Match}, {"prmt", Opcode::Prmt}, {"nanosleep", Opcode::Nanosleep},
      {"bfind", Opcode::Bfind}, {"bmsk", Opcode::Bmsk}, {"cp", Opcode::CpAsync}, {"trap", Opcode::Trap}, {"shf", Opcode::Shf},
      {"griddepcontrol", Opcode::Membar},  // programmatic dependent launch: nothing to wait for here
  };
  return m;
}

const std::unordered_map<std::string_view, CmpOp>& compare_ops() {
  static const std::unordered_map<std::string_view, CmpOp> m = {
      {"eq", CmpOp::Eq},   {"ne", CmpOp::Ne},   {"lt", CmpOp::Lt},   {"le", CmpOp::Le},   {"gt", CmpOp::Gt},
      {"ge", CmpOp::Ge},   {"lo", CmpOp::Lo},   {"ls", CmpOp::Ls},   {"hi", CmpOp::Hi},   {"hs", CmpOp::Hs},
      {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu}, {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu}, {"gtu", CmpOp::Gtu},
      {"geu", CmpOp::Geu}, {"num", CmpOp::Num}, {"nan", CmpOp::Nan}};
  return m;
}

const std::unordered_map<std::string_view, AtomOp>& atom_ops() {
  static const std::unordered_map<std::string_view, AtomOp> m = {
      {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc}, {"dec", AtomOp::Dec},
      {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor}, {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas}};
  return m;
}

const std::unordered_map<std::string_view, Rounding>& roundings() {
  static const std::unordered_map<std::string_view, Rounding> m = {
      {"rn", Rounding::Rn},   {"rz", Rounding::Rz},   {"rm", Rounding::Rm},   {"rp", Rounding::Rp},
      {"rni", Rounding::Rni}, {"rzi", Rounding::Rzi}, {"rmi", Rounding::Rmi}, {"rpi", Rounding::Rpi}};
  return m;
}

// Modifiers that change nothing functionally here (caching, ordering, scope, alignment).
bool ignorable(std::string_view m) {
  static const std::string_view kIgnored[] = {"nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "volatile", "relaxed",
                                              "acquire", "release", "acq_rel", "sc", "gpu", "cta", "sys", "gl",
                                              "aligned", "full", "approx", "uni_target", "weak", "cluster",
                                              "noftz"};
  for (std::string_view k : kIgnored)
    if (m == k) return true;
  return m.find("::") != std::string_view::npos;  // L1::no_allocate, L2::128B, ...
}

std::vector<std::string> split_dots(const std::string& word) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(word);
  while (std::getline(in, part, '.')) parts.push_back(part);
  return parts;
}

}  // namespace

DataType parse_type(const std::string& s) {
  static const std::unordered_map<std::string_view, DataType> m = {
      {"pred", DataType::Pred}, {"b8", DataType::B8},   {"b16", DataType::B16}, {"b32", DataType::B32},
      {"b64", DataType::B64},   {"u8", DataType::U8},   {"u16", DataType::U16}, {"u32", DataType::U32},
      {"u64", DataType::U64},   {"s8", DataType::S8},   {"s16", DataType::S16}, {"s32", DataType::S32},
      {"s64", DataType::S64},   {"f16", DataType::F16}, {"f32", DataType::F32}, {"f64", DataType::F64},
      {"bf16", DataType::BF16}, {"f16x2", DataType::F16X2}, {"bf16x2", DataType::BF16X2}};
  const auto it = m.find(s);
  return it == m.end() ? DataType::None : it->second;
}

std::string decode_opcode(const std::string& word, Instruction& in) {
  const std::vector<std::string> parts = split_dots(word);
  const auto op = opcodes().find(parts[0]);
  if (op == opcodes().end()) return "unknown instruction '" + parts[0] + "'";
  in.op = op->second;
  if (parts[0] == "addc" || parts[0] == "subc" || parts[0] == "madc") in.carry = kCarryIn;
  if (in.op == Opcode::Mul || in.op == Opcode::Mad) in.mode = static_cast<uint8_t>(MulMode::Lo);
  bool have_type = false, bar_red = false;
  if (in.op == Opcode::CpAsync && (parts.size() < 2 || parts[1] != "async")) return "'" + word + "' (only cp.async is)";
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& m = parts[i];
    if (const DataType t = parse_type(m); t != DataType::None) {
      // cvt.DST.SRC and the like: the first type is the operation's, the second the source's.
      if (!have_type) in.type = t;
      else in.type2 = t;
      have_type = true;
      continue;
    }
    if (m == "global") {
      if (in.op != Opcode::CpAsync) in.space = StateSpace::Global;  // cp.async: the source's; the space is the destination's
      continue;
    }
    // shared::cta is the block's own; shared::cluster is the same window for a cluster of one block.
    if (m == "shared" || m == "shared::cta" || m == "shared::cluster") { in.space = StateSpace::Shared; continue; }
    if (m == "local") { in.space = StateSpace::Local; continue; }
    if (m == "const") { in.space = StateSpace::Const; continue; }
    if (m == "param") { in.space = StateSpace::Param; continue; }
    if (m == "v2" || m == "v4") { in.vec = static_cast<uint8_t>(m[1] - '0'); continue; }
    if (m == "ftz") { in.ftz = true; continue; }
    if (m == "ca") { in.cache_op = CacheOp::CacheAll; continue; }
    if (m == "cg") { in.cache_op = CacheOp::CacheGlobal; continue; }
    if (m == "cs") { in.cache_op = CacheOp::Streaming; continue; }
    if (m == "nc") { in.cache_op = CacheOp::NonCoherent; continue; }
    if (m == "sat") { in.sat = true; continue; }
    if (m == "cc" && (in.op == Opcode::Add || in.op == Opcode::Sub || in.op == Opcode::Mad)) {
      in.carry |= kCarryOut;
      continue;
    }
    if (const auto r = roundings().find(m); r != roundings().end()) { in.rounding = r->second; continue; }
    switch (in.op) {
      case Opcode::Mul:
      case Opcode::Mad:
        if (m == "lo") { in.mode = static_cast<uint8_t>(MulMode::Lo); continue; }
        if (m == "hi") { in.mode = static_cast<uint8_t>(MulMode::Hi); continue; }
        if (m == "wide") { in.mode = static_cast<uint8_t>(MulMode::Wide); continue; }
        break;
      case Opcode::Setp:
        if (const auto c = compare_ops().find(m); c != compare_ops().end() && !have_type) {
          in.mode = static_cast<uint8_t>(c->second);
          continue;
        }
        if (m == "and") { in.bool_op = BoolOp::And; continue; }
        if (m == "or") { in.bool_op = BoolOp::Or; continue; }
        if (m == "xor") { in.bool_op = BoolOp::Xor; continue; }
        break;
      case Opcode::Atom:
      case Opcode::Red:
        if (const auto a = atom_ops().find(m); a != atom_ops().end()) {
          in.mode = static_cast<uint8_t>(a->second);
          continue;
        }
        break;
      case Opcode::Bar:
        if (m == "warp") { in.op = Opcode::WarpSync; continue; }  // bar.warp.sync: __syncwarp
        if (m == "sync") { in.mode = static_cast<uint8_t>(BarMode::Sync); continue; }
        if (m == "arrive") { in.mode = static_cast<uint8_t>(BarMode::Arrive); continue; }
        if (m == "red") { bar_red = true; continue; }
        if (bar_red && m == "popc") { in.mode = static_cast<uint8_t>(BarMode::RedPopc); continue; }
        if (bar_red && m == "and") { in.mode = static_cast<uint8_t>(BarMode::RedAnd); continue; }
        if (bar_red && m == "or") { in.mode = static_cast<uint8_t>(BarMode::RedOr); continue; }
        break;
      case Opcode::CpAsync:
        if (i == 1) {
          if (m != "async") return "'cp." + m + "' (only cp.async is)";
          continue;
        }
        if (m == "commit_group") { in.mode = static_cast<uint8_t>(CpAsyncMode::CommitGroup); continue; }
        if (m == "wait_group") { in.mode = static_cast<uint8_t>(CpAsyncMode::WaitGroup); continue; }
        if (m == "wait_all") { in.mode = static_cast<uint8_t>(CpAsyncMode::WaitAll); continue; }
        if (m == "bulk") return "'cp.async.bulk' (the tensor memory accelerator)";
        if (m == "mbarrier") return "'cp.async.mbarrier' (mbarrier objects)";
        break;
      case Opcode::Bra:
      case Opcode::Call:
        if (m == "uni") { in.uniform = true; continue; }
        break;
      case Opcode::Cvta:
        if (m == "to") { in.mode = 1; continue; }  // cvta.to.SPACE: generic -> space
        break;
      case Opcode::Shfl:
        if (m == "sync") continue;
        if (m == "up") { in.mode = static_cast<uint8_t>(ShflMode::Up); continue; }
        if (m == "down") { in.mode = static_cast<uint8_t>(ShflMode::Down); continue; }
        if (m == "bfly") { in.mode = static_cast<uint8_t>(ShflMode::Bfly); continue; }
        if (m == "idx") { in.mode = static_cast<uint8_t>(ShflMode::Idx); continue; }
        break;
      case Opcode::Membar:
        if (parts[0] == "griddepcontrol" && (m == "wait" || m == "launch_dependents")) continue;
        break;
      case Opcode::Shf:
        if (m == "l") continue;
        if (m == "r") { in.mode |= kShfRight; continue; }
        if (m == "wrap") continue;
        if (m == "clamp") { in.mode |= kShfClamp; continue; }
        break;
      case Opcode::Bfind:
        if (m == "shiftamt") { in.mode = 1; continue; }
        break;
      case Opcode::Bmsk:
        if (m == "clamp") { in.mode = 0; continue; }
        if (m == "wrap") { in.mode = 1; continue; }
        break;
      case Opcode::WarpSync:
      case Opcode::Activemask:
        if (m == "sync") continue;
        break;
      case Opcode::Redux:
        if (m == "sync") continue;
        if (const auto a = atom_ops().find(m); a != atom_ops().end()) {
          in.mode = static_cast<uint8_t>(a->second);
          continue;
        }
        break;
      case Opcode::Match:
        if (m == "sync") continue;
        if (m == "any") { in.mode = static_cast<uint8_t>(MatchMode::Any); continue; }
        if (m == "all") { in.mode = static_cast<uint8_t>(MatchMode::All); continue; }
        break;
      case Opcode::Prmt: {
        static const char* const kModes[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
        bool found = false;
        for (uint8_t k = 1; k < 7; ++k)
          if (m == kModes[k]) in.mode = k, found = true;
        if (found) continue;
        break;
      }
      case Opcode::Vote:
        if (m == "sync") continue;
        if (m == "all") { in.mode = static_cast<uint8_t>(VoteMode::All); continue; }
        if (m == "any") { in.mode = static_cast<uint8_t>(VoteMode::Any); continue; }
        if (m == "uni") { in.mode = static_cast<uint8_t>(VoteMode::Uni); continue; }
        if (m == "ballot") { in.mode = static_cast<uint8_t>(VoteMode::Ballot); continue; }
        break;
      default:
        break;
    }
    if (ignorable(m)) continue;
    return "modifier '." + m + "' of '" + parts[0] + "'";
  }
  if (in.op == Opcode::Cvta && in.type == DataType::None) return "cvta needs a type";
  if ((in.op == Opcode::Atom || in.op == Opcode::Red) && in.type == DataType::None) return "atom needs a type";
  if (in.op == Opcode::Ld && parts[0] == "ldu" && in.space == StateSpace::Generic) in.space = StateSpace::Global;
  if (bar_red && in.mode < static_cast<uint8_t>(BarMode::RedPopc)) return "bar.red needs .popc, .and or .or";
  if (in.op == Opcode::CpAsync && in.mode == static_cast<uint8_t>(CpAsyncMode::Copy) &&
      (in.space != StateSpace::Shared || in.cache_op == CacheOp::Default))
    return "cp.async copies need .ca or .cg and .shared.global";
  return "";
}

OperandShape operand_shape(const Instruction& in) {
  switch (in.op) {
    case Opcode::Mad: case Opcode::Fma: case Opcode::Bfe: case Opcode::Selp: return {3, 3, true};
    case Opcode::Bfi: return {4, 4, true};
    case Opcode::Abs: case Opcode::Neg: case Opcode::Not: case Opcode::Cnot: case Opcode::Popc: case Opcode::Clz:
    case Opcode::Cvt: return {1, 2, true};  // cvt.rn.f16x2.f32 d, a, b packs two
    case Opcode::Brev: case Opcode::Mov: case Opcode::Cvta: case Opcode::Ex2: case Opcode::Lg2:
    case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Rcp: case Opcode::Sin: case Opcode::Cos:
      return {1, 1, true};
    case Opcode::Setp: return {2, 3, true};
    case Opcode::Ld: return {1, 1, true};
    case Opcode::St: return {2, 2, false};  // address, value
    case Opcode::Atom: return {2, 3, true};  // address, value[, value for cas]
    case Opcode::Red: return {2, 2, false};
    case Opcode::Bar:
      if (in.mode >= static_cast<uint8_t>(BarMode::RedPopc)) return {2, 3, true};  // d, id, [count,] predicate
      return {1, 2, false};
    case Opcode::CpAsync:
      switch (static_cast<CpAsyncMode>(in.mode)) {
        case CpAsyncMode::Copy: return {3, 5, false};  // [dst], [src], cp-size[, src-size or ignore-src][, cache-policy]
        case CpAsyncMode::WaitGroup: return {1, 1, false};
        default: return {0, 0, false};
      }
    case Opcode::Membar: case Opcode::Ret: case Opcode::Exit: case Opcode::Call: case Opcode::Trap: return {0, 0, false};
    case Opcode::Bra: return {1, 1, false};
    case Opcode::Shfl: return {4, 4, true};  // value, lane, clamp, membermask
    case Opcode::Vote: return {1, 2, true};  // predicate[, membermask]
    case Opcode::WarpSync: case Opcode::Nanosleep: return {1, 1, false};
    case Opcode::Activemask: return {0, 0, true};
    case Opcode::Redux: case Opcode::Match: return {2, 2, true};  // value, membermask
    case Opcode::Prmt: case Opcode::Shf: return {3, 3, true};
    case Opcode::Bfind: return {1, 1, true};
    default: return {2, 2, true};
  }
}

}  // namespace gpusim::frontend
