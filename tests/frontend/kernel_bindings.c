/* Bindings inferred for every kernel function of kernels/ and samples/, and
   for a depth-first search over an explicit stack: a node-id parameter
   (root), a worklist filled before it is read (stack), a mark array. */
int dfs_count(const long *xadj, const int *adj, int root, int *mark, int *stack)
{
    int top = 0, seen = 1;

    mark[root] = 1;
    stack[top++] = root;
    while (top > 0) {
        int v = stack[--top];

        for (long e = xadj[v]; e < xadj[v + 1]; e++) {
            int w = adj[e];

            if (mark[w] == 0) {
                mark[w] = 1;
                stack[top++] = w;
                seen++;
            }
        }
    }
    return seen;
}

// The depth-first search: root is a node id (node 0), stack a worklist.
// RUN: %augur skeleton %s | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//' | FileCheck --check-prefix=DFS %s
// DFS: param root i32 bind =0 (inferred)
// DFS-NEXT: array xadj i64[] global param bind csr.rowptr (inferred)
// DFS-NEXT: array adj i32[] global param bind csr.col (inferred)
// DFS-NEXT: array mark i32[] global param bind vec(m) (inferred)
// DFS-NEXT: array stack i32[] global param bind vec(n) (inferred)
// 6 nodes reached from node 0 of small.el: each pushed and popped once, its
// row pointers read twice, 8 edges, mark set once and tested per edge.
// RUN: %augur simulate %s --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: xadj 12
// SIM-NEXT: adj 8
// SIM-NEXT: mark 14
// SIM-NEXT: stack 12
//
// Every function of kernels/*/ref.c, kernels/*/omp.c, kernels/*/avx512.c and
// samples/spmv.c. How these compare with the bindings each desc.c names, and
// what the ones left unbound need, is in docs/skeleton.md ("Bindings").
// RUN: %augur skeleton %S/../../kernels/spmv/ref.c --function spmv_csr_ref -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=SPMVCSRREF %s
// SPMVCSRREF: param nrows u32 bind n (inferred)
// SPMVCSRREF-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// SPMVCSRREF-NEXT: array col u32[] global param bind csr.col (inferred)
// SPMVCSRREF-NEXT: array val f64[] global param bind csr.val (inferred)
// SPMVCSRREF-NEXT: array x f64[] global param bind vec(m) (inferred)
// SPMVCSRREF-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/spmv/omp.c --function spmv_csr_omp_static -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=SPMVCSROMPSTATIC %s
// SPMVCSROMPSTATIC: param nrows u32 bind n (inferred)
// SPMVCSROMPSTATIC-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// SPMVCSROMPSTATIC-NEXT: array col u32[] global param bind csr.col (inferred)
// SPMVCSROMPSTATIC-NEXT: array val f64[] global param bind csr.val (inferred)
// SPMVCSROMPSTATIC-NEXT: array x f64[] global param bind vec(m) (inferred)
// SPMVCSROMPSTATIC-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/spmv/omp.c --function spmv_csr_omp_dynamic -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=SPMVCSROMPDYNAMIC %s
// SPMVCSROMPDYNAMIC: param nrows u32 bind n (inferred)
// SPMVCSROMPDYNAMIC-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// SPMVCSROMPDYNAMIC-NEXT: array col u32[] global param bind csr.col (inferred)
// SPMVCSROMPDYNAMIC-NEXT: array val f64[] global param bind csr.val (inferred)
// SPMVCSROMPDYNAMIC-NEXT: array x f64[] global param bind vec(m) (inferred)
// SPMVCSROMPDYNAMIC-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../samples/spmv.c --function spmv -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=SPMV %s
// SPMV: param n i32 bind n (inferred)
// SPMV-NEXT: array rowptr i32[] global param bind csr.rowptr (inferred)
// SPMV-NEXT: array col i32[] global param bind csr.col (inferred)
// SPMV-NEXT: array val f64[] global param bind csr.val (inferred)
// SPMV-NEXT: array x f64[] global param bind vec(m) (inferred)
// SPMV-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/fv/ref.c --function fv_ell_ref -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=FVELLREF %s
// FVELLREF: param n u32 bind n (inferred)
// FVELLREF-NEXT: param width u32 bind ell.width (inferred)
// FVELLREF-NEXT: array idx u32[] global param bind ell.idx (inferred)
// FVELLREF-NEXT: array a f64[] global param bind ell.val (inferred)
// FVELLREF-NEXT: array x f64[] global param bind vec(n) (inferred)
// FVELLREF-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/fv/ref.c --function fv_ell_steps_ref -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=FVELLSTEPSREF %s
// FVELLSTEPSREF: param n u32 bind n (inferred)
// FVELLSTEPSREF-NEXT: param width u32 bind ell.width (inferred)
// FVELLSTEPSREF-NEXT: param nsteps i32 bind =1 (inferred)
// FVELLSTEPSREF-NEXT: array idx u32[] global param bind ell.idx (inferred)
// FVELLSTEPSREF-NEXT: array a f64[] global param bind ell.val (inferred)
// FVELLSTEPSREF-NEXT: array x f64[] global param bind vec(n) (inferred)
// FVELLSTEPSREF-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/fv/omp.c --function fv_ell_omp_simple -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=FVELLOMPSIMPLE %s
// FVELLOMPSIMPLE: param n u32 bind n (inferred)
// FVELLOMPSIMPLE-NEXT: param width u32 bind ell.width (inferred)
// FVELLOMPSIMPLE-NEXT: array idx u32[] global param bind ell.idx (inferred)
// FVELLOMPSIMPLE-NEXT: array a f64[] global param bind ell.val (inferred)
// FVELLOMPSIMPLE-NEXT: array x f64[] global param bind vec(n) (inferred)
// FVELLOMPSIMPLE-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/fv/omp.c --function fv_ell_omp_private -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=FVELLOMPPRIVATE %s
// FVELLOMPPRIVATE: param n u32 bind n (inferred)
// FVELLOMPPRIVATE-NEXT: param width u32 bind ell.width (inferred)
// FVELLOMPPRIVATE-NEXT: param nsteps i32 bind =1 (inferred)
// FVELLOMPPRIVATE-NEXT: array idx u32[] global param bind ell.idx (inferred)
// FVELLOMPPRIVATE-NEXT: array a f64[] global param bind ell.val (inferred)
// FVELLOMPPRIVATE-NEXT: array x f64[] global param bind vec(n) (inferred)
// FVELLOMPPRIVATE-NEXT: array y f64[] global param bind vec(n) (inferred)
// FVELLOMPPRIVATE-NEXT: array loc_a f64[(i64)((u64)(width ? width : 1) * (len ? len : 1))] local
// FVELLOMPPRIVATE-NEXT: array loc_i u32[(i64)((u64)(width ? width : 1) * (len ? len : 1))] local
// RUN: %augur skeleton %S/../../kernels/bfs/ref.c --function bfs_topo_round_ref -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=BFSTOPOROUNDREF %s
// BFSTOPOROUNDREF: param n u32 bind n (inferred)
// BFSTOPOROUNDREF-NEXT: param round i32 bind round (inferred)
// BFSTOPOROUNDREF-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// BFSTOPOROUNDREF-NEXT: array col u32[] global param bind csr.col (inferred)
// BFSTOPOROUNDREF-NEXT: array level i32[] global param bind bfs.level (inferred)
// RUN: %augur skeleton %S/../../kernels/bfs/ref.c --function bfs_topo_ref -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=BFSTOPOREF %s
// BFSTOPOREF: param n u32 bind n (inferred)
// BFSTOPOREF-NEXT: param src u32 bind =0 (inferred)
// BFSTOPOREF-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// BFSTOPOREF-NEXT: array col u32[] global param bind csr.col (inferred)
// BFSTOPOREF-NEXT: array level i32[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/bfs/ref.c --function bfs_frontier_ref -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=BFSFRONTIERREF %s
// BFSFRONTIERREF: param n u32 bind n (inferred)
// BFSFRONTIERREF-NEXT: param src u32 bind =0 (inferred)
// BFSFRONTIERREF-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// BFSFRONTIERREF-NEXT: array col u32[] global param bind csr.col (inferred)
// BFSFRONTIERREF-NEXT: array level i32[] global param bind bfs.level (inferred)
// BFSFRONTIERREF-NEXT: array queue u32[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/bfs/omp.c --function bfs_topo_round_omp -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=BFSTOPOROUNDOMP %s
// BFSTOPOROUNDOMP: param n u32 bind n (inferred)
// BFSTOPOROUNDOMP-NEXT: param round i32 bind round (inferred)
// BFSTOPOROUNDOMP-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// BFSTOPOROUNDOMP-NEXT: array col u32[] global param bind csr.col (inferred)
// BFSTOPOROUNDOMP-NEXT: array level i32[] global param bind bfs.level (inferred)
// RUN: %augur skeleton %S/../../kernels/bfs/omp.c --function bfs_topo_omp -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=BFSTOPOOMP %s
// BFSTOPOOMP: param n u32 bind n (inferred)
// BFSTOPOOMP-NEXT: param src u32 bind =0 (inferred)
// BFSTOPOOMP-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// BFSTOPOOMP-NEXT: array col u32[] global param bind csr.col (inferred)
// BFSTOPOOMP-NEXT: array level i32[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/bfs/omp.c --function bfs_frontier_omp -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=BFSFRONTIEROMP %s
// BFSFRONTIEROMP: param n u32 bind n (inferred)
// BFSFRONTIEROMP-NEXT: param src u32 bind =0 (inferred)
// BFSFRONTIEROMP-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// BFSFRONTIEROMP-NEXT: array col u32[] global param bind csr.col (inferred)
// BFSFRONTIEROMP-NEXT: array level i32[] global param bind bfs.level (inferred)
// BFSFRONTIEROMP-NEXT: array queue u32[] global param bind vec(n) (inferred)
// BFSFRONTIEROMP-NEXT: array next u32[(i64)(u64)n] local
// RUN: %augur skeleton %S/../../kernels/ireduce/ref.c --function ireduce_euler_ref -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=IREDUCEEULERREF %s
// IREDUCEEULERREF: param nedges u64 bind nnz (inferred)
// IREDUCEEULERREF-NEXT: array eu u32[] global param bind coo.row (inferred)
// IREDUCEEULERREF-NEXT: array ev u32[] global param bind coo.col (inferred)
// IREDUCEEULERREF-NEXT: array w f64[] global param bind coo.val (inferred)
// IREDUCEEULERREF-NEXT: array x f64[] global param bind vec(n) (inferred)
// IREDUCEEULERREF-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/ireduce/ref.c --function ireduce_moldyn_ref -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=IREDUCEMOLDYNREF %s
// IREDUCEMOLDYNREF: param nedges u64 bind nnz (inferred)
// IREDUCEMOLDYNREF-NEXT: param cutoff2 f64 (not bound)
// IREDUCEMOLDYNREF-NEXT: array eu u32[] global param bind coo.row (inferred)
// IREDUCEMOLDYNREF-NEXT: array ev u32[] global param bind coo.col (inferred)
// IREDUCEMOLDYNREF-NEXT: array px f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNREF-NEXT: array py f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNREF-NEXT: array pz f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNREF-NEXT: array fx f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNREF-NEXT: array fy f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNREF-NEXT: array fz f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/ireduce/omp.c --function ireduce_euler_tiled_omp -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=IREDUCEEULERTILEDOMP %s
// IREDUCEEULERTILEDOMP: param ntgroups u64 bind n (inferred)
// IREDUCEEULERTILEDOMP-NEXT: array tgroup_tile u64[] global param bind csr.rowptr (inferred)
// IREDUCEEULERTILEDOMP-NEXT: array tile_group u64[] global param bind csr.rowptr (inferred)
// IREDUCEEULERTILEDOMP-NEXT: array gcount u8[] global param bind csr.val (inferred)
// IREDUCEEULERTILEDOMP-NEXT: array gu u32[] global param (not bound)
// IREDUCEEULERTILEDOMP-NEXT: array gv u32[] global param (not bound)
// IREDUCEEULERTILEDOMP-NEXT: array gw f64[] global param (not bound)
// IREDUCEEULERTILEDOMP-NEXT: array x f64[] global param bind vec(n) (inferred)
// IREDUCEEULERTILEDOMP-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/ireduce/omp.c --function ireduce_moldyn_tiled_omp -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=IREDUCEMOLDYNTILEDOMP %s
// IREDUCEMOLDYNTILEDOMP: param ntgroups u64 bind n (inferred)
// IREDUCEMOLDYNTILEDOMP-NEXT: param cutoff2 f64 (not bound)
// IREDUCEMOLDYNTILEDOMP-NEXT: array tgroup_tile u64[] global param bind csr.rowptr (inferred)
// IREDUCEMOLDYNTILEDOMP-NEXT: array tile_group u64[] global param bind csr.rowptr (inferred)
// IREDUCEMOLDYNTILEDOMP-NEXT: array gcount u8[] global param bind csr.val (inferred)
// IREDUCEMOLDYNTILEDOMP-NEXT: array gu u32[] global param (not bound)
// IREDUCEMOLDYNTILEDOMP-NEXT: array gv u32[] global param (not bound)
// IREDUCEMOLDYNTILEDOMP-NEXT: array px f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNTILEDOMP-NEXT: array py f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNTILEDOMP-NEXT: array pz f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNTILEDOMP-NEXT: array fx f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNTILEDOMP-NEXT: array fy f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNTILEDOMP-NEXT: array fz f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/pagerank/ref.c --function pagerank_pull_ref -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=PAGERANKPULLREF %s
// PAGERANKPULLREF: param n u32 bind n (inferred)
// PAGERANKPULLREF-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// PAGERANKPULLREF-NEXT: array col u32[] global param bind csr.col (inferred)
// PAGERANKPULLREF-NEXT: array outdeg u32[] global param bind deg (inferred)
// PAGERANKPULLREF-NEXT: array pr f64[] global param bind vec(n) (inferred)
// PAGERANKPULLREF-NEXT: array contrib f64[] global param bind vec(n) (inferred)
// PAGERANKPULLREF-NEXT: array next f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/pagerank/omp.c --function pagerank_pull_omp -- -fopenmp 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=PAGERANKPULLOMP %s
// PAGERANKPULLOMP: param n u32 bind n (inferred)
// PAGERANKPULLOMP-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// PAGERANKPULLOMP-NEXT: array col u32[] global param bind csr.col (inferred)
// PAGERANKPULLOMP-NEXT: array outdeg u32[] global param bind deg (inferred)
// PAGERANKPULLOMP-NEXT: array pr f64[] global param bind vec(n) (inferred)
// PAGERANKPULLOMP-NEXT: array contrib f64[] global param bind vec(n) (inferred)
// PAGERANKPULLOMP-NEXT: array next f64[] global param bind vec(n) (inferred)
// The AVX-512 variants: a row walked eight entries at a time from j = rowptr[i]
// (j + 8 <= end, then a masked tail), cells eight at a time (x[8*v + lane]).
// RUN: %augur skeleton %S/../../kernels/spmv/avx512.c --function spmv_csr_avx512 -- -fopenmp -mavx512f 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=SPMVCSRAVX512 %s
// SPMVCSRAVX512: param nrows u32 bind n (inferred)
// SPMVCSRAVX512-NEXT: array rowptr u64[] global param bind csr.rowptr (inferred)
// SPMVCSRAVX512-NEXT: array col u32[] global param bind csr.col (inferred)
// SPMVCSRAVX512-NEXT: array val f64[] global param bind csr.val (inferred)
// SPMVCSRAVX512-NEXT: array x f64[] global param bind vec(m) (inferred)
// SPMVCSRAVX512-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/fv/avx512.c --function fv_ell_avx512 -- -fopenmp -mavx512f 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=FVELLAVX512 %s
// FVELLAVX512: param n u32 bind n (inferred)
// FVELLAVX512-NEXT: param width u32 bind ell.width (inferred)
// FVELLAVX512-NEXT: array idx u32[] global param bind ell.idx (inferred)
// FVELLAVX512-NEXT: array a f64[] global param bind ell.val (inferred)
// FVELLAVX512-NEXT: array x f64[] global param bind vec(n) (inferred)
// FVELLAVX512-NEXT: array y f64[] global param bind vec(n) (inferred)
// The tiled AVX-512 irregular reductions run the tiling schedule, which no
// rule infers (--bind its arrays to tiling.*, docs/tiling.md); their gathers
// read x and y through the halves of the index vectors, so those are vectors
// over the nodes.
// RUN: %augur skeleton %S/../../kernels/ireduce/avx512.c --function ireduce_euler_avx512 -- -fopenmp -mavx512f 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=IREDUCEEULERAVX512 %s
// IREDUCEEULERAVX512: param ntgroups u64 bind n (inferred)
// IREDUCEEULERAVX512-NEXT: array tgroup_tile u64[] global param bind csr.rowptr (inferred)
// IREDUCEEULERAVX512-NEXT: array tile_group u64[] global param bind csr.rowptr (inferred)
// IREDUCEEULERAVX512-NEXT: array gcount u8[] global param bind csr.val (inferred)
// IREDUCEEULERAVX512-NEXT: array gu u32[] global param (not bound)
// IREDUCEEULERAVX512-NEXT: array gv u32[] global param (not bound)
// IREDUCEEULERAVX512-NEXT: array gw f64[] global param bind ell.val.rows (inferred)
// IREDUCEEULERAVX512-NEXT: array x f64[] global param bind vec(n) (inferred)
// IREDUCEEULERAVX512-NEXT: array y f64[] global param bind vec(n) (inferred)
// RUN: %augur skeleton %S/../../kernels/ireduce/avx512.c --function ireduce_moldyn_avx512 -- -fopenmp -mavx512f 2>/dev/null | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//; / bind |local$/!s/$/ (not bound)/' | FileCheck --check-prefix=IREDUCEMOLDYNAVX512 %s
// IREDUCEMOLDYNAVX512: param ntgroups u64 bind n (inferred)
// IREDUCEMOLDYNAVX512-NEXT: array tgroup_tile u64[] global param bind csr.rowptr (inferred)
// IREDUCEMOLDYNAVX512-NEXT: array tile_group u64[] global param bind csr.rowptr (inferred)
// IREDUCEMOLDYNAVX512-NEXT: array gcount u8[] global param bind csr.val (inferred)
// IREDUCEMOLDYNAVX512-NEXT: array gu u32[] global param (not bound)
// IREDUCEMOLDYNAVX512-NEXT: array gv u32[] global param (not bound)
// IREDUCEMOLDYNAVX512-NEXT: array px f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNAVX512-NEXT: array py f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNAVX512-NEXT: array pz f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNAVX512-NEXT: array fx f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNAVX512-NEXT: array fy f64[] global param bind vec(n) (inferred)
// IREDUCEMOLDYNAVX512-NEXT: array fz f64[] global param bind vec(n) (inferred)
// The AVX-512 SpMV runs on a matrix without --bind: two row pointers a row,
// every stored entry's column, value and x once (11143 rows, 65636 entries).
// RUN: %augur simulate %S/../../kernels/spmv/avx512.c --function spmv_csr_avx512 --data %S/../../samples/walshaw_fe_4elt2.mtx | FileCheck --check-prefix=SPMVAVXSIM %s
// SPMVAVXSIM: per array:
// SPMVAVXSIM: rowptr 22286
// SPMVAVXSIM-NEXT: col 65636
// SPMVAVXSIM-NEXT: val 65636
// SPMVAVXSIM-NEXT: x 65636
// SPMVAVXSIM-NEXT: y 11143
