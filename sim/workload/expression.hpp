// Integer expressions in workload files ("(n + 255) / 256"): numbers, parameter
// names, + - * / % with the usual precedence, unary minus and parentheses.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace gpusim::workload {

using Params = std::map<std::string, int64_t, std::less<>>;

// Throws std::invalid_argument with a short reason (caller adds file and line).
int64_t evaluate(const std::string& text, const Params& params);

}  // namespace gpusim::workload
