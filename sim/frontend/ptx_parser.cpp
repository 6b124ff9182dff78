#include "frontend/ptx_parser.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "frontend/ptx_lexer.hpp"
#include "frontend/ptx_opcode.hpp"
#include "kernel/cfg.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::frontend {

using namespace gpusim::kernel;
using util::InputError;

namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

const std::map<std::string, SpecialReg, std::less<>>& special_regs() {
  static const std::map<std::string, SpecialReg, std::less<>> m = {
      {"%tid.x", SpecialReg::TidX},         {"%tid.y", SpecialReg::TidY},         {"%tid.z", SpecialReg::TidZ},
      {"%ntid.x", SpecialReg::NtidX},       {"%ntid.y", SpecialReg::NtidY},       {"%ntid.z", SpecialReg::NtidZ},
      {"%ctaid.x", SpecialReg::CtaidX},     {"%ctaid.y", SpecialReg::CtaidY},     {"%ctaid.z", SpecialReg::CtaidZ},
      {"%nctaid.x", SpecialReg::NctaidX},   {"%nctaid.y", SpecialReg::NctaidY},   {"%nctaid.z", SpecialReg::NctaidZ},
      {"%laneid", SpecialReg::LaneId},      {"%warpid", SpecialReg::WarpId},      {"%nwarpid", SpecialReg::NWarpId},
      {"%smid", SpecialReg::SmId},          {"%nsmid", SpecialReg::NSmId},        {"%clock", SpecialReg::Clock},
      {"%clock64", SpecialReg::Clock64},    {"%globaltimer", SpecialReg::GlobalTimer},
      {"%lanemask_eq", SpecialReg::LanemaskEq}, {"%lanemask_lt", SpecialReg::LanemaskLt},
      {"%lanemask_le", SpecialReg::LanemaskLe}, {"%lanemask_gt", SpecialReg::LanemaskGt},
      {"%lanemask_ge", SpecialReg::LanemaskGe}};
  return m;
}

struct Symbol {
  StateSpace space;
  uint64_t address;  // shared/local: offset in the block's/thread's window; param: offset; global: absolute
  bool dynamic_shared = false;  // `.extern .shared x[]`: placed after all static shared variables
};

struct LabelRef {
  size_t instruction;
  std::string label;
  int line;
};

class Parser {
 public:
  Parser(const std::string& text, const std::string& file) : toks_(tokenize_ptx(text, file)), file_(file) {}

  Module parse() {
    Module module;
    module.file = file_;
    module_ = &module;
    while (peek().kind != Token::Kind::End) {
      const Token& t = peek();
      if (t.text == ".version" || t.text == ".target" || t.text == ".address_size") {
        skip_directive_line(t.line);
      } else if (t.text == ".visible" || t.text == ".extern" || t.text == ".weak") {
        next();
        if (peek().text == ".shared" || peek().text == ".global" || peek().text == ".const") parse_module_variable();
      } else if (t.text == ".entry") {
        module.kernels.push_back(parse_entry());
      } else if (t.text == ".func") {
        fail(t, ".func (a non-inlined device function) is not supported");
      } else if (t.text == ".global" || t.text == ".const" || t.text == ".shared") {
        parse_module_variable();
      } else if (t.text == ".file" || t.text == ".loc" || t.text == ".section") {
        skip_directive_line(t.line);
      } else {
        fail(t, "unexpected '" + t.text + "' at module level");
      }
    }
    return module;
  }

 private:
  // ---- tokens ----
  const Token& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  const Token& next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  bool accept(const std::string& text) {
    if (peek().text != text || peek().kind == Token::Kind::String) return false;
    ++pos_;
    return true;
  }
  const Token& expect(const std::string& text) {
    if (peek().text != text) fail(peek(), "expected '" + text + "', found '" + peek().text + "'");
    return next();
  }
  [[noreturn]] void fail(const Token& at, const std::string& why) const {
    throw InputError(file_ + ":" + std::to_string(at.line) + ": " + why);
  }
  void skip_directive_line(int line) {
    next();
    while (peek().kind != Token::Kind::End && peek().line == line && peek().text != ";") next();
    accept(";");
  }
  std::string word() {
    if (peek().kind != Token::Kind::Word) fail(peek(), "expected a name, found '" + peek().text + "'");
    return next().text;
  }
  int64_t integer() {
    const Token& t = next();
    bool negative = false;
    const Token* tok = &t;
    if (t.text == "-") {
      negative = true;
      tok = &next();
    }
    if (tok->kind != Token::Kind::Number) fail(*tok, "expected a number, found '" + tok->text + "'");
    std::string text = tok->text;
    if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.pop_back();
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 0);
    if (*end != '\0' || errno == ERANGE) fail(*tok, "bad integer '" + tok->text + "'");
    return negative ? -v : v;
  }

  // ---- declarations ----
  struct VarDecl {
    std::string name;
    DataType type = DataType::B8;
    uint64_t align = 1;
    uint64_t size = 0;
    bool unsized = false;
    std::vector<uint8_t> init;
  };

  VarDecl parse_var_decl() {
    VarDecl v;
    while (peek().kind == Token::Kind::Word && peek().text[0] == '.') {
      const std::string d = next().text;
      if (d == ".align") v.align = static_cast<uint64_t>(integer());
      else if (const DataType t = parse_type(d.substr(1)); t != DataType::None) v.type = t;
      else if (d == ".v2" || d == ".v4") fail(peek(), "vector variables are not supported");
    }
    v.name = word();
    const uint64_t elem = static_cast<uint64_t>(std::max(1, type_bits(v.type) / 8));
    uint64_t count = 1;
    while (accept("[")) {
      if (accept("]")) {
        v.unsized = true;
        continue;
      }
      count *= static_cast<uint64_t>(integer());
      expect("]");
    }
    v.size = elem * count;
    v.align = std::max(v.align, elem);
    if (accept("=")) {
      const bool list = accept("{");
      do {
        const int64_t value = integer();
        for (uint64_t b = 0; b < elem; ++b) v.init.push_back(static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * b)));
      } while (list && accept(","));
      if (list) expect("}");
    }
    expect(";");
    return v;
  }

  void parse_module_variable() {
    const Token& at = next();
    const StateSpace space = at.text == ".shared" ? StateSpace::Shared
                             : at.text == ".const" ? StateSpace::Const
                                                   : StateSpace::Global;
    VarDecl v = parse_var_decl();
    if (space == StateSpace::Shared) {
      module_shared_.push_back(v);
      return;
    }
    ModuleVariable mv;
    mv.name = v.name;
    mv.space = space;
    module_next_address_ = align_up(module_next_address_, std::max<uint64_t>(v.align, 16));
    mv.address = kModuleGlobalBase + module_next_address_;
    mv.size = std::max<uint64_t>(v.size, 1);
    mv.init = std::move(v.init);
    module_next_address_ += mv.size;
    module_symbols_[mv.name] = {space, mv.address};
    module_->variables.push_back(std::move(mv));
  }

  void parse_reg_decl(Program& p) {
    next();  // .reg
    const DataType type = parse_type(word().substr(1));
    if (type == DataType::None) fail(peek(), "unknown register type");
    do {
      const std::string base = word();
      if (accept("<")) {
        const int64_t n = integer();
        expect(">");
        for (int64_t i = 0; i < n; ++i) declare_register(p, base + std::to_string(i), type);
      } else {
        declare_register(p, base, type);
      }
    } while (accept(","));
    expect(";");
  }

  void declare_register(Program& p, const std::string& name, DataType type) {
    if (regs_.contains(name)) return;  // nested scopes may redeclare temporaries
    regs_[name] = static_cast<uint32_t>(p.reg_names.size());
    p.reg_names.push_back(name);
    const bool wide = type_bits(type) > 32;
    p.reg_wide.push_back(wide);
    p.reg_slot.push_back(wide ? p.wide_regs++ : p.narrow_regs++);
  }

  // ---- entries ----
  Program parse_entry() {
    next();  // .entry
    Program p;
    p.file = file_;
    p.name = word();
    regs_.clear();
    labels_.clear();
    label_refs_.clear();
    symbols_ = module_symbols_;
    shared_top_ = 0;
    for (const VarDecl& v : module_shared_) place_shared(p, v);
    expect("(");
    if (!accept(")")) {
      do {
        expect(".param");
        uint64_t align = 0;
        DataType type = DataType::B8;
        while (peek().text[0] == '.') {
          const std::string d = next().text;
          if (d == ".align") align = static_cast<uint64_t>(integer());
          else if (d == ".ptr" || d == ".global" || d == ".const" || d == ".shared" || d == ".local") continue;
          else type = parse_type(d.substr(1));
        }
        Param param;
        param.name = word();
        param.type = type;
        uint64_t count = 1;
        while (accept("[")) {
          count *= static_cast<uint64_t>(integer());
          expect("]");
        }
        const uint64_t elem = static_cast<uint64_t>(std::max(1, type_bits(type) / 8));
        param.size = static_cast<uint32_t>(elem * count);
        p.param_bytes = static_cast<uint32_t>(align_up(p.param_bytes, std::max(align, elem)));
        param.offset = p.param_bytes;
        p.param_bytes += param.size;
        symbols_[param.name] = {StateSpace::Param, param.offset};
        p.params.push_back(param);
      } while (accept(","));
      expect(")");
    }
    while (peek().text != "{") {  // performance directives: .maxntid 256, 1, 1 and the like
      if (peek().kind == Token::Kind::End) fail(peek(), "missing kernel body");
      next();
    }
    parse_block(p);
    for (const LabelRef& ref : label_refs_) {
      const auto it = labels_.find(ref.label);
      if (it == labels_.end()) throw InputError(file_ + ":" + std::to_string(ref.line) + ": unknown label '" + ref.label + "'");
      p.code[ref.instruction].src[0].imm = it->second;
    }
    p.static_shared_bytes = static_cast<uint32_t>(shared_top_);
    p.dynamic_shared_offset = static_cast<uint32_t>(align_up(shared_top_, 16));
    assign_reconvergence_points(p);
    return p;
  }

  void place_shared(Program& p, const VarDecl& v) {
    if (v.unsized) {
      p.uses_dynamic_shared = true;
      symbols_[v.name] = {StateSpace::Shared, 0, true};
      return;
    }
    shared_top_ = align_up(shared_top_, v.align);
    symbols_[v.name] = {StateSpace::Shared, shared_top_};
    shared_top_ += v.size;
  }

  // A symbol's address; dynamic shared arrays start where static shared memory ends
  // (nvcc declares every variable before the first instruction).
  uint64_t symbol_address(const Symbol& s) const { return s.dynamic_shared ? align_up(shared_top_, 16) : s.address; }

  void parse_block(Program& p) {
    expect("{");
    while (!accept("}")) {
      const Token& t = peek();
      if (t.kind == Token::Kind::End) fail(t, "missing '}'");
      if (t.text == "{") {
        parse_block(p);
      } else if (t.text == ".reg") {
        parse_reg_decl(p);
      } else if (t.text == ".shared" || (t.text == ".extern" && peek(1).text == ".shared")) {
        if (t.text == ".extern") next();
        next();
        place_shared(p, parse_var_decl());
      } else if (t.text == ".local") {
        next();
        const VarDecl v = parse_var_decl();
        p.local_bytes = static_cast<uint32_t>(align_up(p.local_bytes, v.align));
        symbols_[v.name] = {StateSpace::Local, p.local_bytes};
        p.local_bytes += static_cast<uint32_t>(v.size);
      } else if (t.text == ".pragma") {
        next();
        while (!accept(";")) next();
      } else if (t.text == ".loc" || t.text == ".file") {
        skip_directive_line(t.line);
      } else if (t.kind == Token::Kind::Word && peek(1).text == ":") {
        labels_[t.text] = static_cast<int64_t>(p.code.size());
        next();
        next();
      } else {
        parse_instruction(p);
      }
    }
  }

  // ---- instructions ----
  uint32_t reg_index(const Token& t) const {
    const auto it = regs_.find(t.text);
    if (it == regs_.end()) fail(t, "undeclared register '" + t.text + "'");
    return it->second;
  }

  // A number operand as raw bits of the instruction's type.
  int64_t immediate_bits(const Token& t, bool negative, DataType type) const {
    const std::string& s = t.text;
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
    return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  }

  Operand parse_operand(const Instruction& in) {
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
        o.imm = static_cast<int64_t>(symbol_address(sym->second));
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
    o.imm = static_cast<int64_t>(symbol_address(sym->second));
    return o;
  }

  void parse_instruction(Program& p) {
    Instruction in;
    const int line = peek().line;
    in.line = line;
    if (accept("@")) {
      in.guard_negated = accept("!");
      const Token& g = next();
      in.guard = reg_index(g);
    }
    const Token& op = next();
    if (op.kind != Token::Kind::Word) fail(op, "expected an instruction, found '" + op.text + "'");
    if (const std::string why = decode_opcode(op.text, in); !why.empty()) fail(op, op.text + ": " + why + ": not supported");
    const OperandShape shape = operand_shape(in);
    std::vector<Operand> ops;
    const std::string bra_label = in.op == Opcode::Bra ? peek().text : "";
    while (!accept(";")) {
      if (peek().kind == Token::Kind::End) fail(peek(), "missing ';'");
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
    validate(in, op);
    p.code.push_back(in);
  }

  void validate(const Instruction& in, const Token& at) const {
    const auto bad = [&](const std::string& why) { fail(at, at.text + ": " + why + ": not supported"); };
    if (in.op == Opcode::Ld && in.dst.kind != Operand::Kind::Reg && in.dst.kind != Operand::Kind::Vec)
      bad("destination must be a register");
    if ((in.op == Opcode::Ld || in.op == Opcode::Atom) && in.src[0].kind != Operand::Kind::Addr) bad("expected [address]");
    if ((in.op == Opcode::St || in.op == Opcode::Red) && in.src[0].kind != Operand::Kind::Addr) bad("expected [address]");
    if (in.op == Opcode::Bra && in.src[0].kind != Operand::Kind::Label) bad("expected a label");
    if (in.op == Opcode::Bar && in.src[0].kind != Operand::Kind::Imm && in.src[0].kind != Operand::Kind::Reg)
      bad("barrier id must be a number or register");
    if (in.type == DataType::F16) bad("half precision");
    if (in.dst.kind == Operand::Kind::Imm || in.dst.kind == Operand::Kind::Special) bad("destination is not a register");
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
  std::string file_;
  Module* module_ = nullptr;
  std::map<std::string, uint32_t, std::less<>> regs_;
  std::map<std::string, int64_t, std::less<>> labels_;
  std::vector<LabelRef> label_refs_;
  std::map<std::string, Symbol, std::less<>> symbols_;
  std::map<std::string, Symbol, std::less<>> module_symbols_;
  std::vector<VarDecl> module_shared_;
  uint64_t shared_top_ = 0;
  uint64_t module_next_address_ = 0;
};

}  // namespace

Module parse_ptx(const std::string& text, const std::string& file) { return Parser(text, file).parse(); }

Module parse_ptx_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_ptx(ss.str(), path);
}

}  // namespace gpusim::frontend
