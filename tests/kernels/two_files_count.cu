// First file of a two-file program: counts values per bucket into a __device__ array and
// a __device__ total (names the second file uses for its own variables too).
__device__ unsigned int total;
__device__ unsigned int buckets[16];

extern "C" __global__ void count(const unsigned* in, unsigned* counts, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&buckets[in[i] % 16], 1u);
    atomicAdd(&total, 1u);
  }
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x < 16) counts[threadIdx.x] = 0;  // cleared; the last launch fills it
}

extern "C" __global__ void publish(unsigned* counts) {
  if (threadIdx.x < 16) counts[threadIdx.x] = buckets[threadIdx.x] * 1000u + total % 1000u;
}
