#include "frontend/ptx_lexer.hpp"

#include <cctype>

#include "util/yaml_reader.hpp"

namespace gpusim::frontend {
namespace {

bool word_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.'; }
bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.' || c == ':';
}

}  // namespace

std::vector<Token> tokenize_ptx(const std::string& s, const std::string& file) {
  std::vector<Token> out;
  int line = 1;
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) line += s[i++] == '\n';
      i += 2;
    } else if (c == '"') {
      const size_t start = ++i;
      while (i < n && s[i] != '"' && s[i] != '\n') ++i;
      out.push_back({Token::Kind::String, s.substr(start, i - start), line});
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      const size_t start = i;
      // Covers 12, 0x1F, 0f3F800000, 0d3FF0000000000000, 1.5e-3, 4U.
      while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' ||
                       ((s[i] == '-' || s[i] == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E') &&
                        !(s[start + 1] == 'x' || s[start + 1] == 'X' || s[start + 1] == 'f' || s[start + 1] == 'd'))))
        ++i;
      out.push_back({Token::Kind::Number, s.substr(start, i - start), line});
    } else if (word_start(c)) {
      const size_t start = i;
      while (i < n && word_char(s[i])) {
        // A ':' ends a label ("$L__BB0_1:") unless it is part of "::" (cache hints).
        if (s[i] == ':' && !(i + 1 < n && s[i + 1] == ':') && !(i > 0 && s[i - 1] == ':')) break;
        ++i;
      }
      out.push_back({Token::Kind::Word, s.substr(start, i - start), line});
    } else if (std::string_view("{}[]()<>,;:@!+-|=").find(c) != std::string_view::npos) {
      out.push_back({Token::Kind::Punct, std::string(1, c), line});
      ++i;
    } else {
      throw util::InputError(file + ":" + std::to_string(line) + ": unexpected character '" + std::string(1, c) + "'");
    }
  }
  out.push_back({Token::Kind::End, "", line});
  return out;
}

}  // namespace gpusim::frontend
