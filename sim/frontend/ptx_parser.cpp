#include "frontend/ptx_parser.hpp"

#include "frontend/ptx_parser_state.hpp"

namespace gpusim::frontend {
namespace ptx {

Module Parser::parse() {
  Module module;
  module.file = file_;
  module_ = &module;
  while (peek().kind != Token::Kind::End) {
    const Token& t = peek();
    if (t.text == ".version" || t.text == ".target" || t.text == ".address_size") {
      skip_directive_line(t.line);
    } else if (t.text == ".visible" || t.text == ".extern" || t.text == ".weak") {
      next();  // linkage: every name is resolved within this module
    } else if (t.text == ".entry" || t.text == ".func") {
      parse_unit(t.text == ".func");
    } else if (t.text == ".global" || t.text == ".const" || t.text == ".shared") {
      parse_module_variable();
    } else if (t.text == ".file") {
      parse_file_directive();
    } else if (t.text == ".section") {  // debug sections (-lineinfo): .section .debug_str { ... }
      skip_directive_line(t.line);
      if (peek().text == "{") pos_ = matching_brace(pos_) + 1;
    } else if (t.text == ".loc" || t.text == ".pragma") {
      skip_directive_line(t.line);
    } else {
      fail(t, "unexpected '" + t.text + "' at module level");
    }
  }
  link(module);
  return module;
}

int64_t Parser::integer() {
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

// [.align N] [.TYPE] [qualifiers] NAME[dims]: what variables and parameters share.
Parser::VarDecl Parser::parse_declarator() {
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
  return v;
}

Parser::VarDecl Parser::parse_var_decl() {
  VarDecl v = parse_declarator();
  const uint64_t elem = static_cast<uint64_t>(std::max(1, type_bits(v.type) / 8));
  if (accept("=")) {
    const bool list = accept("{");
    do {
      const bool negative = accept("-");
      const Token& at = next();
      if (at.kind != Token::Kind::Number)
        fail(at, "initialiser '" + at.text + "': only numbers are supported (not addresses of variables)");
      const int64_t value = immediate_bits(at, negative, v.type);
      for (uint64_t b = 0; b < elem; ++b) v.init.push_back(static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * b)));
    } while (list && accept(","));
    if (list) expect("}");
  }
  expect(";");
  return v;
}

void Parser::parse_module_variable() {
  const Token& at = next();
  const StateSpace space = at.text == ".shared" ? StateSpace::Shared
                           : at.text == ".const" ? StateSpace::Const
                                                 : StateSpace::Global;
  VarDecl v = parse_var_decl();
  if (space == StateSpace::Shared) {
    declare_shared(v);
    module_symbols_[v.name] = symbols_[v.name];
    return;
  }
  ModuleVariable mv;
  mv.name = v.name;
  mv.space = space;
  module_next_address_ = align_up(module_next_address_, std::max<uint64_t>(v.align, 16));
  mv.address = variable_base_ + module_next_address_;
  mv.size = std::max<uint64_t>(v.size, 1);
  if (mv.address + mv.size > kGlobalHeapBase)
    fail(at, "module variable '" + v.name + "' does not fit the " + std::to_string((kGlobalHeapBase - kModuleGlobalBase) >> 20) +
                 " MB gpusim gives __device__ and __constant__ variables");
  mv.init = std::move(v.init);
  module_next_address_ += mv.size;
  module_symbols_[mv.name] = {space, mv.address};
  module_->variables.push_back(std::move(mv));
}

void Parser::parse_reg_decl(Program& p) {
  next();  // .reg
  const DataType type = parse_type(word().substr(1));
  if (type == DataType::None) fail(peek(), "unknown register type");
  do {
    const std::string base = word();
    if (accept("<")) {
      const int64_t n = integer();
      if (n < 0 || n > kMaxRegisters || p.reg_names.size() + static_cast<size_t>(n) > kMaxRegisters)
        fail(peek(), "more than " + std::to_string(kMaxRegisters) + " registers declared in one kernel or function");
      expect(">");
      for (int64_t i = 0; i < n; ++i) declare_register(p, base + std::to_string(i), type);
    } else {
      declare_register(p, base, type);
    }
  } while (accept(","));
  expect(";");
}

// .file N "path"[, timestamp, size]: the source file .loc lines name by number.
void Parser::parse_file_directive() {
  const int line = next().line;
  const int64_t n = peek().kind == Token::Kind::Number ? integer() : -1;
  if (n >= 0 && n < 65536 && peek().kind == Token::Kind::String) {
    if (source_files_.size() <= static_cast<size_t>(n)) source_files_.resize(static_cast<size_t>(n) + 1);
    source_files_[static_cast<size_t>(n)] = next().text;
  }
  while (peek().kind != Token::Kind::End && peek().line == line) next();
}

void Parser::declare_shared(const VarDecl& v) {
  symbols_[v.name] = {StateSpace::Shared, 0, false, static_cast<int32_t>(shared_vars_.size()), static_cast<uint32_t>(v.size)};
  shared_vars_.push_back(v);
}

Symbol Parser::frame_variable(Program& p, const VarDecl& v, StateSpace space) {
  p.local_bytes = static_cast<uint32_t>(align_up(p.local_bytes, std::max<uint64_t>(v.align, 1)));
  Symbol s{space, p.local_bytes, unit_->is_function, -1, static_cast<uint32_t>(v.size)};
  p.local_bytes += static_cast<uint32_t>(v.size);
  symbols_[v.name] = s;
  return s;
}

size_t Parser::matching_brace(size_t open) const {
  int depth = 0;
  for (size_t i = open; i + 1 < toks_.size(); ++i) {
    if (toks_[i].kind != Token::Kind::Punct) continue;
    if (toks_[i].text == "{") ++depth;
    if (toks_[i].text == "}" && --depth == 0) return i;
  }
  fail(toks_.back(), "unexpected end of file (a missing ';' or '}'?)");
}

// .entry NAME (params) [directives] { body }   or
// .func [(.param ret)] NAME [(params)] [directives] ( ; | { body } )
void Parser::parse_unit(bool is_function) {
  next();  // .entry / .func
  Unit u;
  u.is_function = is_function;
  u.prog.file = file_;
  unit_ = &u;
  regs_.clear();
  pred_regs_.clear();
  labels_.clear();
  label_refs_.clear();
  symbols_ = module_symbols_;
  loc_file_ = 0;
  loc_line_ = 0;
  parse_signature(u);
  while (peek().text != "{" && peek().text != ";") {  // .maxntid 256, 1, 1 / .noreturn and the like
    if (peek().kind == Token::Kind::End) fail(peek(), is_function ? "missing function body" : "missing kernel body");
    next();
  }
  if (accept(";")) {  // a prototype: defined later in this module, or provided (vprintf), or missing
    if (!is_function) fail(peek(), "kernel " + u.prog.name + " has no body");
  } else {
    u.defined = true;
    const size_t close = matching_brace(pos_);
    try {
      parse_body(u);
    } catch (const InputError& e) {
      // One kernel's (or function's) unsupported feature does not break its siblings.
      u.error = e.what();
      u.error_file = loc_file_;
      u.error_line = loc_line_;
      pos_ = close + 1;
    }
  }
  unit_ = nullptr;
  for (Unit& existing : units_)
    if (existing.prog.name == u.prog.name && existing.is_function == is_function) {
      if (u.defined) existing = std::move(u);
      return;
    }
  units_.push_back(std::move(u));
}

void Parser::parse_signature(Unit& u) {
  Program& p = u.prog;
  // Parameters: a kernel's in its parameter buffer, a function's (and its result) in its frame.
  const auto param_list = [&](bool result) {
    do {
      expect(".param");
      const VarDecl v = parse_declarator();
      if (u.is_function) {
        const Symbol s = frame_variable(p, v, StateSpace::Local);
        if (result) {
          u.ret_offset = static_cast<uint32_t>(s.address);
          u.ret_bytes = s.size;
        } else {
          u.params.emplace_back(static_cast<uint32_t>(s.address), s.size);
        }
        continue;
      }
      Param param;
      param.name = v.name;
      param.type = v.type;
      param.size = static_cast<uint32_t>(v.size);
      p.param_bytes = static_cast<uint32_t>(align_up(p.param_bytes, v.align));
      param.offset = p.param_bytes;
      p.param_bytes += param.size;
      symbols_[param.name] = {StateSpace::Param, param.offset, false, -1, param.size};
      p.params.push_back(param);
    } while (accept(","));
    expect(")");
  };
  if (u.is_function && accept("(")) param_list(true);
  p.name = word();
  if (accept("(") && !accept(")")) param_list(false);
}

void Parser::parse_body(Unit& u) {
  Program& p = u.prog;
  parse_block(p);
  for (const LabelRef& ref : label_refs_) {
    const auto it = labels_.find(ref.label);
    if (it == labels_.end()) throw InputError(file_ + ":" + std::to_string(ref.line) + ": unknown label '" + ref.label + "'");
    p.code[ref.instruction].src[0].imm = it->second;
  }
}

void Parser::parse_block(Program& p) {
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
      declare_shared(parse_var_decl());
    } else if (t.text == ".local" || t.text == ".param") {
      // .param inside a body: a call's argument or result, in the caller's frame
      next();
      frame_variable(p, parse_var_decl(), StateSpace::Local);
    } else if (t.text == ".pragma") {
      next();
      while (!accept(";")) nounroll_ |= next().text == "nounroll";
    } else if (t.text == ".loc") {  // .loc FILE LINE COLUMN[, function_name ..., inlined_at ...]
      const int line = t.line;
      next();
      const int64_t file = peek().kind == Token::Kind::Number ? integer() : 0;
      const int64_t source_line = peek().kind == Token::Kind::Number && peek().line == line ? integer() : 0;
      if (file > 0 && file < 65536 && source_line > 0 && source_line < INT32_MAX) {
        loc_file_ = static_cast<uint16_t>(file);
        loc_line_ = static_cast<int32_t>(source_line);
      }
      const std::pair<int64_t, int64_t> here{file, source_line};
      // Code inlined from a header: the outermost call site (usually the user's line) is the
      // one to show, following earlier .loc lines' inlined_at to it.
      while (peek().kind != Token::Kind::End && peek().line == line) {
        if (next().text != "inlined_at" || peek().kind != Token::Kind::Number) continue;
        std::pair<int64_t, int64_t> at{integer(), 0};
        if (peek().kind == Token::Kind::Number) at.second = integer();
        inlined_at_[here] = at;
        for (int hops = 0; hops < 16 && inlined_at_.contains(at); ++hops) at = inlined_at_[at];
        if (at.first > 0 && at.first < 65536 && at.second > 0 && at.second < INT32_MAX) {
          loc_file_ = static_cast<uint16_t>(at.first);
          loc_line_ = static_cast<int32_t>(at.second);
        }
      }
    } else if (t.text == ".file") {
      parse_file_directive();
    } else if (t.kind == Token::Kind::Word && peek(1).text == ":") {
      labels_[t.text] = static_cast<int64_t>(p.code.size());
      next();
      next();
    } else {
      parse_instruction(p);
    }
  }
}

}  // namespace ptx

kernel::Module parse_ptx(const std::string& text, const std::string& file, uint64_t variable_base) {
  return ptx::Parser(text, file, variable_base).parse();
}

kernel::Module parse_ptx_file(const std::string& path, uint64_t variable_base) {
  std::ifstream in(path);
  if (!in) throw util::InputError(path + ": cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_ptx(ss.str(), path, variable_base);
}

}  // namespace gpusim::frontend
