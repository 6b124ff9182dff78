// Global stores kept back until the end of the cycle. SMs that run a cycle side by side (on
// several threads) each log their stores, and the logs are applied in SM order when the
// cycle ends: every SM reads global memory as the last cycle left it, with its own stores of
// this cycle on top, whichever thread runs it and when.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace gpusim::exec {

class StoreLog {
 public:
  // `bytes` of `data` go to host address `to` when the log is applied.
  void add(uint8_t* to, const void* data, uint32_t bytes) {
    const auto offset = static_cast<uint32_t>(data_.size());
    data_.resize(data_.size() + bytes);
    std::memcpy(data_.data() + offset, data, bytes);
    entries_.push_back({to, offset, bytes});
    const uintptr_t at = reinterpret_cast<uintptr_t>(to);
    lo_ = entries_.size() == 1 ? at : std::min(lo_, at);
    hi_ = entries_.size() == 1 ? at + bytes : std::max(hi_, at + bytes);
  }
  bool empty() const { return entries_.empty(); }
  // Reads `bytes` at host address `from` into `out` as they will be once the log is applied.
  void read(const uint8_t* from, void* out, uint32_t bytes) const {
    std::memcpy(out, from, bytes);
    if (!overlaps(from, bytes)) return;
    const uintptr_t at = reinterpret_cast<uintptr_t>(from);
    auto* dst = static_cast<uint8_t*>(out);
    for (const Entry& e : entries_) {  // in order: a later store over an earlier one wins
      const uintptr_t to = reinterpret_cast<uintptr_t>(e.to);
      const uintptr_t begin = std::max(to, at), end = std::min(to + e.bytes, at + bytes);
      if (begin < end) std::memcpy(dst + (begin - at), data_.data() + e.offset + (begin - to), end - begin);
    }
  }
  // Whether any logged byte lies in [from, from + bytes).
  bool overlaps(const uint8_t* from, uint64_t bytes) const {
    const uintptr_t at = reinterpret_cast<uintptr_t>(from);
    return !entries_.empty() && at < hi_ && at + bytes > lo_;
  }
  // Calls f(host address, bytes) for each store, in the order made.
  template <class F>
  void for_each(F f) const {
    for (const Entry& e : entries_) f(e.to, e.bytes);
  }
  // Empties the log, writing nothing.
  void discard() {
    entries_.clear();
    data_.clear();
  }
  // Writes the stores in the order made, and empties the log.
  void apply() {
    for (const Entry& e : entries_) std::memcpy(e.to, data_.data() + e.offset, e.bytes);
    entries_.clear();
    data_.clear();
  }

 private:
  struct Entry {
    uint8_t* to;
    uint32_t offset;  // in data_
    uint32_t bytes;
  };
  std::vector<Entry> entries_;
  std::vector<uint8_t> data_;
  uintptr_t lo_ = 0, hi_ = 0;  // the logged bytes lie in [lo_, hi_)
};

}  // namespace gpusim::exec
