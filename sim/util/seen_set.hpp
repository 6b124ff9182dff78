// Which 64-bit keys have been met, for the few dozen a warp's access has (its distinct
// sectors, its distinct lines): each answered in a step or two, where a search of the list so
// far takes a warp of scattered lanes 32 x 32 / 2 comparisons. The callers keep their lists
// in the order first met; this only says whether a key is new. Uninitialised but for a bit
// per slot: made on the stack per access, it costs four words' clearing.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusim::util {

class SeenSet {
 public:
  // True when `key` is new (and remembers it), false when it was met before.
  bool insert(uint64_t key) {
    if (count_ >= kMaxInTable) {  // more keys than an access has: a list, searched
      if (used(slot_of(key)) || std::find(overflow_.begin(), overflow_.end(), key) != overflow_.end()) return false;
      overflow_.push_back(key);
      return true;
    }
    const size_t slot = slot_of(key);
    if (used(slot)) return false;
    used_[slot / 64] |= uint64_t{1} << (slot % 64);
    keys_[slot] = key;
    ++count_;
    return true;
  }
  // Forgets every key: the set of a new access, where one outlives a single call.
  void clear() {
    used_ = {};
    count_ = 0;
    overflow_.clear();
  }

 private:
  static constexpr size_t kSlots = 256;
  static constexpr size_t kMaxInTable = kSlots / 2;  // linear probing stays short at half full
  static size_t home(uint64_t key) { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 56); }
  bool used(size_t slot) const { return used_[slot / 64] >> (slot % 64) & 1u; }
  // The slot holding `key`, or the free one where it would go.
  size_t slot_of(uint64_t key) const {
    size_t slot = home(key);
    while (used(slot) && keys_[slot] != key) slot = (slot + 1) % kSlots;
    return slot;
  }

  std::array<uint64_t, kSlots / 64> used_{};
  std::array<uint64_t, kSlots> keys_;  // where used_ says so
  size_t count_ = 0;
  std::vector<uint64_t> overflow_;
};

// SeenSet's answer for a caller that lists its new keys in the order first met. While keys
// come in ascending order (a warp's lanes mostly do, each row's after the last), a key is
// new exactly when it is above the last, and the table is not touched; the first key out of
// order fills it from the caller's list (`listed(add)` calls add on each key listed so far).
class FirstSeen {
 public:
  template <class Listed>
  bool insert(uint64_t key, Listed listed) {
    if (ascending_) {
      if (empty_ || key > last_) {
        empty_ = false;
        last_ = key;
        return true;
      }
      if (key == last_) return false;
      ascending_ = false;
      listed([this](uint64_t k) { seen_.insert(k); });
    }
    return seen_.insert(key);
  }
  // Forgets every key (the table is cleared only if it was filled).
  void clear() {
    if (!ascending_) seen_.clear();
    ascending_ = true;
    empty_ = true;
  }

 private:
  bool ascending_ = true;
  bool empty_ = true;
  uint64_t last_ = 0;
  SeenSet seen_;
};

}  // namespace gpusim::util
