/*
 * predict.h - the prediction pipeline as one library call: a kernel's
 * skeleton, a dataset and a machine in; the time of one call from every
 * model, the selected estimate, the bottleneck, each source line's share and
 * the counts behind them out (module: predict).
 */
#ifndef AUGUR_PREDICT_H
#define AUGUR_PREDICT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "augur/data.h"
#include "augur/interp.h"
#include "augur/machine.h"
#include "augur/models.h"
#include "augur/sim.h"
#include "augur/skeleton.h"

/*
 * What one prediction shares with the next on the same dataset: the CSR
 * form, the category the sampler choice reads and the last sample. A sweep
 * (threads, schedules, tile sizes) builds one context and asks it many
 * questions. Opaque.
 */
struct augur_predict_ctx;

/*
 * A context over ds (borrowed: it must outlive the context). tree is the
 * categorizer that picks the sampler for --method auto (borrowed; NULL: none,
 * then Stride Average), tree_name how the output names it. The caller owns
 * *out (augur_predict_ctx_free()).
 */
AUGUR_API int augur_predict_ctx_new(const struct augur_dataset *ds, const struct augur_tree *tree,
                                    const char *tree_name, struct augur_predict_ctx **out,
                                    struct augur_diag *diag);
AUGUR_API void augur_predict_ctx_free(struct augur_predict_ctx *ctx);

/* Options of one prediction; zero-initialised means "all defaults". */
struct augur_predict_opts {
    unsigned threads; /* OpenMP threads (0: 1); CUDA kernels run on the machine's SMs */
    double sample;    /* simulate a sample of this share of the entries (0: all of them) */
    /*
     * --sample auto: all of the data up to sample_budget entries (0:
     * AUGUR_PREDICT_FULL_ENTRIES), above it a sample of sample_budget /
     * entries; sample is then not read.
     */
    bool sample_auto;
    uint64_t sample_budget;
    bool method_given; /* method names the sampler; else the tree picks it */
    enum augur_sampler method;
    uint64_t seed; /* of the sampler and of the random stand-ins */
    /*
     * A sampled prediction's interval rests on this many more samples at
     * the same rate, the samplers taken in turn (0: AUGUR_PREDICT_REPLICAS;
     * < 0: no interval).
     */
    int replicas;
    bool rounds;          /* a topology-driven BFS: one call is every round */
    uint32_t round;       /* one call is this round alone (0: not asked) */
    bool cold;            /* count the first call with empty caches */
    uint32_t tile_size;   /* a tiled-and-grouped kernel's tile size (0: none) */
    bool allow_empty;     /* predict a call that did (almost) no work */
    uint64_t grid, block; /* CUDA launch (0: the kernel's) */
    /*
     * CUDA: what a block holds besides its warps: registers per thread and
     * dynamic shared memory (the launch's third argument); the kernel's
     * static __shared__ arrays are added. 0: not known (no limit).
     */
    struct augur_gpu_block_use gpu_use;
    /*
     * "What if": every worksharing loop of the kernel runs schedule(sched,
     * chunk) instead of its own, as struct augur_interp_opts says (chunk 0:
     * none). A CUDA kernel, or one without a worksharing loop, is AUGUR_EINVAL.
     */
    bool sched_given;
    enum augur_sched sched;
    uint64_t chunk;
    struct augur_bound_opts
        bound; /* stored_only, ell_width, the BFS source; round/nthreads set here */
    augur_interp_warn_fn *on_warn;         /* the interpreter's warnings (NULL: none) */
    augur_interp_progress_fn *on_progress; /* the simulation's events as it goes (NULL: none) */
    void *warn_ud;                         /* of on_warn and on_progress */
};

/* The smallest sample a prediction reads: below, one row's accident is a large share of it. */
#define AUGUR_PREDICT_MIN_SAMPLE 1000

/*
 * The entries --sample auto simulates whole: a few seconds of simulation
 * for an SpMV-like kernel (two calls of about three accesses per entry at
 * tens of millions of accesses a second).
 */
#define AUGUR_PREDICT_FULL_ENTRIES (4ull << 20)

/* More samples behind a sampled prediction's interval: by default, and at most. */
#define AUGUR_PREDICT_REPLICAS     4
#define AUGUR_PREDICT_MAX_REPLICAS 16

/*
 * Where the time of a sampled call lies (docs/sampling.md): the selected
 * model's time on the sample and on the replicates, samples drawn with the
 * next seeds by the samplers in turn (augur_predict_replicate_method():
 * each sampler's own bias counts, not only its scatter; Stride Average's
 * squares placed at random in each half of the axes). With s the standard
 * deviation of the samples' log times and t Student's quantile for
 * samples - 1 degrees of freedom, the interval is the prediction times
 * exp(-t s) .. exp(t s).
 */
struct augur_predict_interval {
    uint32_t samples; /* predictions it rests on, this one included (0: no interval) */
    uint32_t failed;  /* replicates that gave no prediction */
    double level;     /* the interval's confidence: 0.95 */
    double lo, hi;    /* seconds */
    double log_sd;    /* s */
    double seconds[AUGUR_PREDICT_MAX_REPLICAS + 1]; /* each sample's time, this one first */
    enum augur_sampler method[AUGUR_PREDICT_MAX_REPLICAS + 1]; /* and its sampler */
    uint64_t seed[AUGUR_PREDICT_MAX_REPLICAS + 1];             /* and its seed */
    char why[160]; /* why a sampled prediction has none (else empty) */
};

/*
 * The sampler of an interval's j-th replicate (j >= 1) after a sample of
 * first: Stride Average, Random Tile and Random Row Blocks in turn, first's
 * own turn last (Random Edge joins the turns only as first).
 */
AUGUR_API enum augur_sampler augur_predict_replicate_method(enum augur_sampler first, unsigned j);

/*
 * A cache level as the machine file gives it to the simulation (before a
 * sample shrinks it): what decides the counts, latencies and bandwidths
 * aside.
 */
struct augur_predict_cache {
    char name[16];
    uint64_t size;
    uint32_t line, sector;
    int32_t ways;
    uint32_t shared_by;
    int8_t inclusive, write_alloc;
    uint8_t write_policy, prefetch, replacement;
};

/*
 * The result of augur_predict_run(), or of augur_profile_load() (then skel,
 * kernel and ds are NULL and the strings below are the file's). Pointers
 * into the inputs are borrowed from them.
 */
struct augur_predict_result {
    const struct augur_skel *skel;
    const struct augur_node *kernel;
    const struct augur_dataset *ds;
    const struct augur_machine *machine;
    /* what ran on what: the kernel, its source files (workload lines index them), the data */
    const char *kernel_name;
    const char *const *files;
    uint32_t nfiles, kernel_file, kernel_line;
    bool cuda;
    const char *dataset;
    uint32_t rows, cols;
    uint64_t nnz;
    /* the machine's caches the counts come from (a profile predicts only for the same ones) */
    struct augur_predict_cache caches[AUGUR_WORK_MAX_LEVELS];
    uint32_t ncaches;
    uint32_t row_buffer_bytes, banks; /* the machine's DRAM rows (0: not given) */
    unsigned threads;
    /* the schedule every worksharing loop ran with in place of its own (sched_given false: none) */
    bool sched_given;
    enum augur_sched sched;
    uint64_t chunk;
    /* the data the kernel ran on */
    bool sampled;
    struct augur_sample_info sample;
    char sampler_why[PATH_MAX + 96]; /* how the sampler was chosen */
    char sample_note[160];           /* why a sample asked for was not taken (empty: none) */
    char sample_auto[200];           /* how --sample auto chose (empty: not asked) */
    /*
     * Full entries / sampled entries: the counts of a loop whose trips the
     * data decide are multiplied by this; a loop over a scalar of the
     * binding (for i < n) by that scalar's ratio (docs/sampling.md).
     */
    double scale;
    struct augur_predict_interval interval;
    /* the simulation */
    uint64_t sim_events;
    uint32_t rounds;
    double sim_seconds;
    bool cold_caches; /* counted from empty caches (--cold, or a whole BFS) */
    /* --tile-size: the tiling statistics (tiling.tile_size 0: not asked) */
    struct augur_tiling_stats tiling;
    bool simd_kernel; /* the kernel has SIMD accesses: simd_util applies */
    /*
     * The kernel runs the schedule itself (binds tiling.* targets): its
     * simulated vector instructions already hold the idle lanes, so
     * simd_util is not applied again.
     */
    bool tiling_run;
    /* the counts every model reads */
    struct augur_workload work;
    /* CUDA: how many blocks an SM holds at once and why (warps_per_block 0: not a CUDA run) */
    struct augur_gpu_occupancy occupancy;
    /* every model's answer, the selected one and why */
    uint32_t nmodels, selected;
    struct augur_prediction pred[AUGUR_PRED_MAX_SERVERS];
    char why[AUGUR_PRED_MAX_SERVERS][160];
    char selected_why[200];
    double seconds;             /* wall time of augur_predict_run() */
    struct augur_arena strings; /* a loaded profile's strings */
};

/*
 * Predicts one call of kernel (a kernel node of skel, its bindings applied)
 * on the context's dataset and machine m: binds the data (the full data, or
 * a sample whose counts are scaled up and whose caches shrink by the
 * footprint ratio), runs the skeleton through the simulated caches and
 * branch predictors, builds the workload, and runs every model. A sampled
 * prediction predicts again on opts->replicas more samples for its interval
 * (a replicate that fails is counted, not an error). skel, kernel and m are
 * borrowed and must outlive the result.
 *
 * Returns 0 and the caller's *out (augur_predict_result_free()), or an error
 * explained in diag: AUGUR_EINVAL for options that do not fit (a CPU kernel
 * on a GPU machine, more threads than the machine runs, a sample too small),
 * AUGUR_ERUN for a call that did no work or almost none on the data (less
 * than the square root of its rows plus entries: a guard or a loop bound
 * that skipped the kernel's loops) unless opts->allow_empty, and the
 * binder's, interpreter's and models' errors.
 */
AUGUR_API int augur_predict_run(struct augur_predict_ctx *ctx, const struct augur_skel *skel,
                                const struct augur_node *kernel, const struct augur_machine *m,
                                const struct augur_predict_opts *opts,
                                struct augur_predict_result **out, struct augur_diag *diag);

/*
 * Runs every model on r's workload for machine m (borrowed: it must outlive
 * r), replacing the answers r holds: the profile stage's counts priced on
 * another machine file of the same caches. AUGUR_EINVAL when m's caches
 * differ from the ones the counts were simulated with (names, sizes, lines,
 * ways, sharing: the counts would not be m's), when m runs fewer threads,
 * or for a CUDA kernel on a CPU (and the reverse).
 */
AUGUR_API int augur_predict_models(struct augur_predict_result *r, const struct augur_machine *m,
                                   struct augur_diag *diag);

/* ---- the profile stage file --------------------------------------------------------- */

/*
 * A result's counts as a versioned JSON file (format "augur-profile",
 * version AUGUR_PROFILE_VERSION; docs/cli/predict.md): what ran on what,
 * the caches it met, the simulation's summary and the workload every model
 * reads. `augur simulate -o` and `augur predict --save-profile` write it;
 * `augur predict --profile` prices it on a machine without simulating
 * again. Written atomically (augur_out_open()).
 */
#define AUGUR_PROFILE_VERSION 1
AUGUR_API int augur_profile_save(const struct augur_predict_result *r, const char *path,
                                 struct augur_diag *diag);
/*
 * Reads a profile into a result without answers (run augur_predict_models()).
 * Errors name the file and, for JSON syntax, line:col: AUGUR_EPARSE for a
 * file that is no profile or of another version, AUGUR_EFORMAT for values
 * out of range. The caller owns *out (augur_predict_result_free()).
 */
AUGUR_API int augur_profile_load(const char *path, struct augur_predict_result **out,
                                 struct augur_diag *diag);

/* The workload as JSON and back (jansson's json_t; the caller owns what to_json returns). */
struct json_t;
AUGUR_API struct json_t *augur_workload_to_json(const struct augur_workload *w);
/* The schedule override r's counts ran with, "dynamic,64", or JSON null for none. */
AUGUR_API struct json_t *augur_schedule_to_json(const struct augur_predict_result *r);
/* A CUDA launch's occupancy: blocks_per_sm, warps_per_block, ..., limit, registers, shared_bytes.
 */
AUGUR_API struct json_t *augur_occupancy_to_json(const struct augur_gpu_occupancy *occ);
AUGUR_API int augur_workload_from_json(const struct json_t *j, struct augur_workload *out,
                                       struct augur_diag *diag);

/* A run saved by `augur predict --measure --json`, as `augur train model` reads it. */
struct augur_saved_run {
    double measured;   /* the measured median, seconds per call (> 0) */
    char dataset[256]; /* the dataset's file name, without its folder */
    struct augur_workload work;
};

/*
 * Parses a saved run from text[len]; path names it in messages. Returns 0
 * with *out filled (release out->work with augur_workload_release()), or
 * AUGUR_EPARSE: JSON syntax (path:line:col), no measured time or dataset,
 * or a workload that does not read back.
 */
AUGUR_API int augur_saved_run_parse(const char *text, size_t len, const char *path,
                                    struct augur_saved_run *out, struct augur_diag *diag);

/* The selected model's answer. */
AUGUR_API const struct augur_prediction *
augur_predict_selected(const struct augur_predict_result *r);

/* Frees a result; NULL is a no-op. */
AUGUR_API void augur_predict_result_free(struct augur_predict_result *r);

/*
 * The bound data of the context's full dataset with opts' presentation, e.g.
 * for augur_measure() after a sampled prediction. The caller owns *out
 * (augur_bound_free()).
 */
AUGUR_API int augur_predict_bound(struct augur_predict_ctx *ctx,
                                  const struct augur_predict_opts *opts, struct augur_bound **out,
                                  struct augur_diag *diag);

/* Options of augur_simulate_run(); zero-initialised means "all defaults". */
struct augur_simulate_opts {
    unsigned threads;     /* C kernels: OpenMP threads, one simulator thread each (0: 1) */
    unsigned sms;         /* CUDA kernels: SMs simulated (0: the machine's) */
    uint64_t grid, block; /* CUDA launch (0: the kernel's) */
    uint32_t round;       /* the value of a parameter bound to round (0: 1) */
    bool rounds;          /* run rounds until one stores nothing new (a whole BFS) */
    uint32_t runs;        /* run the kernel this many times in a row (0: once) */
    bool warm;            /* run once before counting */
    bool no_flush;        /* do not write the dirty lines back at the end */
    bool no_prefetch;     /* switch the machine's prefetchers off */
    unsigned quantum;     /* events a thread runs before the next one's turn (0: default) */
    uint64_t align;       /* every array at this alignment (0: as malloc places them) */
    const char *place;    /* NAME=ADDRESS,...: arrays at these addresses */
    const char *probs;    /* LINE=P,...: branches taken with these probabilities */
    const char *trips;    /* LINE=N,...: loops run these many iterations */
    uint64_t seed;        /* of the random stand-ins */
    const char *trace;    /* also write every event here (NULL: none) */
    struct augur_bound_opts bound; /* stored_only, ell_width, the BFS source */
    augur_interp_warn_fn *on_warn;
    augur_interp_progress_fn *on_progress;
    void *warn_ud;
};

/* The result of augur_simulate_run(). */
struct augur_simulation {
    struct augur_sim_profile *profile; /* counts per level, line, array, thread */
    struct augur_interp *interp;       /* the interpreter that ran (counts per node) */
    struct augur_bound *bound;         /* the data it read; kept while it lives */
    unsigned threads;                  /* simulator threads (SMs for CUDA) */
};

/*
 * Runs kernel on the context's dataset through machine m's simulated caches
 * (and each thread's branch predictor), as augur_predict_run() does before
 * its models, with the simulator's own options. skel, kernel and m are
 * borrowed and must outlive the result. Returns 0 and the caller's *out
 * (augur_simulation_free()), or an error in diag (a kernel that does not fit
 * the machine, the binder's and the interpreter's).
 */
AUGUR_API int augur_simulate_run(struct augur_predict_ctx *ctx, const struct augur_skel *skel,
                                 const struct augur_node *kernel, const struct augur_machine *m,
                                 const struct augur_simulate_opts *opts,
                                 struct augur_simulation **out, struct augur_diag *diag);
AUGUR_API void augur_simulation_free(struct augur_simulation *s);

/* ---- batches ------------------------------------------------------------------------ */

/*
 * A manifest of predictions, one row per line: KERNEL DATASET MACHINE
 * THREADS [OPTIONS...], blanks between fields, '#' to the end of a line a
 * comment. Paths are relative to the manifest's folder; MACHINE is a
 * machine file, "auto" or "-" (predict's default); THREADS a count, a list
 * (1,2,4) or a range (1-8), one row each; OPTIONS are predict's
 * (--function NAME, --bind LIST, ...), split at blanks.
 */
struct augur_batch_row {
    uint32_t line; /* in the manifest */
    const char *kernel, *dataset;
    const char *machine; /* NULL: predict's default */
    unsigned threads;
    char *const *args; /* further options of predict, nargs of them */
    size_t nargs;
};

struct augur_batch {
    struct augur_batch_row *rows;
    size_t nrows;
    struct augur_arena arena;
};

/*
 * Parses a manifest (text of len bytes; path names it in messages and
 * anchors its relative paths). Errors name path:line:col: AUGUR_EPARSE for a
 * malformed row, AUGUR_ELIMIT past a million rows. The caller owns *out
 * (augur_batch_free()).
 */
AUGUR_API int augur_batch_parse(const char *text, size_t len, const char *path,
                                struct augur_batch **out, struct augur_diag *diag);
AUGUR_API void augur_batch_free(struct augur_batch *b);

/* Row i as the command that predicts it: augur predict ... --json (augur_argv_free()). */
AUGUR_API char **augur_batch_argv(const struct augur_batch *b, size_t i, const char *augur);

enum augur_batch_engine { AUGUR_BATCH_MAKE, AUGUR_BATCH_SLURM };

/* Where a batch's engine puts things. */
struct augur_batch_emit {
    const char *augur;    /* the augur binary the rows run */
    const char *rows_dir; /* each row's JSON document: ROWS/N.json (errors: N.json.err) */
    const char *output;   /* the rows joined as JSON lines (augur batch --collect) */
};

/*
 * Appends the batch as a Makefile (make -k -j N runs the rows, then joins
 * them; a failed row's document holds its error) or as a Slurm job-array
 * script (one task per row). AUGUR_EINVAL when make cannot name rows_dir
 * or output in a rule (blanks, quotes, '$').
 */
AUGUR_API int augur_batch_write(const struct augur_batch *b, enum augur_batch_engine e,
                                const struct augur_batch_emit *o, struct augur_buf *out,
                                struct augur_diag *diag);

#endif
