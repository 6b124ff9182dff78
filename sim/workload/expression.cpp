#include "workload/expression.hpp"

#include <cctype>
#include <limits>
#include <stdexcept>

#include "util/yaml_reader.hpp"

namespace gpusim::workload {
namespace {

// Recursive descent over: expr = term {(+|-) term}; term = unary {(*|/|%) unary};
// unary = -unary | primary; primary = number | name | ( expr ).
class Parser {
 public:
  Parser(const std::string& text, const Params& params) : s_(text), params_(params) {}

  int64_t parse() {
    const int64_t v = expr();
    skip_space();
    if (pos_ != s_.size()) fail("unexpected '" + std::string(1, s_[pos_]) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::invalid_argument(why + " in '" + util::clipped(s_) + "'");
  }

  // Nesting (parentheses, unary minus) is bounded, so that no input can exhaust the stack.
  static constexpr int kMaxDepth = 200;
  struct Depth {
    explicit Depth(Parser& p) : p(p) {
      if (++p.depth_ > kMaxDepth) p.fail("nested more than " + std::to_string(kMaxDepth) + " deep");
    }
    ~Depth() { --p.depth_; }
    Parser& p;
  };

  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }

  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  static int64_t checked(__int128 v, const Parser& p) {
    if (v > std::numeric_limits<int64_t>::max() || v < std::numeric_limits<int64_t>::min()) p.fail("overflow");
    return static_cast<int64_t>(v);
  }

  int64_t expr() {
    int64_t v = term();
    for (;;) {
      if (eat('+')) v = checked(static_cast<__int128>(v) + term(), *this);
      else if (eat('-')) v = checked(static_cast<__int128>(v) - term(), *this);
      else return v;
    }
  }

  int64_t term() {
    int64_t v = unary();
    for (;;) {
      skip_space();
      const char op = pos_ < s_.size() ? s_[pos_] : '\0';
      if (op != '*' && op != '/' && op != '%') return v;
      ++pos_;
      const int64_t rhs = unary();
      if (op == '*') {
        v = checked(static_cast<__int128>(v) * rhs, *this);
      } else {
        if (rhs == 0) fail("division by zero");
        if (rhs == -1 && v == std::numeric_limits<int64_t>::min()) fail("overflow");
        v = op == '/' ? v / rhs : v % rhs;
      }
    }
  }

  int64_t unary() {
    const Depth guard(*this);
    if (eat('-')) return checked(-static_cast<__int128>(unary()), *this);
    return primary();
  }

  int64_t primary() {
    skip_space();
    if (eat('(')) {
      const int64_t v = expr();
      if (!eat(')')) fail("missing ')'");
      return v;
    }
    if (pos_ >= s_.size()) fail("expression ends early");
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      __int128 v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        v = v * 10 + (s_[pos_++] - '0');
        checked(v, *this);
      }
      return static_cast<int64_t>(v);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      const std::string name = s_.substr(start, pos_ - start);
      const auto it = params_.find(name);
      if (it == params_.end()) fail("unknown parameter '" + name + "'");
      return it->second;
    }
    fail("unexpected '" + std::string(1, c) + "'");
  }

  const std::string& s_;
  int depth_ = 0;
  const Params& params_;
  size_t pos_ = 0;
};

}  // namespace

int64_t evaluate(const std::string& text, const Params& params) { return Parser(text, params).parse(); }

}  // namespace gpusim::workload
