// What this host can give: MemAvailable from /proc/meminfo (Linux), for checking a
// workload's memory before taking it. nullopt where it cannot be read.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace gpusim::util {

inline std::optional<uint64_t> available_host_memory() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string key;
    uint64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

}  // namespace gpusim::util
