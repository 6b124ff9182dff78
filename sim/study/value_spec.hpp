// The values a study factor (or a ranged `--set`) takes, written as
//   a list           300,400,500        or a YAML sequence [300, 400, 500]
//   a linear range   300:800:100        START:STOP[:STEP], both ends included (STEP 1 by default)
//   a geometric one  1024:262144:*4     START:STOP:*FACTOR, each value FACTOR times the last
// or a single value. Values stay text: the parameter's declaration decides what they mean.
#pragma once

#include <string>
#include <vector>

namespace gpusim::study {

// Expands `text`; throws util::InputError with `what` (the flag or file:line: key) in front
// when a range is malformed, empty or has more than `max_values` values. A value starting
// with '[' or '{' is one YAML value, never split.
std::vector<std::string> expand_values(const std::string& what, const std::string& text, size_t max_values = 100000);

// True when `text` names more than one value (a list or a range), as `--set` tells them apart.
bool is_multi_value(const std::string& text);

// The number a value text stands for, when it is one.
bool as_number(const std::string& text, double& out);

}  // namespace gpusim::study
