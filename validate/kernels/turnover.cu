// Short blocks over an L2-resident array (issue 13: micro_l2_bandwidth #2, one float per thread
// in 4096 blocks of 1024, is 35% fast in gpusim, transpose_padded 20% fast, while a grid-stride
// copy of the same traffic, micro_l2_copy, is within 3%). One element per thread: what a
// block's turnover costs with loads only, loads and stores, stores only.

// Loads only: the store is predicated off (no element equals the key).
extern "C" __global__ void turnover_read(const float* __restrict__ in, float* __restrict__ out, float key) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[i];
  if (v == key) out[i] = v;
}

extern "C" __global__ void turnover_copy(const float* __restrict__ in, float* __restrict__ out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

extern "C" __global__ void turnover_write(float* __restrict__ out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = static_cast<float>(i);
}
