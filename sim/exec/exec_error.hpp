// A fault in the simulated program (out-of-bounds access, undefined register, barrier
// deadlock, ...): reported with kernel, PC, PTX line, block and thread, never a crash.
#pragma once

#include <stdexcept>
#include <string>

namespace gpusim::exec {

class ExecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gpusim::exec
