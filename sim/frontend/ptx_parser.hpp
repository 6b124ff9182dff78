// Parses the PTX that nvcc emits into kernel::Module: every .entry decoded into the
// instruction IR with registers numbered, labels resolved, parameters, shared and
// local variables laid out, and reconvergence points computed.
#pragma once

#include <string>

#include "kernel/ir.hpp"

namespace gpusim::frontend {

// Throws util::InputError: "file:line: instruction text: reason" for anything the
// simulator does not support, naming it.
// Module variables are placed from `variable_base`: a second module of the same program
// (a workload whose launches use several .cu files) goes after the first's.
kernel::Module parse_ptx(const std::string& text, const std::string& file,
                         uint64_t variable_base = kernel::kModuleGlobalBase);
kernel::Module parse_ptx_file(const std::string& path, uint64_t variable_base = kernel::kModuleGlobalBase);

}  // namespace gpusim::frontend
