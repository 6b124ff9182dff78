// Reductions, scans and histograms as users write them: one atomic per element, a warp
// shuffle then one atomic per warp, a two-pass block reduction, a grid-stride reduction;
// Hillis-Steele and warp-shuffle block scans and the pass that adds block offsets;
// histograms with global atomics, shared privatisation and heavy contention.

extern "C" __global__ void sum_atomic_each(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, in[i]);
}

extern "C" __global__ void sum_warp_atomic(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

// Pass 1 of a two-pass reduction: each block of 256 writes its sum (shared tree, sequential addressing).
extern "C" __global__ void block_sums(const float* in, float* partial, int n) {
  __shared__ float s[256];
  const int i = blockIdx.x * 512 + threadIdx.x;
  s[threadIdx.x] = (i < n ? in[i] : 0.0f) + (i + 256 < n ? in[i + 256] : 0.0f);
  __syncthreads();
  for (int half = 128; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

// A fixed grid walks the array with a grid stride, then reduces each block with shuffles.
extern "C" __global__ void sum_grid_stride(const float* in, float* partial, int n) {
  __shared__ float warps[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? warps[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) partial[blockIdx.x] = v;
  }
}

// Inclusive scan of each 512-element block, Hillis-Steele with double buffering.
extern "C" __global__ void scan_hillis_steele(const float* in, float* out, float* block_totals, int n) {
  __shared__ float buf[2][512];
  const int i = blockIdx.x * 512 + threadIdx.x;
  int from = 0;
  buf[0][threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int d = 1; d < 512; d *= 2) {
    const float v = buf[from][threadIdx.x];
    buf[1 - from][threadIdx.x] = threadIdx.x >= d ? v + buf[from][threadIdx.x - d] : v;
    from = 1 - from;
    __syncthreads();
  }
  if (i < n) out[i] = buf[from][threadIdx.x];
  if (threadIdx.x == 511) block_totals[blockIdx.x] = buf[from][511];
}

// Inclusive scan of each 1024-element block: shuffles within warps, then across warps.
extern "C" __global__ void scan_warp_shuffle(const int* in, int* out, int* block_totals, int n) {
  __shared__ int warp_totals[32];
  const int i = blockIdx.x * 1024 + threadIdx.x, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = i < n ? in[i] : 0;
  for (int d = 1; d < 32; d *= 2) {
    const int u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += u;
  }
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = warp_totals[lane];
    for (int d = 1; d < 32; d *= 2) {
      const int u = __shfl_up_sync(0xffffffffu, t, d);
      if (lane >= d) t += u;
    }
    warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (i < n) out[i] = v;
  if (threadIdx.x == 1023) block_totals[blockIdx.x] = v;
}

// Adds each block's offset (the scanned totals of the blocks before it).
extern "C" __global__ void scan_add_offsets(int* data, const int* offsets, int n) {
  const int i = (blockIdx.x + 1) * 1024 + threadIdx.x;
  if (i < n) data[i] += offsets[blockIdx.x];
}

// Serial scan of a short array by one block's first thread (the middle pass of a scan).
extern "C" __global__ void scan_serial(int* data, int n) {
  if (threadIdx.x != 0) return;
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += data[i];
    data[i] = sum;
  }
}

extern "C" __global__ void histogram_global(const unsigned* in, unsigned* bins, int n, int mask) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&bins[in[i] & mask], 1u);
}

extern "C" __global__ void histogram_shared(const unsigned* in, unsigned* bins, int n, int mask) {
  __shared__ unsigned local[1024];
  for (int b = threadIdx.x; b <= mask; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[in[i] & mask], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b <= mask; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}
