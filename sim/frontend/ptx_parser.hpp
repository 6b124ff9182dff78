// Parses the PTX that nvcc emits into kernel::Module: every .entry decoded into the
// instruction IR with registers numbered, labels resolved, parameters, shared and
// local variables laid out, and reconvergence points computed.
#pragma once

#include <string>

#include "kernel/ir.hpp"

namespace gpusim::frontend {

// Throws util::InputError: "file:line: instruction text: reason" for anything the
// simulator does not support, naming it.
kernel::Module parse_ptx(const std::string& text, const std::string& file);
kernel::Module parse_ptx_file(const std::string& path);

}  // namespace gpusim::frontend
