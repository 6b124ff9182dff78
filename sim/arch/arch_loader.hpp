// Reads configs/*.yaml into an ArchConfig, enforcing the schema: every key required
// unless documented optional, no unknown keys, types and ranges checked, and the
// cross-field rules (e.g. max warps x warp size = max threads) verified.
#pragma once

#include <string>
#include <vector>

#include "arch/arch_config.hpp"

namespace gpusim::arch {

// Throws util::InputError ("file:line: key: reason") on any problem. Each override
// "section.key=value" (from --set) replaces an existing value before validation, so
// an override is checked exactly like the file.
ArchConfig load_arch_config(const std::string& path, const std::vector<std::string>& overrides = {});

}  // namespace gpusim::arch
