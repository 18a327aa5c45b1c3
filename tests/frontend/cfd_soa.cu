/* A finite-volume flux step as CFD codes write it for the GPU: a thread per
   cell and no guard (the cell count padded to the block), every array
   slot-major over that padded count: NVAR values per cell one array after
   another, NNB neighbours per cell, three normal components per neighbour.
   float3 locals and helpers taking references hold the arithmetic. */
#define NVAR 5
#define NNB  4

__constant__ float far_field[NVAR]; /* the state at the boundary: set by the host */

__device__ inline void velocity_of(const float &rho, const float3 &mom, float3 &vel)
{
    vel.x = mom.x / rho;
    vel.y = mom.y / rho;
    vel.z = mom.z / rho;
}

__global__ void flux(int ncells_padded, const int *neighbours, const float *normals,
                     const float *vars, float *fluxes)
{
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    float3 mom, vel;
    float rho = vars[i];
    float acc = 0.0f;

    mom.x = vars[i + 1 * ncells_padded];
    mom.y = vars[i + 2 * ncells_padded];
    mom.z = vars[i + 3 * ncells_padded];
    velocity_of(rho, mom, vel);
    for (int j = 0; j < NNB; j++) {
        int nb = neighbours[i + j * ncells_padded];
        float nx = normals[i + (j + 0 * NNB) * ncells_padded];
        float ny = normals[i + (j + 1 * NNB) * ncells_padded];
        float nz = normals[i + (j + 2 * NNB) * ncells_padded];

        if (nb >= 0)
            acc += (nx + ny + nz) * (rho - vars[nb + 4 * ncells_padded]);
        else
            acc += (nx + ny + nz) * (rho - far_field[4]);
    }
    for (int v = 0; v < NVAR; v++)
        fluxes[i + v * ncells_padded] = acc * (vel.x + vel.y + vel.z);
}

// RUN: %augur skeleton %s 2>&1 | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//' | FileCheck %s
// CHECK: param ncells_padded i32 bind n (inferred)
// CHECK: array neighbours i32[] global param bind ell.idx (inferred)
// CHECK: array normals f32[] global param bind vec(12*n) (inferred)
// CHECK: array vars f32[] global param bind vec(5*n) (inferred)
// CHECK: array fluxes f32[] global param bind vec(5*n) (inferred)
// CHECK: array far_field f32[5] const bind vec(5) (inferred)
// RUN: %augur skeleton %s 2>&1 | FileCheck --check-prefix=NOTE %s
// NOTE: note warning @9:1 "__constant__ array 'far_field' holds values no dataset gives: bound to vec(5) (bind it for others)"

// Every thread of 87 blocks of 128 runs (no guard); the arrays hold 5 and 12 values per row.
// RUN: %augur simulate %s --machine %S/../../samples/machines/h100-sxm.yml --data %S/../../samples/walshaw_fe_4elt2.mtx --launch 'n/128,128' 2>/dev/null | FileCheck --check-prefix=SIM %s
// SIM: launch 87 x 128 threads
// SIM-NEXT: active lanes per warp memory instruction: 32.0 of 32
// SIM: normals vec(12*n)
// SIM-SAME: 133716 4 534864
// SIM: vars vec(5*n)
// SIM-SAME: 55715 4 222860
