/* Struct values copied out of arrays, as CUDA code copies an edge or a
   float3 into a local before it uses the fields: each field a kernel reads
   is a load of that field of the element, where it is used. A copy that the
   kernel then changes is a local of its own and is not followed. */
struct edge {
    int src, dst;
};

__global__ void spring_length(int nedges, const edge *edges, const float3 *pos, float *len)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;

    if (e < nedges) {
        edge ed = edges[e];
        float3 a = pos[ed.src], b = pos[ed.dst];
        float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;

        len[e] = sqrtf(dx * dx + dy * dy + dz * dz);
    }
}

__global__ void shifted(int n, const float3 *pos, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n) {
        float3 p = pos[i];

        p.x += 1.0f;
        out[i] = p.x + p.y;
    }
}

// RUN: %augur skeleton %s --function spring_length | FileCheck %s
// CHECK: array edges rec(8)[] global param
// CHECK-SAME: bind rec(0:i32:coo.row,4:i32:coo.col) (inferred)
// CHECK: set ed = (i64)e
// CHECK: set a = (i64)edges[ed]{0 i32}
// CHECK: set b = (i64)edges[ed]{4 i32}
// CHECK: load pos[a]{0 f32}
// CHECK: load pos[b]{0 f32}
// CHECK: load pos[a]{8 f32}
// CHECK: store len[e]
// RUN: %augur skeleton %s --function shifted 2>&1 | FileCheck --check-prefix=MOD %s
// MOD: warning: the struct variable 'p' is not followed
