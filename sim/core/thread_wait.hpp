// How TickBatch's threads wait for one another: a short spin (a thread's share of a batch
// takes microseconds), then the core to others. Sleeping or yielding, a thread leaves its core
// to those with work, in this process or another (several runs side by side, more threads
// than cores).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace gpusim::core::thread_wait {

inline constexpr int kSpins = 4000;

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// A cheap clock for sharing the work out (never for the results): the time-stamp counter
// where there is one.
inline uint64_t ticks() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

// One step of a wait that polls something no single atomic stands for: a pause for the
// first kSpins steps, then the core to others.
inline void backoff(int& spin) {
  if (++spin < kSpins) pause();
  else std::this_thread::yield();
}

// Waits until `done()`, which only a change of `value` can make true: a short spin, then
// asleep on `value` until it changes.
template <class T, class Done>
void wait_for(const std::atomic<T>& value, Done done) {
  for (int round = 0; round < kSpins; ++round) {
    if (done()) return;
    pause();
  }
  for (;;) {
    const T seen = value.load(std::memory_order_acquire);
    if (done()) return;
    value.wait(seen, std::memory_order_acquire);
  }
}

}  // namespace gpusim::core::thread_wait
