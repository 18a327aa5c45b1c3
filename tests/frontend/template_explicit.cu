/* A template kernel that the file instantiates explicitly, as libraries
   compiled once for a set of variants do, over a policy type the file itself
   declares: augur analyses the first explicit instantiation (the type is
   declared where the template's header was, so the file's own types are
   known) and blanks the instantiations of the template it takes apart. The
   kernel is a level-synchronous BFS that pushes levels with atomicMin. */
enum mode { plain, counted };

template <mode M>
struct Policy {
    __device__ void touched() {}
};

template <typename P>
__global__ void push_levels(unsigned nnodes, const unsigned *rowptr, const unsigned *col,
                            int *level, int depth)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
    P policy;

    if (v < nnodes && level[v] == depth)
        for (unsigned e = rowptr[v]; e < rowptr[v + 1]; e++)
            if (atomicMin(&level[col[e]], depth + 1) > depth + 1)
                policy.touched();
}

extern template __global__ void push_levels<Policy<counted>>(unsigned, const unsigned *,
                                                             const unsigned *, int *, int);
template __global__ void push_levels<Policy<plain>>(unsigned, const unsigned *, const unsigned *,
                                                    int *, int);
template __global__ void push_levels<Policy<counted>>(unsigned, const unsigned *,
                                                      const unsigned *, int *, int);

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: template kernel 'push_levels' analysed with P=Policy<plain> (the file's explicit instantiation)
// CHECK: kernel push_levels
// CHECK: param depth i32
// CHECK-SAME: bind round-1 (inferred)
// CHECK: array level i32[] global param
// CHECK-SAME: bind bfs.level (inferred)
// CHECK: update level[col[e]] = min(level[col[e]], depth + 1)
// RUN: %augur simulate %s --machine %S/../../samples/machines/h100-sxm.yml --data %S/../data/graphs/small.el --launch '(n + 127) / 128,128' --round 2 2>/dev/null | FileCheck --check-prefix=SIM %s
// SIM: launch 1 x 128 threads
