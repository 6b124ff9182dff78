// Student-style device functions: a __noinline__ helper, recursion the compiler cannot turn
// into a loop, a struct returned by value, and double-precision pow/sin/cos (CUDA compiles
// their slow paths to .func calls with .global tables and a local-memory stack).
struct Stats {
  int count;
  float mean;
};

__device__ __noinline__ float scale(float x, float by) { return x * by + 1.0f; }

// Sum of the nodes of a complete binary tree of `depth` levels rooted at `node`: two calls each.
__device__ __noinline__ int tree_sum(int node, int depth) {
  if (depth == 0) return node;
  return node + tree_sum(2 * node, depth - 1) + tree_sum(2 * node + 1, depth - 1);
}

__device__ __noinline__ Stats summarise(const float* v, int n) {
  Stats s{0, 0.0f};
  for (int i = 0; i < n; ++i) {
    s.count += v[i] > 0.0f;
    s.mean += v[i];
  }
  s.mean /= n;
  return s;
}

extern "C" __global__ void device_functions(const float* in, const double* din, float* out, double* dout, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Stats s = summarise(in + (i / 4) * 4, 4);
  out[i] = scale(in[i], 3.0f) + static_cast<float>(tree_sum(i % 7 + 1, i % 4)) + s.mean * s.count;
  const double x = din[i];
  dout[i] = pow(fabs(x) + 0.5, 1.7) + sin(x * 40.0) + cos(x * 1000.0);
}
