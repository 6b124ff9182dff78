// libFuzzer target: the PTX parser (lexer, declarations, instructions, operands, labels,
// CFG and reconvergence points). Seeds: the checked-in validate/kernels/*.ptx.
#include "frontend/ptx_parser.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gpusim::fuzz::text_of(data, size);
  return gpusim::fuzz::expect_clean_error([&] { gpusim::frontend::parse_ptx(text, "fuzz.ptx"); });
}
