// DRAM latency under a background load of known direction (validate/probes/dram_mix.py, issue 13:
// load-dependent latency and bandwidth by read/write mix). Block 0's first thread chases a ring
// of lines that are in DRAM; every other warp streams for `cycles` SM cycles, four lines per
// trip, reading, writing, copying, or reading two arrays and writing a third (as AXPY does).
// The chaser's timed hops start after `kWarmHops`, when the streams are running, and end well
// before the streamers stop. Arrays hold `lines` lines of 128 B (a power of two).

constexpr int kWarmHops = 16;
constexpr int kLinesPerTrip = 4;

// The chaser: cycles for `hops` dependent loads into out[0], the last index into out[1].
__device__ void chase(const unsigned* ring, int hops, long long* out) {
  if (threadIdx.x != 0) return;
  unsigned p = 0;
  for (int h = 0; h < kWarmHops; ++h) p = __ldcg(&ring[p]);
  const long long t0 = clock64();
  for (int h = 0; h < hops; ++h) p = __ldcg(&ring[p]);
  const long long t1 = clock64();
  out[0] = t1 - t0;
  out[1] = p;
}

// Mode 0 reads a, 1 writes c, 2 copies a to c, 3 writes a + b to c.
template <int kMode>
__device__ void stream(const float* a, const float* b, float* c, long long lines, long long cycles,
                       long long* trips) {
  const int lane = threadIdx.x & 31;
  const long long warps = static_cast<long long>(gridDim.x - 1) * (blockDim.x / 32);
  const long long warp = static_cast<long long>(blockIdx.x - 1) * (blockDim.x / 32) + threadIdx.x / 32;
  const long long end = clock64() + cycles;
  float acc = 0.0f;
  long long trip = 0;
  while (clock64() < end) {
    const long long first = ((trip * warps + warp) * kLinesPerTrip) & (lines - 1);
#pragma unroll
    for (int k = 0; k < kLinesPerTrip; ++k) {
      const long long i = (first + k) * 32 + lane;
      if (kMode == 0) acc += a[i];
      if (kMode == 1) c[i] = 1.0f;
      if (kMode == 2) c[i] = a[i];
      if (kMode == 3) c[i] = a[i] + b[i];
    }
    ++trip;
  }
  if (lane == 0) trips[warp] = trip;
  if (acc == 12345.0f) c[lane] = acc;  // keeps the reads
}

#define LOADED_CHASE(name, mode)                                                                       \
  extern "C" __global__ void name(const unsigned* ring, int hops, const float* a, const float* b,      \
                                  float* c, long long lines, long long cycles, long long* trips,     \
                                  long long* out) {                                                  \
    if (blockIdx.x == 0) {                                                                           \
      chase(ring, hops, out);                                                                        \
      return;                                                                                        \
    }                                                                                                \
    stream<mode>(a, b, c, lines, cycles, trips);                                                     \
  }

LOADED_CHASE(chase_under_reads, 0)
LOADED_CHASE(chase_under_writes, 1)
LOADED_CHASE(chase_under_copy, 2)
LOADED_CHASE(chase_under_axpy, 3)

// The ring: every word points `step` words on (so each hop is the next line when step is 32).
extern "C" __global__ void ring_init(unsigned* ring, int n, int step) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    ring[i] = static_cast<unsigned>((i + step) % n);
}
