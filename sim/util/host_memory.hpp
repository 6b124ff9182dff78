// What this host can give: MemAvailable from /proc/meminfo (Linux), for checking a
// workload's memory before taking it. nullopt where it cannot be read. And giving back
// what the process freed.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#ifdef __GLIBC__  // defined by the headers above
#include <malloc.h>
#endif

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

// Returns the free pages of every malloc arena to the system (glibc's malloc_trim). glibc
// otherwise keeps freed heap memory resident, and what other threads then allocate in their
// own arenas adds to it rather than reusing it.
inline void give_back_free_memory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

}  // namespace gpusim::util
