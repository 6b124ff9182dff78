// libFuzzer target: workload expressions (+ - * / %, parentheses, parameters). Seeds: the
// expressions of the bundled workloads (tests/fuzz/corpus/expression/).
#include <stdexcept>

#include "fuzz_common.hpp"
#include "workload/expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gpusim::fuzz::text_of(data, size);
  const gpusim::workload::Params params = {{"n", 1 << 20}, {"block", 256}, {"nx", -7}};
  try {
    gpusim::workload::evaluate(text, params);
  } catch (const std::invalid_argument&) {  // what the loader turns into file:line: key: reason
  }
  return 0;
}
