/*
 * sim.h - a dataset bound to a kernel's skeleton and run through a machine's
 * simulated caches: the binding targets a dataset presents, the cache
 * configuration of a machine, the simulation's counts per level, line,
 * array and thread, and the workload the models read (module: sim).
 */
#ifndef AUGUR_SIM_H
#define AUGUR_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "augur/base.h"
#include "augur/cachesim.h"
#include "augur/data.h"
#include "augur/interp.h"
#include "augur/machine.h"
#include "augur/models.h"
#include "augur/skeleton.h"

/* ---- bound data ------------------------------------------------------------------ */

/*
 * The dataset side of a binding: the arrays and scalars the binding targets
 * of docs/skeleton.md name (csr.rowptr, coo.row, ell.idx, deg, bfs.level,
 * n, nnz, round, ...). Each form is built from the dataset the first time a
 * kernel asks for it and kept for the next. Opaque.
 */
struct augur_bound;

/* How the dataset is presented; zero-initialised means "all defaults". */
struct augur_bound_opts {
    bool stored_only;       /* symmetric data: the stored triangle only (default: both) */
    uint32_t ell_width;     /* ELLPACK width; 0: the largest row degree */
    uint32_t bfs_source;    /* the source of bfs.level (default node 0) */
    bool bfs_source_maxdeg; /* the source is the first node of largest out-degree */
    int64_t bfs_inf;        /* the "unvisited" level; used when bfs_inf_set (default INT32_MAX) */
    bool bfs_inf_set;
    int64_t round;      /* the scalar target round (0: 1) */
    uint32_t nthreads;  /* the scalar target nthreads (0: 1) */
    uint32_t tile_size; /* the tiling.* targets' tile size (0: those targets are refused) */
};

/*
 * Presents a dataset to kernels. ds is borrowed and must outlive the result
 * (mesh.cells reads it). Returns 0, or AUGUR_EINVAL for options that do
 * not fit the data (a BFS source beyond the nodes). The caller owns *out;
 * free it with augur_bound_free().
 */
AUGUR_API int augur_bound_new(const struct augur_dataset *ds, const struct augur_bound_opts *opts,
                              struct augur_bound **out, struct augur_diag *diag);

/*
 * The same over a CSR matrix (sorted rows, as augur_dataset_csr() builds
 * them), e.g. a sample. csr is borrowed and must outlive the result;
 * mesh.cells is not available.
 */
AUGUR_API int augur_bound_from_csr(const struct augur_csr *csr, const struct augur_bound_opts *opts,
                                   struct augur_bound **out, struct augur_diag *diag);

/* Frees bound data; NULL is a no-op. */
AUGUR_API void augur_bound_free(struct augur_bound *b);

/*
 * The value of a scalar target ("n", "nnz", "ell.width", "round", "=5",
 * ...). Returns 0, or AUGUR_EBIND for an unknown target.
 */
AUGUR_API int augur_bound_scalar(struct augur_bound *b, const char *target, double *out,
                                 struct augur_diag *diag);

/*
 * The BFS level of every node from the source (opts->bfs_source), over
 * the out-edges of the CSR (csr.rowptr, csr.col), unreached nodes at the
 * "unvisited" level; *nlevels gets one more than the deepest level.
 * Borrowed, valid until b is freed.
 */
AUGUR_API int augur_bound_bfs_levels(struct augur_bound *b, const int64_t **levels,
                                     uint32_t *nnodes, uint32_t *nlevels, struct augur_diag *diag);

/* The BFS source actually used (after bfs_source_maxdeg), or 0 without a graph. */
AUGUR_API uint32_t augur_bound_bfs_source(struct augur_bound *b);

/*
 * The element count of an array target (csr.col: nnz, vec(2*n): 2 n, ...).
 * AUGUR_EBIND for an unknown or malformed target.
 */
AUGUR_API int augur_bound_array_count(struct augur_bound *b, const char *target, uint64_t *count,
                                      struct augur_diag *diag);

/*
 * Writes the first count values of an array target into dst as elements of
 * decl's type (decl->elem, decl->elem_size bytes each), checked and
 * converted as the interpreter binds a kernel's arrays: value targets of
 * a pattern matrix are ones, vec() targets zeros, bfs.level the levels
 * before round (0: the bound round; later nodes at the "unvisited" level).
 * count may not exceed augur_bound_array_count(). AUGUR_EBIND (naming
 * decl->name, without a location) when the values do not fit the type.
 */
AUGUR_API int augur_bound_array_fill(struct augur_bound *b, const struct augur_array *decl,
                                     const char *target, int64_t round, uint64_t count, void *dst,
                                     struct augur_diag *diag);

/*
 * The bound data as the interpreter reads it (augur_interp_new()): b is
 * borrowed and must outlive every interpreter made with the source.
 */
AUGUR_API void augur_bound_source(struct augur_bound *b, struct augur_source *out);
/* augur_interp_new() reading b (borrowed: it must outlive *out). */
AUGUR_API int augur_interp_new_bound(const struct augur_skel *skel, const struct augur_node *kernel,
                                     struct augur_bound *b, const struct augur_interp_opts *opts,
                                     struct augur_interp **out, struct augur_diag *diag);

/* ---- the branch predictor of a machine ------------------------------------------- */

/*
 * The branch predictor a CPU machine's threads run: its branch_predictor
 * section, each size it does not give from the built-in defaults
 * (augur_machine_cpu_defaults()). False for a GPU, whose warps take both
 * sides of a branch rather than guess.
 */
AUGUR_API bool augur_bp_config_from_machine(const struct augur_machine *m,
                                            struct augur_bp_config *out);

/* ---- the caches of a machine ------------------------------------------------------ */

/*
 * Builds a simulator configuration from a machine model for nthreads
 * simulator threads. Threads are placed on cores in order, one per core while
 * there are enough cores, else ceil(nthreads / cores) per core; a level shared
 * by k cores is then shared by the threads on them. For a GPU a simulator
 * thread is an SM. Fields the machine leaves out take the simulator's
 * defaults: unknown associativity is fully associative LRU (as Pai et al. AGP'17 §6.4
 * simulates a GPU L2), write-back with write-allocate, non-inclusive, no
 * prefetcher, and DRAM blocks of memory.row_buffer_bytes (default 256, seed
 * 000 §6.4) kept open in memory.banks (default 16) rows: one per bank for a
 * CPU (AUGUR_DRAM_OPEN_BANK), a fully associative LRU set for a GPU
 * (AUGUR_DRAM_LRU, as Pai et al. AGP'17 simulates them). A level without a size or a
 * line size cannot be simulated: AUGUR_EMODEL names it. nthreads beyond
 * cores x threads_per_core (a GPU: its SMs) is AUGUR_ERANGE.
 */
AUGUR_API int augur_cache_config_from_machine(const struct augur_machine *m, unsigned nthreads,
                                              struct augur_cache_config *cfg,
                                              struct augur_diag *diag);

/* ---- simulation: the interpreter feeding the cache simulator ------------------------ */

/* Options of augur_simulate(); zero-initialised means "all defaults". */
struct augur_sim_opts {
    struct augur_interp_opts interp;
    /* 0: one run; 1: all rounds (augur_interp_run_rounds); else this many runs. */
    uint32_t runs;
    bool rounds;       /* run the BFS rounds (runs ignored) */
    bool warm;         /* run once before counting (caches and data warm) */
    bool no_flush;     /* do not write dirty lines back at the end */
    const char *trace; /* also write the events here (NULL: none) */
    /*
     * The requests a stream prefetcher sees coming: within stream_reach
     * lines of one of the streams streams each thread touched last
     * (augur_sim_group.far counts the others). streams 0: no such split.
     */
    uint32_t streams, stream_reach;
};

/* The machine's prefetcher streams into so (each value it does not give from the defaults). */
AUGUR_API void augur_sim_streams_from_machine(const struct augur_machine *m,
                                              struct augur_sim_opts *so);

/* Counts of one group (a source line, an array, a node) at every level. */
struct augur_sim_group {
    uint32_t key; /* the line, the array index or the access number */
    uint32_t file;
    uint64_t events;
    struct augur_cache_counts level[AUGUR_CACHESIM_MAX_LEVELS + 1];
    /*
     * Of level, the requests whose line lay more than stream_reach lines
     * from the last line of each of the streams the thread touched last
     * (augur_sim_opts): a stream prefetcher does not see them coming
     * (augur_sim_profile.far_measured).
     */
    struct augur_cache_counts far[AUGUR_CACHESIM_MAX_LEVELS + 1];
    /* CUDA: its warp memory instructions and their active lanes, summed (lanes / 32 per one) */
    uint64_t warp_jobs, warp_lanes;
};

/* The result of augur_simulate(). */
struct augur_sim_profile {
    unsigned nlevels; /* cache levels; level[nlevels] is memory */
    char level_name[AUGUR_CACHESIM_MAX_LEVELS + 1][16];
    struct augur_cache_counts level[AUGUR_CACHESIM_MAX_LEVELS + 1];
    uint64_t events;
    uint32_t rounds;               /* runs counted (rounds of a BFS) */
    double seconds;                /* wall time of the counted runs */
    struct augur_sim_group *lines; /* by file then line */
    size_t nlines;
    struct augur_sim_group *arrays; /* by array index */
    size_t narrays;
    struct augur_sim_group *accesses; /* by access number */
    size_t naccesses;
    struct augur_interp_stats stats; /* its thread array points into the profile */
    struct augur_thread_work *thread;
    uint64_t ops[AUGUR_OPK_COUNT];
    bool far_measured; /* the groups' far counts were kept (too many accesses: not) */
    /*
     * How the indirect reads that wait cluster in time, for the misses one
     * stall overlaps (the epoch model of memory-level parallelism): a read
     * that waits for level i opens an epoch unless it comes within W of
     * its thread's accesses after the read that opened the current one;
     * every read in the epoch overlaps that one's wait. miss_reads[i]
     * counts the indirect reads far from their access's previous line
     * (the prefetcher does not see them coming) that level i or beyond
     * served; miss_epochs[i][k] the epochs they open with W =
     * AUGUR_WORK_WINDOW(k). Kept with the far counts (CPU kernels only).
     */
    uint64_t miss_reads[AUGUR_CACHESIM_MAX_LEVELS + 1];
    uint64_t miss_epochs[AUGUR_CACHESIM_MAX_LEVELS + 1][AUGUR_WORK_NWINDOWS];
    bool epochs_measured;
    /*
     * CUDA: warp memory instructions (the k-th execution of an access by a
     * warp's lanes, coalesced into requests per line for the sectors they
     * need), of them the loads (Pai et al. AGP'17 §6.3's jobs: it does not model
     * writes), and the loads per global warp id (block b holds warps
     * b * ceil(block / 32) onwards), summed over the counted runs; nwarps is
     * 0 when the table could not be kept.
     */
    uint64_t warp_jobs, warp_loads;
    /* CUDA: the active lanes of the warp memory instructions, summed (of 32 each: divergence,
       guards that idle lanes, a last partial warp) */
    uint64_t warp_lanes;
    uint64_t run_max_loads; /* over the counted runs, each run's busiest warp's loads */
    /*
     * The loads by the deepest level any of their requests reached (0: all
     * hit L1; nlevels: one read memory): a warp waits for its slowest lane.
     */
    uint64_t warp_load_reach[AUGUR_CACHESIM_MAX_LEVELS + 1];
    uint64_t run_max_reach[AUGUR_CACHESIM_MAX_LEVELS + 1]; /* the same of run_max_loads' loads */
    uint32_t *jobs_per_warp;
    uint32_t *reach_per_warp; /* per warp, AUGUR_CACHESIM_MAX_LEVELS + 1: its warp_load_reach */
    size_t nwarps;
};

/*
 * Runs kernel on data with the caches cfg (one simulator thread per OpenMP
 * thread, or per SM for CUDA: cfg must be made for that many threads) and
 * counts every level per source line, per array and per access. The
 * caller owns *out (augur_sim_profile_free()). in may be NULL; when not,
 * it receives the interpreter used (the caller's, augur_interp_free()), to
 * read array data and node counts.
 */
AUGUR_API int augur_simulate(const struct augur_skel *skel, const struct augur_node *kernel,
                             struct augur_bound *data, const struct augur_cache_config *cfg,
                             const struct augur_sim_opts *opts, struct augur_sim_profile **out,
                             struct augur_interp **in, struct augur_diag *diag);

AUGUR_API void augur_sim_profile_free(struct augur_sim_profile *p);

/* ---- the workload the models read ------------------------------------------------ */

/*
 * What the compiler makes of short loops and small local arrays: the bytes
 * of the vector it packs a short loop or side-by-side statements into, and
 * the most elements of a local array it keeps in registers (the machine's
 * simd.pack_bytes and simd.register_elems).
 */
struct augur_codegen {
    uint32_t pack_bytes;
    uint32_t register_elems;
};

/* The machine's code generation into out (each value it does not give from the defaults). */
AUGUR_API void augur_codegen_from_machine(const struct augur_machine *m, struct augur_codegen *out);

/*
 * Builds the workload of a simulation: prof and in from augur_simulate()
 * on kernel of skel. calls is the number of calls the profile covers (a
 * whole BFS counts as one); cg what the compiler packs and keeps in
 * registers (NULL: the CPU defaults). The caller owns out->lines
 * (augur_workload_release()). Returns 0 or AUGUR_EINVAL.
 */
AUGUR_API int augur_workload_from_profile(const struct augur_skel *skel,
                                          const struct augur_node *kernel,
                                          const struct augur_interp *in,
                                          const struct augur_sim_profile *prof, double calls,
                                          const struct augur_codegen *cg,
                                          struct augur_workload *out, struct augur_diag *diag);

/* What one block of a CUDA launch holds on an SM besides its warps (0: not known, no limit). */
struct augur_gpu_block_use {
    uint32_t regs;         /* registers per thread (nvcc --resource-usage, Nsight Compute) */
    uint64_t shared_bytes; /* shared memory per block: the kernel's static arrays and the dynamic */
};

/* How many blocks of a launch an SM holds at once, by the machine's limits alone. */
struct augur_gpu_occupancy {
    uint32_t warps_per_block;
    uint32_t blocks_per_sm;
    uint32_t warps_per_sm; /* blocks_per_sm * warps_per_block */
    double occupancy;      /* warps_per_sm over the SM's max_warps_per_sm (NVIDIA's theoretical) */
    const char *limit;     /* what decides it: "warps", "blocks", "registers", "shared memory" */
    struct augur_gpu_block_use use;
};

/*
 * The theoretical occupancy of blocks of block threads on machine m (kind
 * gpu), as NVIDIA's occupancy calculator counts it: the SM's warp and block
 * limits, its registers (each warp takes regs x warp_size rounded up to the
 * machine's register_alloc_unit) and its shared memory (each block its
 * shared_bytes plus shared_reserved_per_block, rounded up to
 * shared_alloc_unit); a limit the machine file or use does not give is not
 * applied. AUGUR_EINVAL when one block does not fit an SM (the launch would
 * fail on this GPU), naming the resource.
 */
AUGUR_API int augur_gpu_occupancy(const struct augur_machine *m, uint64_t block,
                                  const struct augur_gpu_block_use *use,
                                  struct augur_gpu_occupancy *out, struct augur_diag *diag);

/* The bytes of the kernel's __shared__ arrays whose size the source fixes (extern ones: 0). */
AUGUR_API uint64_t augur_gpu_static_shared(const struct augur_node *kernel);

/*
 * The GPU counts of a CUDA kernel's simulation on machine m (kind gpu): the
 * jobs, sectors served per level and DRAM rows of prof, per call, and
 * W_max from the jobs per warp, the blocks dealt round-robin to the SMs and
 * as many resident per SM as occ says (augur_gpu_occupancy() of the
 * launch's block; NULL: the warp and block limits alone) and the grid
 * fills. launches: kernel launches per call. Sets w->gpu_given. Returns 0,
 * or AUGUR_EINVAL for a profile without warp jobs, a machine without SMs or
 * a block no SM holds.
 */
AUGUR_API int augur_workload_gpu(const struct augur_sim_profile *prof,
                                 const struct augur_machine *m, double calls, double launches,
                                 const struct augur_gpu_occupancy *occ, struct augur_workload *w,
                                 struct augur_diag *diag);

/*
 * For a kernel with a parameter bound to round (a topology-driven BFS):
 * simulates rounds 1 .. nrounds on data with the caches cfg, the caches
 * carried from round to round as in the real search, and records each
 * round's accesses and requests served per level in w->rounds, so that
 * Model 2 analyses each round on its own (Pai et al. AGP'17 section 5.2). Returns 0,
 * AUGUR_EINVAL for a kernel without a round parameter, or the
 * interpreter's error.
 */
AUGUR_API int augur_workload_add_rounds(const struct augur_skel *skel,
                                        const struct augur_node *kernel, struct augur_bound *data,
                                        const struct augur_cache_config *cfg,
                                        const struct augur_interp_opts *opts, uint32_t nrounds,
                                        struct augur_workload *w, struct augur_diag *diag);

/*
 * The second pass: runs the kernel once more on data (without the caches)
 * and adds to w's lines, per call (times scale): the chained updates
 * (y[u] += v where the previous execution of the same update, on the same
 * thread, stored the same element: each waits for the one before through
 * memory), and the mispredicted exits of loops whose trip count the data
 * decides (an instance whose trip count differs from the previous
 * instance's on that thread: a predictor expects the count it saw last).
 * rounds: every BFS round, as augur_interp_run_rounds(). prof, the
 * simulation w was built from (NULL: none), says how far the load of a
 * loop's bound was served: a mispredicted exit waits for it (dep_misses).
 *
 * Three steps, so that the pass can run on another thread while the caller
 * simulates (its interpreter is its own; augur_chain_pass_new() reads data,
 * the others do not): augur_chain_pass_new() makes the pass's interpreter
 * (warning of nothing: the simulated run warns of the same),
 * augur_chain_pass_run() runs it, augur_chain_pass_finish() adds what it
 * counted to w. Each returns 0 or the interpreter's error;
 * augur_chain_pass_free(NULL) is a no-op.
 */
struct augur_chain_pass;
AUGUR_API int augur_chain_pass_new(const struct augur_skel *skel, const struct augur_node *kernel,
                                   struct augur_bound *data, const struct augur_interp_opts *opts,
                                   bool rounds, struct augur_chain_pass **out,
                                   struct augur_diag *diag);
AUGUR_API int augur_chain_pass_run(struct augur_chain_pass *cp, struct augur_diag *diag);
AUGUR_API int augur_chain_pass_finish(struct augur_chain_pass *cp, double scale,
                                      const struct augur_sim_profile *prof,
                                      struct augur_workload *w, struct augur_diag *diag);
AUGUR_API void augur_chain_pass_free(struct augur_chain_pass *cp);

#endif
