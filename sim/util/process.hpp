// Runs a program (no shell: arguments are quoted), capturing its stdout and stderr together.
#pragma once

#include <string>
#include <vector>

namespace gpusim::util {

// The exit status, or -1 when it could not be started or was killed by a signal.
int run_process(const std::vector<std::string>& argv, std::string& output);

// A tool's multi-line complaint as one line of an error message; with `keep_last`, only its
// last that many characters (where a Python traceback says what went wrong).
std::string one_line(std::string text, size_t keep_last = 0);

}  // namespace gpusim::util
