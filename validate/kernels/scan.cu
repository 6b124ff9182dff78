// Work-efficient exclusive prefix sum of each block's 2*blockDim.x elements in shared
// memory (up-sweep, then down-sweep), without and with padding against bank conflicts.
#define LOG_BANKS 5
#define PAD(i) ((i) >> LOG_BANKS)

extern "C" __global__ void scan_block(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  extern __shared__ unsigned s[];
  const int n = 2 * blockDim.x;
  const int tid = threadIdx.x;
  const unsigned* src = in + blockIdx.x * n;
  s[2 * tid] = src[2 * tid];
  s[2 * tid + 1] = src[2 * tid + 1];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
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
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      const unsigned t = s[ai];
      s[ai] = s[bi];
      s[bi] += t;
    }
  }
  __syncthreads();
  out[blockIdx.x * n + 2 * tid] = s[2 * tid];
  out[blockIdx.x * n + 2 * tid + 1] = s[2 * tid + 1];
}

extern "C" __global__ void scan_block_padded(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  extern __shared__ unsigned s[];
  const int n = 2 * blockDim.x;
  const int tid = threadIdx.x;
  const unsigned* src = in + blockIdx.x * n;
  const int a = tid, b = tid + n / 2;
  s[a + PAD(a)] = src[a];
  s[b + PAD(b)] = src[b];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
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
  out[blockIdx.x * n + a] = s[a + PAD(a)];
  out[blockIdx.x * n + b] = s[b + PAD(b)];
}
