// Splits PTX text into tokens with line numbers; comments are dropped.
#pragma once

#include <string>
#include <vector>

namespace gpusim::frontend {

struct Token {
  enum class Kind { Word, Number, String, Punct, End };
  Kind kind = Kind::End;
  std::string text;  // Word: identifiers, directives, opcodes with modifiers, registers
  int line = 0;
};

// Throws util::InputError ("file:line: ...") on a character PTX does not use.
std::vector<Token> tokenize_ptx(const std::string& text, const std::string& file);

}  // namespace gpusim::frontend
