#include "exec/device_memory.hpp"
#include "exec/exec_error.hpp"

#include <algorithm>
#include <cstdio>

namespace gpusim::exec {

namespace {
constexpr uint64_t kAlign = 256;
constexpr uint64_t kGuard = 4096;  // unmapped bytes between regions catch small overruns

}  // namespace

uint64_t DeviceMemory::allocate(const std::string& name, uint64_t size, uint64_t floor) {
  uint64_t base = floor;
  for (const Region& r : regions_) base = std::max(base, r.base + r.bytes.size() + kGuard);
  base = (base + kAlign - 1) / kAlign * kAlign;
  map(name, base, util::Bytes(size));  // zeros, their pages made present by whoever fills them (util/bytes.hpp)
  return base;
}

void DeviceMemory::map(const std::string& name, uint64_t base, util::Bytes bytes) {
  Region r{name, base, std::move(bytes)};
  const auto pos = std::upper_bound(regions_.begin(), regions_.end(), base,
                                    [](uint64_t b, const Region& x) { return b < x.base; });
  regions_.insert(pos, std::move(r));
  last_hit_ = 0;
}

void DeviceMemory::map_variables(const kernel::Module& module) {
  for (const kernel::ModuleVariable& v : module.variables) {
    util::Bytes bytes(v.size);
    std::copy_n(v.init.begin(), std::min<size_t>(v.init.size(), v.size), bytes.begin());
    map(v.name, v.address, std::move(bytes));
  }
}

uint8_t* DeviceMemory::translate(uint64_t address, uint64_t size, size_t& hint) {
  if (hint < regions_.size()) {
    Region& r = regions_[hint];
    if (address >= r.base && address - r.base + size <= r.bytes.size()) return r.bytes.data() + (address - r.base);
  }
  auto it = std::upper_bound(regions_.begin(), regions_.end(), address,
                             [](uint64_t a, const Region& x) { return a < x.base; });
  if (it == regions_.begin()) return nullptr;
  Region& r = *std::prev(it);
  const uint64_t offset = address - r.base;
  if (offset + size > r.bytes.size() || offset + size < offset) return nullptr;
  hint = static_cast<size_t>(std::prev(it) - regions_.begin());
  return r.bytes.data() + offset;
}

const DeviceMemory::Region* DeviceMemory::find(const std::string& name) const {
  for (const Region& r : regions_)
    if (r.name == name) return &r;
  return nullptr;
}

DeviceMemory::Region* DeviceMemory::find(const std::string& name) {
  return const_cast<Region*>(static_cast<const DeviceMemory*>(this)->find(name));
}

std::string DeviceMemory::describe(uint64_t address) const {
  const Region* nearest = nullptr;
  uint64_t best = ~0ull;
  for (const Region& r : regions_) {
    const uint64_t end = r.base + r.bytes.size();
    const uint64_t d = address < r.base ? r.base - address : address >= end ? address - end + 1 : 0;
    if (d < best) {
      best = d;
      nearest = &r;
    }
  }
  if (!nearest) return "no device memory is allocated";
  const uint64_t end = nearest->base + nearest->bytes.size();
  if (address >= nearest->base && address < end)
    return "buffer '" + nearest->name + "' at offset " + std::to_string(address - nearest->base);
  return "nearest buffer '" + nearest->name + "' is [" + hex(nearest->base) + ", " + hex(end) + ")";
}

}  // namespace gpusim::exec
