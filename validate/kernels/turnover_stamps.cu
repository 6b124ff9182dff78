// The bodies of turnover.cu with each warp's clock read at its start and its end (issue 13:
// short 1024-thread blocks are 16-32% fast in gpusim). Lane 0 of every warp writes
// {start, end, SM} to stamps[3 * global warp]: how a block's warps start (the spread of their
// starts), how long each lives, and when an SM's next block starts after one ends.

__device__ __forceinline__ unsigned long long clock_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : : "memory");
  return t;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ void stamp(unsigned long long* stamps, unsigned i, unsigned long long start) {
  const unsigned long long end = clock_now();
  if ((threadIdx.x & 31) == 0) {
    const unsigned w = i >> 5;
    stamps[3 * w] = start;
    stamps[3 * w + 1] = end;
    stamps[3 * w + 2] = sm_id();
  }
}

extern "C" __global__ void stamped_empty(unsigned long long* stamps) {
  const unsigned long long start = clock_now();
  stamp(stamps, blockIdx.x * blockDim.x + threadIdx.x, start);
}

// Loads only: the store is predicated off (no element equals the key); the end clock is read
// after the comparison, which waits for the load.
extern "C" __global__ void stamped_read(const float* __restrict__ in, float* __restrict__ out, float key,
                                        unsigned long long* stamps) {
  const unsigned long long start = clock_now();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[i];
  if (v == key) out[i] = v;
  stamp(stamps, i, start);
}

extern "C" __global__ void stamped_copy(const float* __restrict__ in, float* __restrict__ out,
                                        unsigned long long* stamps) {
  const unsigned long long start = clock_now();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  stamp(stamps, i, start);
}

extern "C" __global__ void stamped_write(float* __restrict__ out, unsigned long long* stamps) {
  const unsigned long long start = clock_now();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = static_cast<float>(i);
  stamp(stamps, i, start);
}
