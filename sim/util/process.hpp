// Runs a program (no shell: arguments are quoted), capturing its stdout and stderr together.
#pragma once

#include <string>
#include <vector>

namespace gpusim::util {

// The exit status, or -1 when it could not be started or was killed by a signal.
int run_process(const std::vector<std::string>& argv, std::string& output);

}  // namespace gpusim::util
