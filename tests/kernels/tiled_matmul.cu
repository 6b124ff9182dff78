// A student's tiled matrix multiply, checked against the naive version of itself
// (check.reference_kernel): same arguments, one thread per output element either way.
constexpr int kTile = 16;

extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n; t += kTile) {
    as[threadIdx.y][threadIdx.x] = row < n && t + threadIdx.x < n ? a[row * n + t + threadIdx.x] : 0.0f;
    bs[threadIdx.y][threadIdx.x] = col < n && t + threadIdx.y < n ? b[(t + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

extern "C" __global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}
