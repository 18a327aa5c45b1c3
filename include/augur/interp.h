/*
 * interp.h - the skeleton interpreter: runs a kernel's address and control
 * slice on the data a source presents (OpenMP teams and schedules, CUDA
 * blocks and warps) and turns every access into an event for subscribers
 * (module: interp). It never sees a dataset: sim.h binds one to it and feeds
 * the events to the cache simulator. docs/interpreter.md describes it.
 */
#ifndef AUGUR_INTERP_H
#define AUGUR_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "augur/base.h"
#include "augur/skeleton.h"

/* Simulator threads a run may have (OpenMP threads, or the SMs of a CUDA launch). */
#define AUGUR_INTERP_MAX_THREADS 4096
#define AUGUR_INTERP_EVENT_BATCH 1024 /* the most events a subscriber gets in one call */

/* ---- the data a kernel runs on ----------------------------------------------------- */

/* How a target's elements are stored, where they are stored as they are. */
enum augur_source_kind {
    AUGUR_SOURCE_COMPUTED, /* not stored: fill() computes them */
    AUGUR_SOURCE_U32,
    AUGUR_SOURCE_U64,
    AUGUR_SOURCE_F64,
};

/* One binding target as a source holds it. */
struct augur_source_array {
    uint64_t count;              /* elements the target holds */
    const void *stored;          /* its elements as they are (NULL: computed) */
    enum augur_source_kind kind; /* their type where stored */
    bool level;                  /* a search's level array: the round loop watches its stores */
    bool by_round;               /* its contents follow the round (levels, masks, parents) */
};

/*
 * The data a kernel runs on, as the interpreter reads it: each binding
 * target's elements (csr.rowptr, vec(n), bfs.level, ...) and each scalar
 * target's value (n, nnz, round-1, =5, ...), by name. sim.h provides one over
 * a dataset (augur_bound_source()). threads is the run's (the targets nthreads,
 * parts() and owner() depend on it); round 0 is the data's own round.
 */
struct augur_source {
    void *ud;
    int (*array)(void *ud, const char *target, uint32_t threads, struct augur_source_array *out,
                 struct augur_diag *diag);
    /*
     * Writes the target's first count elements, for the round, into dst as
     * elements of decl's type (dst NULL: checks them only); AUGUR_EBIND when
     * they do not fit the type (naming decl, without a location).
     */
    int (*fill)(void *ud, const struct augur_array *decl, const char *target, uint32_t threads,
                int64_t round, uint64_t count, void *dst, struct augur_diag *diag);
    int (*scalar)(void *ud, const char *target, uint32_t threads, int64_t round, double *out,
                  struct augur_diag *diag);
    double size; /* the data's rows plus entries: scales a run's step budget */
};

/* ---- events ----------------------------------------------------------------------- */

/* Event flags. */
#define AUGUR_EV_WRITE  (1u << 0) /* a store (an update is a load event, then a store event) */
#define AUGUR_EV_ATOMIC (1u << 1) /* the access is atomic */
#define AUGUR_EV_SIMD   (1u << 2) /* one lane of a vector access (lane says which) */
#define AUGUR_EV_LDG    (1u << 3) /* CUDA read-only data cache */
#define AUGUR_EV_STREAM (1u << 4) /* non-temporal */
#define AUGUR_EV_LOCAL  (1u << 5) /* CUDA __shared__ memory: on chip, not simulated as cached */

/*
 * One memory access of the running kernel. addr is the byte address in the
 * simulated layout (docs/interpreter.md: each array where malloc would put
 * it); index is the element index in the array; node is the access's
 * skeleton node id (skel->nodes[node] gives its source location).
 */
struct augur_event {
    uint64_t addr;
    uint64_t index;
    uint32_t node;
    uint32_t warp;   /* CUDA: the global warp id; 0 otherwise */
    uint16_t array;  /* the kernel's array index */
    uint16_t thread; /* simulator thread: the OpenMP thread, or the SM of a CUDA block */
    uint16_t size;   /* bytes */
    uint8_t lane;    /* SIMD lane, or the CUDA thread's lane in its warp */
    uint8_t flags;   /* AUGUR_EV_* */
};

/*
 * Receives events in program order (threads interleaved as the scheduler
 * runs them, docs/interpreter.md), n at a time (n <= AUGUR_INTERP_EVENT_BATCH).
 * The array is borrowed for the call only.
 */
typedef void augur_event_fn(void *ud, const struct augur_event *ev, size_t n);

/* Called for each warning of a run (a probability standing in for a condition, ...). */
typedef void augur_interp_warn_fn(void *ud, const struct augur_diag *diag);

/* Called as a run goes, with the events sent since the last call: a progress line's count. */
typedef void augur_interp_progress_fn(void *ud, uint64_t events);

/* ---- the interpreter -------------------------------------------------------------------- */

struct augur_interp;

/* Where the simulated arrays are placed. */
enum augur_layout {
    AUGUR_LAYOUT_MALLOC, /* as glibc malloc: heap chunks 16-B aligned, >= 128 KiB page + 16 B */
    AUGUR_LAYOUT_ALIGN,  /* every array aligned to opts.align bytes, one page apart */
};

/*
 * The sizes of the branch predictor simulated for each CPU thread, a TAGE
 * (docs/models.md, "branch misses"): a table of 2-bit counters by the
 * jump's address, and ntables tagged tables, table t indexed by the address
 * and the last history[t] outcomes of every jump. sim.h makes one from a
 * machine file (augur_bp_config_from_machine()).
 */
#define AUGUR_INTERP_BP_MAX_TABLES 8
struct augur_bp_config {
    uint32_t bias_entries;   /* a power of two in [16, 2^20] */
    uint32_t tagged_entries; /* of each tagged table: a power of two in [16, 2^16] */
    uint32_t tag_bits;       /* 4 .. 15 */
    uint32_t ntables;        /* 1 .. AUGUR_INTERP_BP_MAX_TABLES */
    uint32_t history[AUGUR_INTERP_BP_MAX_TABLES]; /* ascending, 1 .. 4095 */
    uint32_t aging_log2; /* the useful bits halve every 2^aging_log2 jumps: 8 .. 40 */
};

/* Options of augur_interp_new(); zero-initialised means "all defaults". */
struct augur_interp_opts {
    unsigned nthreads; /* OpenMP team size (0: 1); at most AUGUR_INTERP_MAX_THREADS */
    /*
     * Events a thread runs before the next thread of its team takes over
     * (0: 16); CUDA threads of a block always take turns after each event.
     */
    unsigned quantum;
    enum augur_layout layout;
    uint64_t align;      /* AUGUR_LAYOUT_ALIGN: a power of two >= 16 */
    uint64_t seed;       /* random stand-ins (probabilities, opaque values) */
    double default_prob; /* conditions outside the slice without a probability (0: 0.5) */
    /*
     * Loop iterations a run may take before it is stopped as runaway (0: 10^4
     * per entry of the data plus 10^8).
     */
    uint64_t max_steps;
    /*
     * "name=ADDR,name=ADDR,...": global arrays placed at these addresses
     * (hexadecimal with 0x, else decimal) instead of where malloc would put
     * them, e.g. to replay the layout of a measured run. NULL: none.
     */
    const char *place;
    /*
     * "LINE=P,...": branches on these source lines of the kernel's file are
     * taken with probability P (0..1), whatever their condition; "LINE=N,..."
     * in trips: loops on these lines run N iterations. NULL: none.
     */
    const char *probs, *trips;
    /*
     * The branch predictor each CPU thread runs. ntables 0: none (a pass
     * that needs only the data's values runs faster), and
     * augur_interp_node_mispredicts() is -1.
     */
    struct augur_bp_config predictor;
    /*
     * "What if": every worksharing loop of the kernel (omp for, parallel for)
     * runs schedule(sched, chunk) in place of the one its directive gives or
     * implies, as if the source said so; the directive's chunk expression is
     * not evaluated. sched is STATIC, DYNAMIC, GUIDED or AUTO (libgomp runs
     * auto as static); chunk 0 means none given (static: one block per
     * thread; dynamic, guided: 1), at most AUGUR_SCHED_MAX_CHUNK, none with
     * AUTO. Other loops, CUDA kernels included, are not affected.
     * augur_sched_parse() reads the "dynamic,64" form.
     */
    bool sched_given;
    enum augur_sched sched;
    uint64_t chunk;
    /* CUDA: launch override (0: the kernel's launch), and simulator threads (SMs, 0: 1). */
    uint64_t grid, block;
    unsigned sms;
    augur_interp_warn_fn *on_warn;
    augur_interp_progress_fn *on_progress; /* NULL: none */
    void *ud;                              /* of on_warn and on_progress */
};

/*
 * Compiles kernel (a kernel node of skel, or NULL when skel has exactly
 * one) for execution on src's data: every global array and scalar parameter must
 * be bound (augur_skel_bind / inference), and each binding must fit the
 * data: index targets need an integer element type wide enough for their
 * values, value targets a floating or wide enough integer type, declared
 * extents may not exceed what the target holds, scalar values must fit
 * their parameter's type. Each failure is AUGUR_EBIND naming the array or
 * parameter and its file:line:col. Constructs the interpreter cannot run
 * (a non-canonical OpenMP loop, return inside a parallel region) are
 * AUGUR_EUNSUP. skel and src->ud are borrowed and must outlive the result.
 * The caller owns *out; free it with augur_interp_free().
 */
AUGUR_API int augur_interp_new(const struct augur_skel *skel, const struct augur_node *kernel,
                               const struct augur_source *src, const struct augur_interp_opts *opts,
                               struct augur_interp **out, struct augur_diag *diag);

/* Frees an interpreter; NULL is a no-op. */
AUGUR_API void augur_interp_free(struct augur_interp *in);

/* Adds a subscriber; every later run sends it every event. At most 16. */
AUGUR_API int augur_interp_subscribe(struct augur_interp *in, augur_event_fn *fn, void *ud);
/* Drops every subscriber (before the subscribers' state is freed). */
AUGUR_API void augur_interp_unsubscribe_all(struct augur_interp *in);

/*
 * Sets the parameter whose binding reads the round (round, round-1: see
 * augur_bind_uses_round()) to its value at round r. AUGUR_EINVAL when the
 * kernel has none.
 */
AUGUR_API int augur_interp_set_round(struct augur_interp *in, int64_t r, struct augur_diag *diag);
/*
 * Sets a scalar parameter's value for the next runs, as if it were bound to
 * =value. AUGUR_EINVAL when name is not a scalar param or the value does not
 * fit its type.
 */
AUGUR_API int augur_interp_set_param(struct augur_interp *in, const char *name, int64_t value,
                                     struct augur_diag *diag);

/*
 * Runs the kernel once on the data. Arrays keep what earlier runs stored
 * (a BFS round sees the levels of the one before). Errors (AUGUR_ERUN, with
 * the access's file:line:col): an index out of its array's range (the
 * message gives the index and the range), division by zero, threads
 * waiting at different barriers, a run longer than max_steps iterations.
 */
AUGUR_API int augur_interp_run(struct augur_interp *in, struct augur_diag *diag);

/*
 * Runs the rounds of a kernel with a bfs.level array: round = 1, 2, ...
 * until a round stores nothing into it (that last round included), at
 * most max_rounds (0: the number of nodes + 1). *nrounds gets the rounds run.
 * AUGUR_EINVAL when the kernel has no round parameter.
 */
AUGUR_API int augur_interp_run_rounds(struct augur_interp *in, uint32_t max_rounds,
                                      uint32_t *nrounds, struct augur_diag *diag);

/* Puts the arrays back to their bound contents (what the first run saw). */
AUGUR_API void augur_interp_reset_data(struct augur_interp *in);

/* Where an array lives in the simulated address space. */
struct augur_interp_array {
    const char *name;   /* borrowed from the skeleton */
    const char *target; /* the binding target, or NULL (local and shared arrays) */
    uint64_t base;      /* address of element 0 (0 for thread-private arrays not yet used) */
    uint64_t extent;    /* elements */
    uint32_t elem_size;
    bool has_data; /* the slice reads its values, so the interpreter holds them */
};

AUGUR_API const struct augur_node *augur_interp_kernel(const struct augur_interp *in);
AUGUR_API unsigned augur_interp_narrays(const struct augur_interp *in);
/* Array a of the kernel (a < narrays), as laid out for thread 0. */
AUGUR_API void augur_interp_array(const struct augur_interp *in, unsigned a,
                                  struct augur_interp_array *out);
/*
 * The interpreter's copy of array a's values in its element type (NULL
 * when the slice never reads them); *extent gets the element count.
 */
AUGUR_API const void *augur_interp_array_data(const struct augur_interp *in, unsigned a,
                                              uint64_t *extent);

/*
 * Access nodes are numbered densely (0 .. naccesses-1) in node order: the
 * tag an access's events carry into the cache simulator.
 */
AUGUR_API unsigned augur_interp_naccesses(const struct augur_interp *in);
AUGUR_API uint32_t augur_interp_access_node(const struct augur_interp *in, unsigned acc);
/* The access number of a node id, or -1 when it is not an access of the kernel. */
AUGUR_API int augur_interp_node_access(const struct augur_interp *in, uint32_t node);
/*
 * The same as a table for a hot loop: entry node - kernel id (the kernel's
 * nodes) is the access number or -1. Borrowed, valid while in lives.
 */
AUGUR_API const int32_t *augur_interp_node_access_map(const struct augur_interp *in);
/* Work of one thread, summed over the runs since augur_interp_reset_stats(). */
struct augur_thread_work {
    uint64_t events;       /* accesses executed (its simulated time) */
    uint64_t iterations;   /* iterations of worksharing loops it ran */
    uint64_t chunks;       /* chunks of worksharing loops it took */
    uint64_t dealt;        /* of its iterations, those a team of 2+ dealt out on demand
                              (schedule dynamic or guided) */
    uint64_t ops;          /* operations counted (every kind) */
    uint64_t alloc_bytes;  /* bytes of the private (local) arrays it made: fresh memory */
    uint64_t alloc_blocks; /* how many it made */
};

/* Simulator threads: the OpenMP team, or the SMs of a CUDA launch. */
AUGUR_API unsigned augur_interp_nthreads(const struct augur_interp *in);
/* The work of each simulator thread so far (augur_interp_nthreads() entries); borrowed. */
AUGUR_API const struct augur_thread_work *augur_interp_thread_work(const struct augur_interp *in);

/* What the runs did. */
struct augur_interp_stats {
    unsigned nthreads;
    uint64_t runs;
    uint64_t events;
    uint64_t steps;    /* loop iterations of every thread */
    uint64_t parallel; /* parallel phases (team forks) */
    /*
     * Load imbalance of the parallel phases (a team's fork or barrier to its
     * next barrier or join: what its threads wait for one another at): the
     * sum over phases of the busiest thread's events, over the sum of the
     * mean events per thread (1 is perfect balance; 0 without parallel
     * phases).
     */
    double imbalance;
    uint64_t critical_events; /* sum over phases of the busiest thread's events */
    uint64_t parallel_events; /* events inside parallel phases, all threads */
    uint64_t grid, block;     /* CUDA: the last launch's blocks and threads per block */
    /*
     * CUDA: warp branch instructions (the k-th time a warp's lanes reach
     * one conditional jump), their lanes summed, and the divergent ones:
     * some of the lanes there take the jump and some do not.
     */
    uint64_t warp_branches, branch_lanes, divergent_branches;
    const struct augur_thread_work *thread; /* nthreads entries, borrowed */
};

AUGUR_API const struct augur_interp_stats *augur_interp_stats(const struct augur_interp *in);
AUGUR_API void augur_interp_reset_stats(struct augur_interp *in);

/*
 * How many times node id ran, summed over threads (thread < 0) or for one
 * thread: an access node counts its lanes' events (an update counts once),
 * an ops or call node its executions, a loop its iterations, a branch the
 * times it took its then part.
 */
AUGUR_API uint64_t augur_interp_node_count(const struct augur_interp *in, uint32_t node,
                                           int thread);
/*
 * The jumps of a node (an if's condition, a loop's test) that the simulated
 * threads' branch predictors got wrong since the statistics were last reset,
 * summed over threads; -1 when no predictor ran (CUDA kernels, or no
 * opts.predictor). Resetting the statistics resets the predictors too:
 * they learn within the runs counted, not from the runs before.
 */
AUGUR_API int64_t augur_interp_node_mispredicts(const struct augur_interp *in, uint32_t node);
/*
 * CUDA: the warp branch instructions of a node's conditional jumps (an if's
 * condition, a loop's test) since the statistics were last reset, and in
 * *divergent those whose lanes went both ways; -1 for a CPU kernel.
 */
AUGUR_API int64_t augur_interp_node_warp_branches(const struct augur_interp *in, uint32_t node,
                                                  uint64_t *divergent);
/*
 * Whether the runs from now on send their jumps through the predictors
 * (on, the default, where there are predictors). A warm-up run whose
 * statistics are reset before the counted one gains nothing from them,
 * as the reset empties the predictors, and runs faster without.
 */
AUGUR_API void augur_interp_predict_branches(struct augur_interp *in, bool on);

/*
 * Operation totals by kind over every thread: the ops nodes' counts
 * multiplied by their executions. out has AUGUR_OPK_COUNT entries.
 */
AUGUR_API void augur_interp_op_totals(const struct augur_interp *in, uint64_t *out);

/* ---- OpenMP schedules ------------------------------------------------------------------- */

/*
 * The chunks of a worksharing loop of niter iterations under schedule
 * sched (STATIC, DYNAMIC, GUIDED; NONE and AUTO act as STATIC, RUNTIME as
 * DYNAMIC with chunk 1, libgomp's default)
 * with chunk size chunk (0: not given) for nthreads threads, as libgomp
 * cuts them: static without a chunk gives each thread one contiguous block
 * (the first niter % nthreads threads one iteration more); static with a
 * chunk deals chunks round-robin; dynamic hands out chunks of the size in
 * request order; guided hands out ceil(remaining / nthreads), at least
 * chunk, in request order. For dynamic and guided the caller decides who
 * asks next. augur_omp_next_chunk() gives the next chunk of thread t:
 * state holds the loop's shared progress (zeroed before the loop) and
 * tstate thread t's own (zeroed before the loop). Returns false when t gets
 * no more iterations; else [*lo, *hi) are the iterations of its chunk.
 */
struct augur_omp_loop {
    enum augur_sched sched;
    uint64_t niter;
    uint64_t chunk;
    unsigned nthreads;
    uint64_t next; /* shared: first iteration not handed out (dynamic, guided) */
};

AUGUR_API bool augur_omp_next_chunk(struct augur_omp_loop *loop, unsigned t, uint64_t *tstate,
                                    uint64_t *lo, uint64_t *hi);

/* The largest chunk a schedule override takes: libgomp's OMP_SCHEDULE holds an int. */
#define AUGUR_SCHED_MAX_CHUNK UINT64_C(2147483647)

/*
 * Parses a schedule as OMP_SCHEDULE writes it: KIND or KIND,CHUNK, KIND one
 * of static, dynamic, guided, auto (any case; blanks around the comma
 * allowed), CHUNK a whole number in [1, AUGUR_SCHED_MAX_CHUNK] (auto takes
 * none). *kind and *chunk (0: none) are written only on success; else
 * AUGUR_EINVAL with a message that quotes the text (unknown kind, a chunk
 * that is 0, not a number or too large).
 */
AUGUR_API int augur_sched_parse(const char *text, enum augur_sched *kind, uint64_t *chunk,
                                struct augur_diag *diag);
/*
 * Writes "kind" or "kind,chunk" into buf (NUL-terminated, truncated to
 * size): the OMP_SCHEDULE value and the form augur_sched_parse() reads.
 * Returns buf.
 */
AUGUR_API char *augur_sched_format(enum augur_sched kind, uint64_t chunk, char *buf, size_t size);
/*
 * The loops a schedule override replaces: those of kernel (a kernel node)
 * under an OpenMP worksharing directive (omp for, parallel for). 0 for CUDA
 * kernels.
 */
AUGUR_API uint32_t augur_sched_nloops(const struct augur_node *kernel);

/* ---- traces --------------------------------------------------------------------------------- */

/*
 * Writes every event of the following runs to path in the binary trace
 * format of docs/interpreter.md (a header naming the arrays and access
 * nodes, then 24-byte little-endian records). path must be a regular file
 * (or a new one): it appears, complete, on augur_interp_trace_close(); a
 * trace still open at augur_interp_free() is removed, never left half-written.
 */
AUGUR_API int augur_interp_trace_open(struct augur_interp *in, const char *path,
                                      struct augur_diag *diag);
/* Finishes the trace file (writes its event count); returns 0 or AUGUR_EIO. */
AUGUR_API int augur_interp_trace_close(struct augur_interp *in, struct augur_diag *diag);

#define AUGUR_TRACE_MAGIC   "AUGURTRC"
#define AUGUR_TRACE_VERSION 1u

#endif
