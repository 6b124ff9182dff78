// Reads configs/*.yaml into an ArchConfig through the parameters the components declare
// (util/params.hpp): a file may name a `base:` file and state only what differs; keys it
// does not state take the base's value or the declared default; unknown or duplicate
// keys, wrong types, values out of range and broken cross-field rules are errors that
// name the file, the line and the key.
#pragma once

#include <string>
#include <vector>

#include "arch/arch_config.hpp"
#include "util/params.hpp"

namespace gpusim::arch {

// Throws util::InputError ("file:line: key: reason") on any problem. Each override
// "section.key=value" (from --set) is the most derived setting and is checked exactly
// like the file; it must name a declared parameter. `origins`, when given, receives
// where every value came from.
ArchConfig load_arch_config(const std::string& path, const std::vector<std::string>& overrides = {},
                            params::Origins* origins = nullptr);

// The same with the file's text given (nullptr: read `path`); for fuzzing and tests.
ArchConfig load_arch_config_text(const std::string* text, const std::string& path,
                                 const std::vector<std::string>& overrides = {}, params::Origins* origins = nullptr);

// Every declared parameter with its current value (for `gpusim params`).
std::vector<params::ParamInfo> describe_arch(const ArchConfig& config);

}  // namespace gpusim::arch
