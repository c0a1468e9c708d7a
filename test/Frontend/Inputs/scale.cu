// A CUDA file: the kernel has no loop; the host loop is analyzed.
__global__ void scale_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}
void host_scale(float *A, const float *B, int N) {
  for (int i = 0; i < N; ++i)
    A[i] = B[i] * 2.0f;
}
