# tiled_kernel.sh - sourced by the tile benches: the tiled-and-grouped Euler
# reduction this host runs (the AVX-512 variant where it has avx512f, else
# the tiled OpenMP one) as file, fn and its compiler flags, and bind, the
# bindings that run it on the schedule of --tile-size (docs/tiling.md).
# Needs $here, the checkout.
if grep -qw avx512f /proc/cpuinfo; then
    file=$here/kernels/ireduce/avx512.c fn=ireduce_euler_avx512 flags=(-fopenmp -mavx512f -mavx512dq)
else
    file=$here/kernels/ireduce/omp.c fn=ireduce_euler_tiled_omp flags=(-fopenmp)
fi
bind="ntgroups=tiling.ntgroups,tgroup_tile=tiling.tgroup_tile,tile_group=tiling.tile_group"
bind+=",gcount=tiling.gcount,gu=tiling.gu,gv=tiling.gv,gw=tiling.gw,x=vec(n),y=vec(n)"
