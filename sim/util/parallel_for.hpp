// Work over an index range on several threads (--threads), for setup and checks: buffers'
// initial contents, references, comparisons. Each part is a contiguous run of indices, so a
// body that writes element i alone gives the same bytes on any number of threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace gpusim::util {

// Elements a thread takes at least in an elementwise pass (a fill, a comparison): below
// that, starting it costs more than it saves.
inline constexpr int64_t kMinElementsPerThread = 1 << 16;
// Bytes a thread takes at least in a copy (about 50 microseconds of memcpy, or its page faults).
inline constexpr int64_t kMinBytesPerThread = 1 << 20;

// The number of parts parallel_for makes of `count` (per-part results): `threads`,
// or fewer when a part would have under `min_part` indices (a thread costs tens of
// microseconds).
inline int64_t parallel_parts(int64_t count, int threads, int64_t min_part) {
  return std::clamp<int64_t>(count / std::max<int64_t>(min_part, 1), 1, std::max(threads, 1));
}

// Calls body(part, begin, end) for `parts` runs covering [0, count) in order, part 0 on the
// calling thread. The first exception by part is rethrown, after every part has ended.
template <class Body>
void parallel_for(int64_t count, int threads, int64_t min_part, Body&& body) {
  const int64_t parts = parallel_parts(count, threads, min_part);
  const auto begin = [&](int64_t p) { return count * p / parts; };
  std::vector<std::exception_ptr> failed(static_cast<size_t>(parts));
  const auto run = [&](int64_t p) {
    try {
      body(p, begin(p), begin(p + 1));
    } catch (...) {
      failed[static_cast<size_t>(p)] = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  int64_t p = 1;
  try {
    for (; p < parts; ++p) workers.emplace_back(run, p);
  } catch (const std::system_error&) {  // no more threads to be had: the rest run here
  }
  run(0);
  for (; p < parts; ++p) run(p);
  for (std::thread& t : workers) t.join();
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace gpusim::util
