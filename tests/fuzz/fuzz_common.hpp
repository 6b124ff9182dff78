// What every fuzz target does with an exception: a user-facing error (util::InputError,
// exec::ExecError, the expression parser's std::invalid_argument) is the right answer to a
// bad input; anything else escapes, and libFuzzer reports it as a crash, as it does a signal,
// a sanitizer finding, a leak or a hang.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "exec/exec_error.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::fuzz {

template <typename F>
int expect_clean_error(F&& body) {
  try {
    body();
  } catch (const util::InputError&) {
  } catch (const exec::ExecError&) {
  }
  return 0;
}

inline std::string text_of(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

}  // namespace gpusim::fuzz
