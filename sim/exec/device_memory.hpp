// The device memory image: the workload's buffers and the module's variables, each a
// region of the global address space. Every access is bounds-checked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel/ir.hpp"
#include "util/bytes.hpp"

namespace gpusim::exec {

class DeviceMemory {
 public:
  struct Region {
    std::string name;
    uint64_t base = 0;
    util::Bytes bytes;
  };

  // Places a region of `size` bytes at the next 256-byte boundary past `floor` (leaving
  // a guard gap after the previous region) and returns its base address.
  uint64_t allocate(const std::string& name, uint64_t size, uint64_t floor);
  // Places a region at a fixed address (module variables).
  void map(const std::string& name, uint64_t base, util::Bytes bytes);
  // Places a module's __device__/__constant__ variables, with their initial values (zeros past them).
  void map_variables(const kernel::Module& module);

  // Host pointer for [address, address + size), or nullptr when it is not inside one region.
  uint8_t* translate(uint64_t address, uint64_t size) { return translate(address, size, last_hit_); }
  // The same, starting from the caller's own guess of the region (`hint`, updated): callers on
  // several threads each keep theirs.
  uint8_t* translate(uint64_t address, uint64_t size, size_t& hint);
  const Region* find(const std::string& name) const;
  Region* find(const std::string& name);
  // Every region: all a kernel can touch.
  const std::vector<Region>& regions() const { return regions_; }
  // Describes where `address` falls, for error messages.
  std::string describe(uint64_t address) const;

 private:
  std::vector<Region> regions_;  // sorted by base
  size_t last_hit_ = 0;          // accesses run in long streaks within one buffer
};

}  // namespace gpusim::exec
