// What a warp request's lanes do in each L2 sector they touch, worked out for the whole request
// in one pass (a sort of the lanes where needed), not by asking every lane for every sector:
// a scattered request has 32 sectors, and that was 32 x 32 steps.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gpusim::memory {

// A word many lanes of an atomic update, and how many.
struct HotWord {
  uint64_t address = 0;
  uint32_t updates = 0;
};
// The word in [begin, end) the most lanes of `mask` update, and how many (0: none); between
// words of as many updates, the one the lowest lane updates.
HotWord hot_word(const uint64_t* addresses, uint32_t mask, uint64_t begin, uint64_t end);

struct SectorHot {
  uint64_t sector;
  HotWord hot;
  uint32_t first_lane;  // the lowest lane updating the hot word
};
// hot_word() of each sector of `sector_bytes` the lanes of `mask` touch, ascending by sector.
void list_hot_words(const uint64_t* addresses, uint32_t mask, uint32_t sector_bytes, std::vector<SectorHot>& out);

struct SectorBytes {
  uint64_t sector;
  uint32_t bytes;
};
// The bytes the lanes of `mask` write in each sector they touch, `bytes_per_lane` from each
// lane's address, ascending by sector. Lanes writing the same bytes each count: a sum, which
// tells a whole sector from a part where lanes write bytes of their own.
void list_written(const uint64_t* addresses, uint32_t mask, uint32_t bytes_per_lane, uint32_t sector_bytes,
                  std::vector<SectorBytes>& out);

// The entry of `list` (ascending by sector) for `sector`, or null. `next`: where to look first,
// left after the entry found: a request's sectors mostly come in the list's order.
template <typename Entry>
const Entry* find_sector(const std::vector<Entry>& list, size_t& next, uint64_t sector) {
  size_t i = next;
  if (i >= list.size() || list[i].sector != sector)
    i = static_cast<size_t>(
        std::lower_bound(list.begin(), list.end(), sector, [](const Entry& e, uint64_t key) { return e.sector < key; }) -
        list.begin());
  if (i == list.size() || list[i].sector != sector) return nullptr;
  next = i + 1;
  return &list[i];
}

}  // namespace gpusim::memory
