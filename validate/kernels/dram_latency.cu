// What one DRAM access costs, hop by hop (validate/probes/dram_latency.py, issue 13): one thread
// chases a ring of lines past the L1 (ld.global.cg) and times every hop with clock64, so hops
// the L2 serves (about 300 cycles) and hops DRAM serves (about 700) show apart.

// Each word of the ring holds the index of the next hop's word.
extern "C" __global__ void ring_sequential(unsigned* ring, int n, int step) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    ring[i] = static_cast<unsigned>((i + step) % n);
}

// `hops` timed hops from word `start`; cycles[h] is hop h's time. The load's address depends on
// the first clock read (t0 >> 62 is 0, which the compiler cannot know) and the second clock
// read follows a volatile shared store of the loaded value, so neither moves across the load.
extern "C" __global__ void chase_hops(const unsigned* ring, unsigned start, int hops, long long* cycles,
                                      unsigned* last) {
  __shared__ unsigned sink[1];
  volatile unsigned* v = sink;
  unsigned p = start;
  for (int h = 0; h < hops; ++h) {
    const long long t0 = clock64();
    p = __ldcg(&ring[p + static_cast<unsigned>(t0 >> 62)]);
    v[0] = p;
    cycles[h] = clock64() - t0;
  }
  *last = p;
}

__device__ unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// Per SM: one thread on SM `target` (every SM when target < 0), the first block there to claim
// it, chases `hops` lines from its own start (word (sm x hops + first) x 32) twice: the first
// lap from DRAM, the second from the L2. out[3 sm .. 3 sm + 2] = first lap's cycles, second
// lap's cycles, and the SM's id again (so a missing SM shows as 0).
extern "C" __global__ void chase_on_sm(const unsigned* ring, int first, int hops, int target,
                                       unsigned* claimed, long long* out) {
  __shared__ unsigned sink[1];
  volatile unsigned* v = sink;
  const unsigned sm = smid();
  if (threadIdx.x != 0 || (target >= 0 && sm != static_cast<unsigned>(target))) return;
  if (atomicCAS(&claimed[sm], 0u, 1u) != 0u) return;
  const unsigned start = (sm * static_cast<unsigned>(hops) + static_cast<unsigned>(first)) * 32u;
  for (int lap = 0; lap < 2; ++lap) {
    unsigned p = start;
    const long long t0 = clock64();
    for (int h = 0; h < hops; ++h) p = __ldcg(&ring[p + static_cast<unsigned>(t0 >> 62)]);
    v[0] = p;
    out[3 * sm + lap] = clock64() - t0;
  }
  out[3 * sm + 2] = sm;
}
