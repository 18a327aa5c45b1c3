/*
 * models.h - the analytic performance models (module: models): the per-level bandwidth model
 * of Langguth et al. JPDC'15 section 9 and the operational analysis of Pai et al. AGP'17, behind
 * one table-driven interface. docs/models.md states every equation.
 */
#ifndef AUGUR_MODELS_H
#define AUGUR_MODELS_H

#include <stdint.h>

#include "augur/base.h"
#include "augur/error.h"
#include "augur/machine.h"
#include "augur/skeleton.h"

#define AUGUR_PRED_MAX_LEVELS  (AUGUR_MACHINE_MAX_CACHES + 1) /* caches + memory */
#define AUGUR_PRED_MAX_SERVERS 32

/*
 * Model 1 (Langguth et al. JPDC'15 eq. 4-5): one level of the memory hierarchy, named after
 * the source of its reads (Table 1's rows: L1, L2, L3, Memory).
 */
struct augur_bw_level {
    const char *name;
    double size_words; /* C: words the level above holds (Table 1: "size C_{i-1}") */
    double line_words; /* CL: words one line transfer brings from this level */
    double bw_gbs;     /* BW: GB/s (10^9 bytes per second) read from this level */
    double hit;        /* h in [0, 1] when measured (simulator); < 0: min(1, C/W) */
};

struct augur_bw_input {
    double regular;    /* R: regular words per flop */
    double irregular;  /* U: irregular words per flop */
    double hit_words;  /* words an irregular hit consumes: 1 in eq. 4, 0 in eq. 6 */
    double word_bytes; /* w: bytes per word (8 for double) */
    double ws_words;   /* W: working set in words (W = b in Langguth et al. JPDC'15) */
    const struct augur_bw_level *levels;
    uint32_t nlevels; /* 1 .. AUGUR_PRED_MAX_LEVELS */
};

struct augur_bw_result {
    double hit[AUGUR_PRED_MAX_LEVELS];    /* h_i used */
    double wpf[AUGUR_PRED_MAX_LEVELS];    /* WpF_i, words per flop (eq. 4) */
    double gflops[AUGUR_PRED_MAX_LEVELS]; /* P_i = BW_i / (w WpF_i) */
    double gflops_min;                    /* P = min_i P_i (eq. 5) */
    uint32_t bottleneck;                  /* argmin (first on a tie) */
};

/*
 * Evaluates eq. 4-5 (with hit_words 0: eq. 6). Returns 0, or AUGUR_EINVAL
 * with the offending field in diag (negative, NaN, no levels, h > 1).
 */
AUGUR_API int augur_pred_bw(const struct augur_bw_input *in, struct augur_bw_result *out,
                            struct augur_diag *diag);

/*
 * Table 1 of Langguth et al. JPDC'15 from a machine file: one level per cache, then memory.
 * Level i's size is that of the level above (the register file for L1, i.e.
 * registers_bytes), divided among min(threads, shared_by) threads for a
 * shared cache; its line is its own (memory: the last cache's); its bandwidth
 * the file's at `threads`. levels must hold AUGUR_PRED_MAX_LEVELS. Returns 0,
 * or AUGUR_EMODEL naming what the file lacks (a bandwidth, the memory).
 */
AUGUR_API int augur_pred_bw_levels(const struct augur_machine *m, uint32_t threads,
                                   double word_bytes, struct augur_bw_level *levels,
                                   uint32_t *nlevels, struct augur_diag *diag);

/*
 * The crossover of Langguth et al. JPDC'15 eq. 2-3: the accesses per item `a` to a cache at
 * which its bound, bw_cache / (access_bytes a), meets the memory bound,
 * bw_mem / item_bytes: a = item_bytes bw_cache / (access_bytes bw_mem).
 * GPU (eq. 2): 32-byte sectors, 64 bytes per tetrahedron: a = 2 BW_L2 / BW_M.
 * CPU (eq. 3): 64-byte lines: a = BW_L3 / BW_M. Returns < 0 for a
 * non-positive argument.
 */
AUGUR_API double augur_pred_bw_crossover(double bw_cache, double bw_mem, double access_bytes,
                                         double item_bytes);

/*
 * Model 2 (Pai et al. AGP'17): one server of a queueing network. Its service time is
 * `service` when > 0, else read from the curve at m = V n (the machine's
 * service time versus outstanding requests).
 */
struct augur_opa_server {
    const char *name;
    double completions; /* C_i */
    double service;     /* S_i (ns, cycles: any one unit for all servers) */
    const struct augur_curve_point *curve;
    uint32_t ncurve;
};

struct augur_opa_input {
    double jobs; /* N */
    double load; /* n: jobs in the system on average (curves only) */
    const struct augur_opa_server *servers;
    uint32_t nservers; /* 1 .. AUGUR_PRED_MAX_SERVERS */
};

struct augur_opa_result {
    double visits[AUGUR_PRED_MAX_SERVERS];  /* V_i = C_i / N */
    double mlp[AUGUR_PRED_MAX_SERVERS];     /* m_i = V_i n */
    double service[AUGUR_PRED_MAX_SERVERS]; /* S_i used */
    double demand[AUGUR_PRED_MAX_SERVERS];  /* V_i S_i */
    uint32_t bottleneck;                    /* B = argmax V_i S_i (first on a tie) */
    double throughput;                      /* X_0 = 1 / (V_B S_B), jobs per time unit */
    double time;                            /* N / X_0 = N V_B S_B */
};

/* Operational analysis of one network (one round). Returns 0 or AUGUR_EINVAL. */
AUGUR_API int augur_pred_opa(const struct augur_opa_input *in, struct augur_opa_result *out,
                             struct augur_diag *diag);

/*
 * Level-synchronous algorithms (BFS): each round analysed on its own, the
 * times added. results (may be NULL) gets nrounds entries. Returns 0 or
 * AUGUR_EINVAL naming the round.
 */
AUGUR_API int augur_pred_opa_rounds(const struct augur_opa_input *rounds, uint32_t nrounds,
                                    struct augur_opa_result *results, double *total_time,
                                    struct augur_diag *diag);

/*
 * A service-time curve at m: the point's value, linear interpolation
 * between neighbours, the nearest end outside. Returns 0 for an empty curve.
 */
AUGUR_API double augur_pred_curve_at(const struct augur_curve_point *c, uint32_t n, double m);

/* ---- the workload: what a simulated run of a kernel on data did ------------------- */

#define AUGUR_WORK_MAX_LEVELS 5 /* caches + memory: the cache simulator's four levels at most */

/*
 * The windows, in a thread's accesses, over which the simulation counts the
 * misses one stall overlaps: 4, 8, ... 1024.
 */
#define AUGUR_WORK_NWINDOWS  9
#define AUGUR_WORK_WINDOW(k) (4u << (k))
/*
 * Chained updates by how far back (in the thread's memory accesses) the
 * store they wait for was: bucket b holds distances 2^b + 1 .. 2^(b+1)
 * (the first: 1 and 2), up to 128.
 */
#define AUGUR_CHAIN_BUCKETS 7
/*
 * Chained updates by the length (links) of the chain they belong to: bucket
 * b holds lengths 2^b + 1 .. 2^(b+1) (the first: 1 and 2), the last every
 * length above 2^(AUGUR_CHAIN_LENS - 1).
 */
#define AUGUR_CHAIN_LENS 9
/* Buckets of a carried loop's instances by trip count: [2^b, 2^(b+1)), the last open. */
#define AUGUR_CARRIED_LENS 20

/* The values bucket b of either holds: lo .. hi (the last of n buckets: hi and all above). */
static inline void augur_chain_bucket_range(unsigned b, double *lo, double *hi)
{
    *lo = b ? (double)(UINT64_C(1) << b) + 1 : 1;
    *hi = (double)(UINT64_C(2) << b);
}

/* The bucket of value v >= 1 among n. */
static inline unsigned augur_chain_bucket(uint64_t v, unsigned n)
{
    unsigned b = 0;

    while (b + 1 < n && v > (UINT64_C(2) << b))
        b++;
    return b;
}

/*
 * Counts of one source line (or of the whole kernel) per call: accesses,
 * where they were served, and the operations the line executes.
 */
struct augur_work_line {
    uint32_t file, line; /* skel->files index, 1-based line; 0 for the whole kernel */
    uint32_t loop;   /* the innermost loop around the line's first node: its node id + 1; 0: none */
    double accesses; /* element accesses (a SIMD lane is one; an update one) */
    double loads, stores;              /* scalar load and store instructions (an update is both) */
    double bytes;                      /* bytes the accesses name */
    double irregular, irregular_bytes; /* of the accesses, indirect ones */
    double served[AUGUR_WORK_MAX_LEVELS];        /* requests hitting cache i; last: memory */
    double irr_served[AUGUR_WORK_MAX_LEVELS];    /* of served, the indirect accesses' */
    double atomic_served[AUGUR_WORK_MAX_LEVELS]; /* of irr_served, the atomic updates' */
    double transfers[AUGUR_WORK_MAX_LEVELS];  /* of served, lines another thread wrote and held */
    double fill_bytes[AUGUR_WORK_MAX_LEVELS]; /* bytes into cache i from below; last: DRAM */
    double writeback_bytes[AUGUR_WORK_MAX_LEVELS]; /* bytes cache i sends down; last: DRAM writes */
    double row_misses;                             /* DRAM blocks opened */
    double branch_misses; /* data-dependent branches: evaluations x min(p, 1 - p) */
    /*
     * Of those, the mean run of the common outcome before each rare one,
     * the geometric mean of 1 + run over the line's branches weighted by
     * their misses, less 1; a loop's exits count as run 0 (the capacity
     * curve alone prices them); 0: none or not known
     */
    double branch_run;
    /*
     * Of the mispredictions, those whose condition waits for a load that
     * missed L1 and landed far from the thread's streams (ld = level[dst];
     * if (ld == INF)), by the level that served it (index 0 unused): the
     * core finds the misprediction only when the load returns.
     */
    double dep_misses[AUGUR_WORK_MAX_LEVELS];
    /*
     * The if-conditions' jumps the simulated branch predictor got wrong
     * (learning within and across calls included: no run or capacity
     * curve applies), and of them those waiting for a far load, as above
     */
    double guessed;
    double guessed_dep[AUGUR_WORK_MAX_LEVELS];
    /*
     * Locked read-modify-writes: atomic updates and compare-and-swaps (an
     * atomic load or store is a plain one on the CPUs augur models)
     */
    double atomics;
    /*
     * Updates (+=) of an element a recent update stored, whichever access
     * did (y[u] -= f after an earlier edge's y[v] += f): a chain through
     * memory. chain_dist splits them by the distance to that store
     * (AUGUR_CHAIN_BUCKETS): the core issues the accesses between
     * meanwhile, so a link far enough back waits for nothing.
     */
    double chained;
    double chain_dist[AUGUR_CHAIN_BUCKETS];
    /*
     * The chains' length (updates) weighted by their chained updates: on a
     * skewed graph one hub's chain of a thousand holds many of them while
     * the mean chain is short; 0: not known (the mean is used)
     */
    double chain_len;
    /*
     * The line's chained updates shared out as its array's chains hold them,
     * by length (AUGUR_CHAIN_LENS): short chains overlap in the core's
     * window, a hub's long one does not. All 0: not known (chain_len is used).
     */
    double chain_lens[AUGUR_CHAIN_LENS];
    /*
     * Loop-carried floating-point operations (a local accumulator, sum +=):
     * carried[k] of kind k, in carried_iters iterations of the loops that
     * carry them, entered carried_runs times (chains: independent of each other);
     * of ops spread over several accumulators, one accumulator's share
     * (acc0 += ...; acc1 += ... wait for one latency an iteration).
     */
    double carried[AUGUR_OPK_COUNT];
    double carried_iters, carried_runs;
    /*
     * The chains' length (iterations) weighted by their iterations, where
     * the data decides the loop's trip count (a row's degree): on a skewed
     * graph most iterations run in long rows while the mean row is short;
     * 0: not known (the mean is used).
     */
    double carried_len;
    /*
     * The same by trip count: the iterations in instances of 2^b to
     * 2^(b+1) - 1 trips, and their length weighted by themselves; a chain
     * waits as long as it is (short rows overlap, a hub's waits). Zeros:
     * not known (carried_len alone).
     */
    double carried_lens[AUGUR_CARRIED_LENS];
    double carried_lens_len[AUGUR_CARRIED_LENS];
    double instr[AUGUR_OPK_COUNT]; /* operation instructions (a vector op is one) */
    double elems[AUGUR_OPK_COUNT]; /* operations on elements (lanes counted) */
};

/* One round of a level-synchronous kernel (a BFS round): its requests per level. */
struct augur_work_round {
    double accesses;                      /* memory instructions of the round, all threads */
    double served[AUGUR_WORK_MAX_LEVELS]; /* requests hitting cache i; last: memory */
};

/*
 * A CUDA kernel's run on a GPU, per call (Pai et al. AGP'17 §6.3-6.5): warp memory
 * instructions are the jobs; sectors are 32-byte transfers.
 */
struct augur_work_gpu {
    double jobs;          /* N_G: warp memory instructions */
    double max_warp_jobs; /* W_max: the jobs of the busiest resident warp slot */
    double slots;         /* resident warp slots the launch fills */
    double launches;      /* kernel launches (a BFS: one per round) */
    double sector_hits[AUGUR_WORK_MAX_LEVELS]; /* sectors served by cache i; last: read from DRAM */
    double read_sectors[AUGUR_WORK_MAX_LEVELS]; /* sectors the loads asked of cache i (L1: all) */
    /*
     * The busiest warp slot's loads (W_max's) by the level that served their
     * slowest request, cache i; last: DRAM. All 0: not measured.
     */
    double load_reach[AUGUR_WORK_MAX_LEVELS];
    double row_hits, row_misses; /* DRAM requests to the open row, and those opening one */
    double dram_write_bytes;
    /* warp branch instructions and the divergent ones (augur_interp_stats); 0: not counted */
    double branches, divergent_branches;
};

/*
 * A kernel's run on data, per call, as the predictor's models read it:
 * built by augur_workload_from_profile() from a simulation, or by hand.
 */
struct augur_workload {
    unsigned threads;
    /*
     * The branches went through a simulated predictor (guessed); without
     * one the second pass (augur_chain_pass_new()) models the loops' exits. Not saved.
     */
    bool branches_simulated;
    unsigned nlevels;                           /* cache levels; served[nlevels] is memory */
    char level_name[AUGUR_WORK_MAX_LEVELS][16]; /* "L1", ..., "memory" */
    struct augur_work_line total;               /* the whole kernel */
    struct augur_work_line *lines;              /* per source line, by file then line */
    size_t nlines;
    /*
     * The indirect accesses alone: requests at each cache and how many of
     * them hit there or closer (Langguth et al.'s h of the irregular reads).
     */
    double irr_requests[AUGUR_WORK_MAX_LEVELS];
    double irr_hits[AUGUR_WORK_MAX_LEVELS];
    double
        footprint_bytes; /* bytes of the arrays the kernel touches: W of Langguth et al. JPDC'15 */
    /*
     * How the indirect reads that wait for level i or beyond (i >= 1)
     * cluster: overlap[i][k] is their number per epoch with a window of
     * AUGUR_WORK_WINDOW(k) accesses (augur_sim_profile.miss_epochs), the
     * misses one stall overlaps; 0 where none was measured.
     */
    double overlap[AUGUR_WORK_MAX_LEVELS][AUGUR_WORK_NWINDOWS];
    /*
     * Loads one after another in a thread, per load: each loop iteration's
     * loads wait on one another only through an indirection (x[col[j]]
     * waits for col[j]; val[j] goes beside it), so an iteration is 1 step,
     * 2 with an indirect load; a load outside loops is its own step.
     * 1 when the kernel loads nothing.
     */
    double load_steps;
    double flops; /* floating-point operations on elements (an FMA is two) */
    /* The busiest thread's share of the accesses (1 for one thread; 1/T when balanced). */
    double busiest_share;
    double simd_util; /* active lanes over lanes of the vector accesses; 1 without any */
    double calls;     /* the runs the counts were summed over (per call = total / calls) */
    double parallel;  /* OpenMP parallel regions entered per call (forks and joins) */
    double chunks;    /* worksharing chunks the busiest thread took per call */
    /*
     * Of the worksharing loops' iterations, the share dealt out on demand
     * (dynamic, guided) in a team of two or more: a thread meets different
     * parts of the work from call to call
     */
    double dealt_share;
    double alloc_bytes;  /* bytes of local arrays the busiest thread made per call (malloc) */
    double alloc_blocks; /* how many arrays those bytes came in */
    double
        tile_size; /* tiled-and-grouped kernels (Zhu et al. PACT'19 eq. 5): the tile size, else 0 */
    double tile_edges; /* the edges (non-zeros) tiled */
    double avg_mimd;   /* tiles per tile group, measured on the data (0: eq. 5's estimate) */
    /* A whole BFS: each round's counts (augur_workload_add_rounds()); NULL otherwise. */
    struct augur_work_round *rounds;
    uint32_t nrounds;
    bool gpu_given; /* a CUDA kernel: gpu holds its counts (augur_workload_gpu()) */
    struct augur_work_gpu gpu;
};

/* Frees w's lines and rounds; w is empty afterwards. */
AUGUR_API void augur_workload_release(struct augur_workload *w);
/*
 * Multiplies every count of w by f (a sample's counts to the full data's);
 * lengths and runs (chain_len, carried_len, branch_run) are not counts and
 * stay.
 */
AUGUR_API void augur_workload_scale(struct augur_workload *w, double f);
/*
 * The same with a factor per line, f[0 .. w->nlines): a sample's lines
 * scale by their loops (a row loop by the rows' ratio, an entry loop by
 * the entries'). The whole kernel's counts take the lines' factors
 * weighted by each line's part of the count; fallback where no line holds
 * any of it (and for the footprint).
 */
AUGUR_API void augur_workload_scale_lines(struct augur_workload *w, const double *f,
                                          double fallback);

/*
 * What a model needs; each model reads its own member (NULL: not
 * available). bw and opa give the paper's inputs directly; otherwise a
 * model derives its input from work and machine at threads.
 */
struct augur_model_input {
    const struct augur_bw_input *bw;
    const struct augur_opa_input *opa;
    const struct augur_workload *work;
    const struct augur_machine *machine;
};

/* One model's answer. rate is work per unit time in the unit named. */
struct augur_prediction {
    const char *model;
    double rate;
    const char *rate_unit;  /* "GFLOP/s", "jobs per time unit" */
    const char *bottleneck; /* the level or server's name, borrowed from the input */
    double seconds;         /* time of one call (from a workload), else 0 */
    /*
     * The time of one call if the core learned none of the branch outcomes
     * a call replays, where seconds counts on the calibrated capacity
     * learning them (whether a core does can turn on how its history hashes
     * the code's addresses: one binary learns what another does not); 0
     * when no learning was counted on.
     */
    double unlearned_seconds;
    /* Per source line (work->lines order), seconds of one call; NULL when the model has none. */
    double *line_seconds;
};

/*
 * A performance model (STYLE.md section 5). predict fills *out or returns
 * AUGUR_EINVAL when the input lacks what it needs; explain appends a table
 * of every intermediate value to buf.
 */
struct augur_model_ops {
    const char *name;
    const char *source; /* the paper and equations */
    int (*predict)(const struct augur_model_input *in, struct augur_prediction *out,
                   struct augur_diag *diag);
    int (*explain)(const struct augur_model_input *in, struct augur_buf *buf,
                   struct augur_diag *diag);
};

/* The registered models: count, the i-th, or by name (NULL when unknown). */
AUGUR_API uint32_t augur_model_count(void);
AUGUR_API const struct augur_model_ops *augur_model_at(uint32_t i);
AUGUR_API const struct augur_model_ops *augur_model_find(const char *name);

/*
 * Runs every registered model on in (work and machine set) and picks the
 * estimate: out gets augur_model_count() predictions (a model that cannot
 * answer gets seconds 0 and its reason in why[i]), *selected the index of
 * the chosen one and selected_why the reason. Each out[i].line_seconds is
 * the caller's (augur_free). Returns 0, or the first model's error when
 * none answers.
 */
AUGUR_API int augur_predict_all(const struct augur_model_input *in, struct augur_prediction *out,
                                char (*why)[160], uint32_t *selected, char *selected_why,
                                size_t why_size, struct augur_diag *diag);

/* A measured run for augur_fit_core(): its workload and its measured seconds per call. */
struct augur_fit_run {
    const struct augur_workload *work;
    double measured;
};

struct augur_fit_result {
    struct augur_machine_core core; /* the fitted core section */
    double issue_scale;             /* the machine's issue rates were multiplied by this */
    /*
     * eq. 4's a (seconds), fitted when some run is tiled (a tile size) and
     * ran a team of threads; else the machine's.
     */
    bool mimd_fitted;
    double mimd_a;
    double before, after; /* mean |ln(predicted / measured)| before and after */
    unsigned evaluations;
};

/*
 * Fits machine m's core section (issue rates as one scale, misses in
 * flight, mispredicted-branch cycles, OpenMP region cost), and T_MIMD's a
 * when tiled runs of teams are among the runs, so that Model 3
 * best predicts the runs: coordinate descent on the mean |ln(predicted /
 * measured)|, from the machine's own values. Returns 0, AUGUR_EINVAL for
 * no runs or a run without a time, AUGUR_EMODEL when the model cannot
 * predict a run on m.
 */
AUGUR_API int augur_fit_core(const struct augur_machine *m, const struct augur_fit_run *runs,
                             size_t n, struct augur_fit_result *out, struct augur_diag *diag);

#endif
