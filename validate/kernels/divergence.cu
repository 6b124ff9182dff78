// Seed 002's branching pair: the same work split by thread parity (every warp
// diverges) or by warp parity (no warp diverges). The two paths do different
// operations so that the compiler cannot merge them into one predicated path.
__device__ float work_a(float x) {
  for (int k = 0; k < 16; ++k) x = x * 1.0001f + 0.5f;
  return x;
}
__device__ float work_b(float x) {
  for (int k = 0; k < 16; ++k) x = (x * 0.9999f - 0.25f) * (x * 0.5f);
  return x;
}

extern "C" __global__ void branch_by_thread(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = (i % 2 == 0) ? work_a(in[i]) : work_b(in[i]);
}

extern "C" __global__ void branch_by_warp(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = ((i / 32) % 2 == 0) ? work_a(in[i]) : work_b(in[i]);
}
