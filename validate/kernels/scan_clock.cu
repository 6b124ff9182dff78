// validate/kernels/scan.cu's two scans with thread 0 stamping clock64 after each barrier
// (validate/probes/scan_clock.py; issue 13: where the padded scan's time goes per level, for a
// lone block and under a full SM). stamps[block * kStamps]: SM id, the entry's clock, then the
// clock after each of the 19 barriers (n = 512: 1 after the loads, 9 up-sweep, 9 down-sweep).
#define LOG_BANKS 5
#define PAD(i) ((i) >> LOG_BANKS)
constexpr int kStamps = 24;

__device__ __forceinline__ void stamp(long long* at, int k, int tid) {
  if (tid == 0) at[k] = clock64();
}

__device__ __forceinline__ void begin(long long* at, int tid) {
  if (tid == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    at[0] = sm;
    at[1] = clock64();
  }
}

extern "C" __global__ void scan_block_stamped(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                              long long* stamps) {
  extern __shared__ unsigned s[];
  const int n = 2 * blockDim.x;
  const int tid = threadIdx.x;
  long long* at = stamps + blockIdx.x * kStamps;
  begin(at, tid);
  int k = 2;
  const unsigned* src = in + blockIdx.x * n;
  s[2 * tid] = src[2 * tid];
  s[2 * tid + 1] = src[2 * tid + 1];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    stamp(at, k++, tid);
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      s[bi] += s[ai];
    }
    offset *= 2;
  }
  if (tid == 0) s[n - 1] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    stamp(at, k++, tid);
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      const unsigned t = s[ai];
      s[ai] = s[bi];
      s[bi] += t;
    }
  }
  __syncthreads();
  stamp(at, k, tid);
  out[blockIdx.x * n + 2 * tid] = s[2 * tid];
  out[blockIdx.x * n + 2 * tid + 1] = s[2 * tid + 1];
}

extern "C" __global__ void scan_block_padded_stamped(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                                     long long* stamps) {
  extern __shared__ unsigned s[];
  const int n = 2 * blockDim.x;
  const int tid = threadIdx.x;
  long long* at = stamps + blockIdx.x * kStamps;
  begin(at, tid);
  int k = 2;
  const unsigned* src = in + blockIdx.x * n;
  const int a = tid, b = tid + n / 2;
  s[a + PAD(a)] = src[a];
  s[b + PAD(b)] = src[b];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    stamp(at, k++, tid);
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      ai += PAD(ai);
      bi += PAD(bi);
      s[bi] += s[ai];
    }
    offset *= 2;
  }
  if (tid == 0) s[n - 1 + PAD(n - 1)] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    stamp(at, k++, tid);
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      ai += PAD(ai);
      bi += PAD(bi);
      const unsigned t = s[ai];
      s[ai] = s[bi];
      s[bi] += t;
    }
  }
  __syncthreads();
  stamp(at, k, tid);
  out[blockIdx.x * n + a] = s[a + PAD(a)];
  out[blockIdx.x * n + b] = s[b + PAD(b)];
}
