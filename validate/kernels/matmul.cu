// C = A x B for n x n float matrices, 16x16 tiles staged through shared memory.
#define T 16

extern "C" __global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                        int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  const int row = blockIdx.y * T + threadIdx.y;
  const int col = blockIdx.x * T + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[threadIdx.y][threadIdx.x] = (row < n && k0 + threadIdx.x < n) ? A[row * n + k0 + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (col < n && k0 + threadIdx.y < n) ? B[(k0 + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < T; ++k) acc = fmaf(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = acc;
}
