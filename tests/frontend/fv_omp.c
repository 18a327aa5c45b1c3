#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Finite-volume kernel y(i) = sum_k A(i,k) (x(l(i,k)) - x(i)), simple OpenMP
   version (Langguth et al. JPDC'15, Fig. 4): static parallel for over the tetrahedra. */
void fv_simple(int n, const double *A, const int *I, const double *X, double *Y)
{
    int i, l_x;
#pragma omp parallel for private(i, l_x)
    for (i = 0; i < n; i++) {
        l_x = 4 * i;
        Y[i] = A[l_x] * (X[I[l_x]] - X[i]) +
               A[l_x + 1] * (X[I[l_x + 1]] - X[i]) +
               A[l_x + 2] * (X[I[l_x + 2]] - X[i]) +
               A[l_x + 3] * (X[I[l_x + 3]] - X[i]);
    }
}

/* NUMA-aware version (Langguth et al. JPDC'15, Fig. 5): each thread copies its block of A
   and I into private arrays, then sweeps its chunk of tetrahedra. */
void fv_numa(int n, int steps, const double *A, const int *I, double *X, double *Y)
{
#pragma omp parallel
    {
        int my_tid = omp_get_thread_num();
        int chunksize = n / omp_get_num_threads();
        double *Loc_A = malloc(chunksize * 4 * sizeof(double));
        int *Loc_I = malloc(chunksize * 4 * sizeof(int));

        memcpy(Loc_A, A + 4 * chunksize * my_tid, 4 * chunksize * sizeof(double));
        memcpy(Loc_I, I + 4 * chunksize * my_tid, 4 * chunksize * sizeof(int));
        for (int t = 0; t < steps; t++) {
            int i = my_tid * chunksize;
            for (int loop = 0; loop < chunksize; loop++) {
                int l_x = 4 * loop;
                Y[i] = Loc_A[l_x] * (X[Loc_I[l_x]] - X[i]) +
                       Loc_A[l_x + 1] * (X[Loc_I[l_x + 1]] - X[i]) +
                       Loc_A[l_x + 2] * (X[Loc_I[l_x + 2]] - X[i]) +
                       Loc_A[l_x + 3] * (X[Loc_I[l_x + 3]] - X[i]);
                i++;
            }
#pragma omp barrier
#pragma omp master
            {
                double *tmp = X;
                X = Y;
                Y = tmp;
            }
#pragma omp barrier
        }
        free(Loc_A);
        free(Loc_I);
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: fv_omp.c:47:17: unsupported: pointer 'X' is pointed at another array ('Y')
// CHECK: kernel fv_simple @
// CHECK: array A f64[] global param @7:23 bind ell.val.rows (inferred)
// CHECK-NEXT: array I i32[] global param @7:40 bind ell.idx.rows (inferred)
// CHECK-NEXT: array X f64[] global param @7:54 bind vec(n) (inferred)
// CHECK-NEXT: array Y f64[] global param @7:71 bind vec(n) (inferred)
// CHECK-NEXT: for i = 0; i < n; i += 1 @11:5 parallel omp(parallel for) #1
// CHECK-NEXT: set l_x = 4 * i @12:9 #2
// CHECK-NEXT: load A[l_x] @13:16 #3
// CHECK-NEXT: load I[l_x] @13:28 #4
// CHECK-NEXT: load X[I[l_x]] @13:26 indirect(I) #5
// CHECK-NEXT: load X[i] @13:38 #6
// CHECK: load X[I[l_x + 3]] @16:30 indirect(I) #17
// CHECK-NEXT: load X[i] @16:46 reuse #18
// CHECK-NEXT: store Y[i] @13:9 #19
// CHECK-NEXT: ops fadd.f64=4 fmul.f64=1 ffma.f64=3
// CHECK: kernel fv_numa @
// CHECK: note unsupported @47:17 "pointer 'X' is pointed at another array ('Y'): accesses through 'X' keep using its first array"
// CHECK: param steps i32 @22:21 bind =1 (inferred)
// CHECK: builtin omp.thread i32
// CHECK: array Loc_A f64[(i64)(chunksize * 4)] local @28:9
// CHECK-NEXT: array Loc_I i32[(i64)(chunksize * 4)] local @29:9
// CHECK-NEXT: region parallel @25:5 omp(parallel) #22
// CHECK-NEXT: set my_tid = omp.thread @26:9
// CHECK-NEXT: set chunksize = n / omp.nthreads @27:9
// memcpy: 32-byte vector moves, the last one masked
// CHECK: for copy.k = 0_i64; copy.k < (i64)(4 * chunksize); copy.k += 4_i64 @31:9
// CHECK-NEXT: load A[4 * chunksize * my_tid + (copy.k + (i64)lane)] @31:9 x4 mask(copy.k + (i64)lane < (i64)(4 * chunksize))
// CHECK-NEXT: store Loc_A[copy.k + (i64)lane] @31:9 x4 mask(copy.k + (i64)lane < (i64)(4 * chunksize))
// CHECK: store Loc_I[copy.k.2 + (i64)lane] = I[4 * chunksize * my_tid + (copy.k.2 + (i64)lane)] @32:9 x8
// CHECK-NEXT: ops vload.i32x8.m=1 vstore.i32x8.m=1 @32:9
// CHECK-NEXT: for t = 0; t < steps; t += 1 @33:9
// CHECK-NEXT: set i = my_tid * chunksize @34:13
// CHECK: for loop = 0; loop < chunksize; loop += 1 @35:13
// CHECK: load X[Loc_I[l_x]] @37:38 indirect(Loc_I)
// CHECK: store Y[i] @37:17
// CHECK-NEXT: set i = i + 1 @41:17
// CHECK: sync barrier @43:1
// CHECK-NEXT: region master @45:13
// CHECK-NEXT: sync barrier @50:1
