// Half precision and bfloat16 as a student's mixed-precision kernel uses them.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void half_math(const __half* a, const __half* b, __half* c, __nv_bfloat16* d, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = __hadd(a[i], b[i]);
  x = __hmul(x, __float2half(0.75f));
  x = __hfma(x, a[i], b[i]);
  if (__hlt(x, __float2half(0.0f))) x = __hneg(x);
  __half2 p = __halves2half2(a[i], b[i]);
  p = __hfma2(p, p, __float2half2_rn(0.25f));
  c[i] = __hadd(x, __hmax(__low2half(p), __high2half(p)));
  const __nv_bfloat16 y = __float2bfloat16(__half2float(a[i]) * 3.0f + static_cast<float>(i));
  d[i] = __float2bfloat16(__bfloat162float(y) * 0.5f);
}
