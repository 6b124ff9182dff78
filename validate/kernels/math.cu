// The math nvcc emits for expf, sqrtf, rsqrtf, sinf and friends, one result per input.
extern "C" __global__ void math_funcs(const float* __restrict__ x, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
  out[6 * i + 0] = __expf(v);
  out[6 * i + 1] = sqrtf(fabsf(v));
  out[6 * i + 2] = rsqrtf(fabsf(v) + 1.0f);
  out[6 * i + 3] = __sinf(v);
  out[6 * i + 4] = fmaxf(v, 0.5f) / (fabsf(v) + 1.0f);
  out[6 * i + 5] = static_cast<float>(static_cast<int>(v * 100.0f) % 7);
}
