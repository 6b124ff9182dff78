// 5-point stencil (Jacobi step) on an nx x ny grid of floats, one thread per point.
// Boundary points copy their input. The same file is simulated by gpusim
// (workloads/stencil.yaml) and timed on hardware by validate/.
extern "C" __global__ void stencil5(const float* __restrict__ in, float* __restrict__ out, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  const int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}
