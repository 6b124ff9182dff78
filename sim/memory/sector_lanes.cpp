#include "memory/sector_lanes.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <utility>

#include "util/bits.hpp"

namespace gpusim::memory {

HotWord hot_word(const uint64_t* addresses, uint32_t mask, uint64_t begin, uint64_t end) {
  HotWord hot;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint64_t a = addresses[std::countr_zero(m)];
    if (a < begin || a >= end) continue;
    uint32_t same = 0;
    for (uint32_t n = mask; n != 0; n &= n - 1) same += addresses[std::countr_zero(n)] == a;
    if (same > hot.updates) hot = {a, same};
  }
  return hot;
}

void list_hot_words(const uint64_t* addresses, uint32_t mask, uint32_t sector_bytes, std::vector<SectorHot>& out) {
  std::array<std::pair<uint64_t, uint32_t>, 32> lanes;  // address, lane
  size_t n = 0;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<uint32_t>(std::countr_zero(m));
    lanes[n++] = {addresses[lane], lane};
  }
  std::sort(lanes.begin(), lanes.begin() + static_cast<long>(n));  // by address, then lane
  out.clear();
  for (size_t i = 0, j = 0; i < n; i = j) {
    while (j < n && lanes[j].first == lanes[i].first) ++j;
    const SectorHot word{util::align_down(lanes[i].first, sector_bytes), {lanes[i].first, static_cast<uint32_t>(j - i)},
                         lanes[i].second};
    if (out.empty() || out.back().sector != word.sector)
      out.push_back(word);
    else if (word.hot.updates > out.back().hot.updates ||
             (word.hot.updates == out.back().hot.updates && word.first_lane < out.back().first_lane))
      out.back() = word;
  }
}

void list_written(const uint64_t* addresses, uint32_t mask, uint32_t bytes_per_lane, uint32_t sector_bytes,
                  std::vector<SectorBytes>& out) {
  out.clear();
  // Lanes mostly ascend: a lane in the sector before it adds to that entry, and the list needs
  // no sort unless a lane went back (a sum is the same in any order).
  bool ascending = true;
  const auto add = [&out, &ascending](uint64_t sector, uint32_t bytes) {
    if (!out.empty()) {
      SectorBytes& last = out.back();
      if (last.sector == sector) {
        last.bytes += bytes;
        return;
      }
      ascending &= last.sector < sector;
    }
    out.push_back({sector, bytes});
  };
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint64_t a = addresses[std::countr_zero(m)];
    const uint64_t end = a + bytes_per_lane, first = util::align_down(a, sector_bytes);
    if (end - first <= sector_bytes) {  // in one sector (most lanes)
      add(first, bytes_per_lane);
      continue;
    }
    for (uint64_t s = first; s < end; s += sector_bytes) {
      add(s, static_cast<uint32_t>(std::min(end, s + sector_bytes) - std::max(a, s)));
      if (s + sector_bytes < s) break;  // the last sector of the address space
    }
  }
  if (ascending) return;
  std::sort(out.begin(), out.end(), [](const SectorBytes& x, const SectorBytes& y) { return x.sector < y.sector; });
  size_t kept = 0;
  for (const SectorBytes& e : out) {
    if (kept > 0 && out[kept - 1].sector == e.sector)
      out[kept - 1].bytes += e.bytes;
    else
      out[kept++] = e;
  }
  out.resize(kept);
}

}  // namespace gpusim::memory
