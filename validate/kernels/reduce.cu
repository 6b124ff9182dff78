// Block sum reductions in shared memory (one partial sum per block), the classic pair:
// interleaved addressing with a divergent branch, and sequential addressing.
extern "C" __global__ void reduce_divergent(const float* __restrict__ in, float* __restrict__ out, int n) {
  extern __shared__ float s[];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];  // only every 2*stride-th thread works
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_sequential(const float* __restrict__ in, float* __restrict__ out, int n) {
  extern __shared__ float s[];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];  // contiguous active threads
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
