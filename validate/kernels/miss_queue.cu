// Does a load that misses the L1 wait behind other warps' misses? (validate/probes/
// miss_queue.py; issue 13: the corpus's spmv_csr_vector, +53% in gpusim, whose loads each wait
// about 1000 cycles in gpusim's one queue of lines leaving the SM.) Warp 0 of each block chases
// a ring of lines in the L2 (one line per hop, every lane the same address); the block's other
// warps gather 4 x 32 random lines of an L2-resident table per trip until the chase is done.
// cycles[block] = the chase's cycles; trips[block * 32 + warp] = each gathering warp's trips.

extern "C" __global__ void chase_under_gathers(const int* ring, const float* table, unsigned line_mask, int hops,
                                               long long* cycles, unsigned* trips, float* sink) {
  __shared__ volatile int done;
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  if (threadIdx.x == 0) done = 0;
  __syncthreads();
  if (warp == 0) {
    int p = ring[0];
    const long long t0 = clock64();
#pragma unroll 1
    for (int h = 0; h < hops; ++h) p = ring[p];
    const long long t1 = clock64();
    if (lane == 0) {
      cycles[blockIdx.x] = t1 - t0;
      sink[blockIdx.x] = static_cast<float>(p);
      done = 1;
    }
    return;
  }
  unsigned x = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u + 12345u;
  float acc = 0.0f;
  unsigned n = 0;
  while (!done) {
    float v[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      x = x * 1664525u + 1013904223u;
      v[i] = table[((x >> 8) & line_mask) * 32];  // one random line per lane
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) acc += v[i];
    ++n;
  }
  if (lane == 0) trips[blockIdx.x * 32 + warp] = n;
  sink[gridDim.x + blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
