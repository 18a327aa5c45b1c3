/* The launch read from the host code when neither --launch nor a pragma
   gives it: the host's variables passed as arguments are the kernel's
   parameters, a dim3 or an integer set once stands for its expression. */
__global__ void degrees(int nrows, const int *rowptr, double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nrows)
        y[i] = rowptr[i + 1] - rowptr[i];
}

__global__ void twice(int n, double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0 * y[i];
}

__global__ void chosen(int n, double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 0.0;
}

void run(int rows, const int *d_rowptr, double *d_y, int big)
{
    dim3 threads(256, 1, 1);
    dim3 grid((rows + 255) / 256, 1, 1);
    int blocks = 1, per_block = rows;

    degrees<<<grid, threads>>>(rows, d_rowptr, d_y);
    /* launched two ways: the user says which */
    twice<<<(rows + 127) / 128, 128>>>(rows, d_y);
    twice<<<(rows + 255) / 256, 256>>>(rows, d_y);
    /* sizes chosen at run time (set twice): not read */
    if (big) {
        blocks = (rows + 511) / 512;
        per_block = 512;
    }
    chosen<<<blocks, per_block>>>(rows, d_y);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: warning: the host code launches 'twice' with different configurations
// CHECK: warning: cannot read the host code's launch 'blocks , per_block'
// CHECK-LABEL: kernel degrees @
// CHECK-SAME: cuda launch((nrows + 255) / 256, 256)
// CHECK-LABEL: kernel twice @
// CHECK-NOT: launch(
// CHECK-LABEL: kernel chosen @
