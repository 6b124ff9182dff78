// Command-line numbers that may be a single value, a range START:STOP[:STEP] or
// START:STOP:*FACTOR (inclusive) or a comma list, as in `--threads 32:1024:32`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpusim::cli {

struct ValueList {
  std::vector<int64_t> values;
  bool is_range = false;  // more than a single value was asked for
};

// Throws util::InputError naming the option on malformed or negative input.
ValueList parse_value_list(const std::string& option, const std::string& text);

}  // namespace gpusim::cli
