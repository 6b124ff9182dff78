// How long a launch may run before it is taken for a runaway (an endless loop): a budget
// of warp instructions per launch and a wall-clock deadline. The default budget ends a
// runaway in well under a minute at today's speed; real kernels past it raise it.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace gpusim::exec {

struct RunLimits {
  static constexpr uint64_t kDefaultMaxInstructions = 50'000'000;
  uint64_t max_warp_instructions = kDefaultMaxInstructions;  // per launch; 0: no limit
  double timeout_seconds = 0;                                // for the whole run; 0: none
  bool continue_out_of_bounds = false;  // --out-of-bounds continue: log such accesses and go on
  std::optional<std::chrono::steady_clock::time_point> deadline;  // set by start()

  // The run begins: the timeout counts from now.
  void start() {
    if (timeout_seconds > 0)
      deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                        std::chrono::duration<double>(timeout_seconds));
  }
  bool past_deadline() const { return deadline && std::chrono::steady_clock::now() > *deadline; }
  bool over_budget(uint64_t instructions) const {
    return max_warp_instructions != 0 && instructions > max_warp_instructions;
  }
  std::string budget_message() const {
    return "more than " + std::to_string(max_warp_instructions) +
           " warp instructions in this launch: an endless loop? (a longer kernel needs --max-instructions N, 0 for "
           "no limit)";
  }
  std::string timeout_message() const {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", timeout_seconds);
    return std::string("still running after --timeout ") + buf + " s: an endless loop?";
  }
};

}  // namespace gpusim::exec
