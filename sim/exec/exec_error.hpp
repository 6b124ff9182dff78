// A fault in the simulated program (out-of-bounds access, undefined register, barrier
// deadlock, ...): reported with kernel, PC, PTX line, block and thread, never a crash.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace gpusim::exec {

class ExecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An address as messages give it: 0x1f00.
inline std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace gpusim::exec
