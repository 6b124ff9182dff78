// Instructions and their operands: opcode and modifiers decoded, operands resolved to
// registers, immediates, addresses and labels, and each instruction checked.
#include "frontend/ptx_parser_state.hpp"

#include <bit>

#include "exec/small_float.hpp"

namespace gpusim::frontend::ptx {

int64_t Parser::immediate_bits(const Token& t, bool negative, DataType type) const {
  const std::string& s = t.text;
  if ((type == DataType::F16 || type == DataType::BF16) && (s.find_first_of(".eE") != std::string::npos ||
                                                           (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')))) {
    // A float literal for a half or bfloat16 operand: the value, rounded to the format.
    const DataType wide = s[1] == 'f' || s[1] == 'F' ? DataType::F32 : DataType::F64;
    const double v = wide == DataType::F32 ? std::bit_cast<float>(static_cast<uint32_t>(immediate_bits(t, negative, wide)))
                                           : std::bit_cast<double>(immediate_bits(t, negative, wide));
    return exec::encode_small_float(v, exec::format_of(type));
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
    const uint64_t bits = std::strtoull(s.c_str() + 2, nullptr, 16);
    if (type == DataType::F64) {  // an f32 literal used with an f64 instruction
      float f;
      const uint32_t b32 = static_cast<uint32_t>(bits);
      std::memcpy(&f, &b32, 4);
      double d = negative ? -static_cast<double>(f) : f;
      int64_t out;
      std::memcpy(&out, &d, 8);
      return out;
    }
    return static_cast<int64_t>(negative ? bits ^ 0x80000000u : bits);
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
    const uint64_t bits = std::strtoull(s.c_str() + 2, nullptr, 16);
    return static_cast<int64_t>(negative ? bits ^ 0x8000000000000000ull : bits);
  }
  const bool looks_float = s.find_first_of(".eE") != std::string::npos && !(s.size() > 1 && (s[1] == 'x' || s[1] == 'X'));
  if (is_float(type) || looks_float) {
    const double d = (negative ? -1 : 1) * std::strtod(s.c_str(), nullptr);
    if (type == DataType::F64 || !is_float(type)) {
      int64_t out;
      std::memcpy(&out, &d, 8);
      return out;
    }
    const float f = static_cast<float>(d);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  std::string text = s;
  if (text.back() == 'U' || text.back() == 'u') text.pop_back();
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 0);
  if (*end != '\0' || errno == ERANGE) fail(t, "bad number '" + s + "'");
  return static_cast<int64_t>(negative ? 0 - v : v);  // unsigned: -9223372036854775808 is a valid literal
}

void Parser::use_symbol(Operand& o, const Symbol& sym) {
  o.imm = static_cast<int64_t>(sym.address);
  o.frame = sym.frame;
  if (sym.shared >= 0) operand_shared_.emplace_back(operand_index_, sym.shared);  // placed when linking
}

Operand Parser::parse_operand(const Instruction& in) {
  Operand o;
  const Token& t = peek();
  if (accept("[")) {
    o.kind = Operand::Kind::Addr;
    const Token& base = next();
    if (base.kind == Token::Kind::Number) {
      o.imm = immediate_bits(base, false, DataType::U64);
    } else if (regs_.contains(base.text)) {
      o.reg = reg_index(base);
    } else {
      const auto sym = symbols_.find(base.text);
      if (sym == symbols_.end()) fail(base, "unknown symbol '" + base.text + "'");
      use_symbol(o, sym->second);
      address_symbol_ = sym->second;
    }
    if (accept("+")) {
      const bool negative = accept("-");
      o.imm += immediate_bits(next(), negative, DataType::S64);
    } else if (accept("-")) {
      o.imm -= immediate_bits(next(), false, DataType::S64);
    }
    expect("]");
    return o;
  }
  if (accept("{")) {
    o.kind = Operand::Kind::Vec;
    do {
      const Token& r = next();
      if (o.count == 4) fail(r, "more than 4 vector elements");
      o.regs[o.count++] = r.text == "_" ? kNoReg : reg_index(r);
    } while (accept(","));
    expect("}");
    return o;
  }
  if (accept("!")) {
    o = parse_operand(in);
    o.negate = true;
    return o;
  }
  const bool negative = accept("-");
  const Token& v = next();
  if (v.kind == Token::Kind::Number) {
    o.kind = Operand::Kind::Imm;
    o.imm = immediate_bits(v, negative, in.op == Opcode::Cvt ? in.type2 : in.type);
    return o;
  }
  if (negative) fail(t, "unexpected '-'");
  if (v.kind != Token::Kind::Word) fail(v, "bad operand '" + v.text + "'");
  if (const auto sp = special_regs().find(v.text); sp != special_regs().end()) {
    o.kind = Operand::Kind::Special;
    o.special = sp->second;
    return o;
  }
  if (v.text == "WARP_SZ") {  // PTX's predefined constant
    o.kind = Operand::Kind::Imm;
    o.imm = 32;
    return o;
  }
  if (regs_.contains(v.text)) {
    o.kind = Operand::Kind::Reg;
    o.reg = reg_index(v);
    return o;
  }
  if (in.op == Opcode::Bra) {
    o.kind = Operand::Kind::Label;
    return o;
  }
  const auto sym = symbols_.find(v.text);
  if (sym == symbols_.end())
    fail(v, v.text[0] == '%' ? "undeclared register '" + v.text + "'" : "unknown symbol '" + v.text + "'");
  o.kind = Operand::Kind::Imm;  // a variable's address (offset in its window for shared/local)
  use_symbol(o, sym->second);
  return o;
}

void Parser::parse_instruction(Program& p) {
  Instruction in;
  const int line = peek().line;
  in.line = line;
  in.source_file = loc_file_;
  in.source_line = loc_line_;
  in.nounroll = nounroll_;
  nounroll_ = false;
  if (accept("@")) {
    in.guard_negated = accept("!");
    const Token& g = next();
    in.guard = reg_index(g);
  }
  const Token& op = next();
  if (op.kind != Token::Kind::Word) fail(op, "expected an instruction, found '" + op.text + "'");
  if (const std::string why = decode_opcode(op.text, in); !why.empty()) fail(op, op.text + ": " + why + ": not supported");
  if (in.op == Opcode::Call) return parse_call(p, in, op);
  const OperandShape shape = operand_shape(in);
  std::vector<Operand> ops;
  const std::string bra_label = in.op == Opcode::Bra ? peek().text : "";
  operand_shared_.clear();
  address_symbol_.reset();
  while (!accept(";")) {
    if (peek().kind == Token::Kind::End) fail(peek(), "missing ';'");
    operand_index_ = ops.size();
    ops.push_back(parse_operand(in));
    if (accept("|")) {  // setp p|q and shfl d|p: a second destination
      in.dst2 = parse_operand(in);
    }
    if (!accept(",")) {
      expect(";");
      break;
    }
  }
  const int dests = shape.has_dest ? 1 : 0;
  const int sources = static_cast<int>(ops.size()) - dests;
  if (sources < shape.min_sources || sources > shape.max_sources)
    fail(op, op.text + ": expected " + std::to_string(shape.min_sources + dests) + " operands, found " +
                 std::to_string(ops.size()));
  if (dests) in.dst = ops[0];
  for (int i = 0; i < sources; ++i) in.src[i] = ops[i + dests];
  in.num_src = static_cast<uint8_t>(sources);
  if (in.op == Opcode::Bra) label_refs_.push_back({p.code.size(), bra_label, line});
  for (const auto& [index, var] : operand_shared_)
    unit_->shared_refs.push_back({p.code.size(), dests && index == 0 ? 0 : static_cast<int>(index) - dests + 1, var});
  // ld/st.param of a call's argument or result, or of a device function's own parameters:
  // they live in the frame (local memory here; registers on the GPU, and timed so).
  if ((in.op == Opcode::Ld || in.op == Opcode::St) && in.space == StateSpace::Param && address_symbol_ &&
      address_symbol_->space == StateSpace::Local) {
    in.space = StateSpace::Local;
    in.call_abi = true;
  }
  if (in.op == Opcode::Ret) in.returns = unit_->is_function;
  if (in.op == Opcode::CpAsync && in.mode == static_cast<uint8_t>(CpAsyncMode::Copy)) {
    // .L2::cache_hint adds a cache-policy operand last: a hint, nothing to copy.
    if (op.text.find("cache_hint") != std::string::npos && in.num_src > 3) --in.num_src;
    // A predicate fourth operand is ignore-src (copy zeros when true); a number is src-size.
    const Operand& fourth = in.src[3];
    if (in.num_src > 3 && fourth.kind == Operand::Kind::Reg && pred_regs_.contains(p.reg_names[fourth.reg]))
      in.type2 = DataType::Pred;
    in.type = DataType::B8;
  }
  validate(in, op);
  p.code.push_back(in);
}

// call[.uni] [(result),] name [, (arg, ...)];
void Parser::parse_call(Program& p, Instruction& in, const Token& op) {
  PendingCall call;
  call.instruction = p.code.size();
  call.line = in.line;
  const auto frame_slot = [&](const Token& t) -> std::pair<uint32_t, uint32_t> {
    const auto sym = symbols_.find(t.text);
    if (sym == symbols_.end() || sym->second.space != StateSpace::Local)
      fail(t, "call: '" + t.text + "' is not a .param variable of this function");
    return {static_cast<uint32_t>(sym->second.address), sym->second.size};
  };
  if (accept("(")) {
    std::tie(call.ret_offset, call.ret_bytes) = frame_slot(next());
    expect(")");
    expect(",");
  }
  const Token& callee = next();
  if (callee.kind != Token::Kind::Word || regs_.contains(callee.text))
    fail(callee, "call through a function pointer (an indirect call) is not supported");
  call.callee = callee.text;
  if (accept(",")) {
    expect("(");
    if (!accept(")")) {
      do call.args.push_back(frame_slot(next()));
      while (accept(","));
      expect(")");
    }
    if (accept(",")) fail(peek(), "call through a function pointer (an indirect call) is not supported");
  }
  expect(";");
  (void)op;
  in.src[0].imm = static_cast<int64_t>(unit_->calls.size());  // the call site, once linked
  unit_->calls.push_back(std::move(call));
  p.code.push_back(in);
}

void Parser::validate(const Instruction& in, const Token& at) const {
  const auto bad = [&](const std::string& why) { fail(at, at.text + ": " + why + ": not supported"); };
  if (in.op == Opcode::Ld && in.dst.kind != Operand::Kind::Reg && in.dst.kind != Operand::Kind::Vec)
    bad("destination must be a register");
  if ((in.op == Opcode::Ld || in.op == Opcode::Atom) && in.src[0].kind != Operand::Kind::Addr) bad("expected [address]");
  if ((in.op == Opcode::St || in.op == Opcode::Red) && in.src[0].kind != Operand::Kind::Addr) bad("expected [address]");
  if (in.op == Opcode::Bra && in.src[0].kind != Operand::Kind::Label) bad("expected a label");
  if (in.op == Opcode::Bar && in.src[0].kind != Operand::Kind::Imm && in.src[0].kind != Operand::Kind::Reg)
    bad("barrier id must be a number or register");
  if (in.dst.kind == Operand::Kind::Imm || in.dst.kind == Operand::Kind::Special) bad("destination is not a register");
  if (in.op == Opcode::CpAsync && in.mode == static_cast<uint8_t>(CpAsyncMode::Copy)) {
    if (in.src[0].kind != Operand::Kind::Addr || in.src[1].kind != Operand::Kind::Addr) bad("expected [dst], [src]");
    const int64_t size = in.src[2].imm;
    if (in.src[2].kind != Operand::Kind::Imm || (size != 4 && size != 8 && size != 16))
      bad("the copy size must be 4, 8 or 16");
    if (in.cache_op == CacheOp::CacheGlobal && size != 16) bad("cp.async.cg copies 16 bytes");
    if (in.num_src > 3 && in.src[3].kind == Operand::Kind::Imm && (in.src[3].imm < 0 || in.src[3].imm > size))
      bad("src-size must be from 0 to the copy size");
  }
  if (in.op == Opcode::CpAsync && in.mode == static_cast<uint8_t>(CpAsyncMode::WaitGroup) &&
      in.src[0].kind != Operand::Kind::Imm)
    bad("wait_group takes a number");
}

}  // namespace gpusim::frontend::ptx
