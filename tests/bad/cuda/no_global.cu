__device__ float sq(float x) { return x * x; }
