// 256-bin histogram of bytes: per-block counts with shared-memory atomics, merged into
// the global histogram with global atomics.
extern "C" __global__ void histogram256(const unsigned char* __restrict__ data, unsigned* __restrict__ bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}
