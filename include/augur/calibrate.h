/*
 * calibrate.h - microbenchmarks that measure the running machine (clock,
 * bandwidth per cache level and thread count, load-to-use latency, the
 * service time versus memory-level parallelism curve, gather and scatter
 * cost) and write them as a machine file (module: machine).
 */
#ifndef AUGUR_CALIBRATE_H
#define AUGUR_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#include "augur/base.h"

#define AUGUR_CALIB_MAX_THREADS 64 /* thread counts measured in one run */
#define AUGUR_CALIB_MAX_LEVELS  4  /* cache levels */
#define AUGUR_CALIB_MAX_POINTS  32 /* points of one curve */
/*
 * The calibration's method, written in the machine file's first line:
 * raised whenever augur_calibrate() measures or decides differently, so
 * that a cached calibration (--machine auto) made the old way is measured
 * again.
 */
#define AUGUR_CALIB_METHOD 6

/* The streaming kernels of the bandwidth benchmarks. */
enum augur_calib_kernel {
    AUGUR_CALIB_LOAD,  /* s += a[i]: 8 bytes read per element */
    AUGUR_CALIB_COPY,  /* b[i] = a[i]: 16 bytes (read + write) */
    AUGUR_CALIB_TRIAD, /* a[i] = b[i] + s * c[i]: 24 bytes */
    AUGUR_CALIB_NKERNELS,
};

/*
 * A measured quantity over reps repetitions: the best one (the fastest: the
 * highest rate or the lowest time; what the machine file gives, since
 * other load on the machine only ever slows a repetition down), the median
 * and the range. A repetition in which a thread had the CPU for less than
 * 90 % of its time is run again (up to four times as many tries, twice with
 * quick); preempted counts those that had to be kept all the same.
 */
struct augur_calib_stat {
    double best, median, min, max;
    uint32_t reps;
    uint32_t preempted; /* of reps, how many lost the CPU for over 10 % of their time */
    /*
     * The run measures everything in passes, one after the other, so that a
     * noisy minute disturbs one pass of every value rather than every
     * repetition of one: best is then the best of the passes' bests, and
     * pass_lo .. pass_hi their range. unstable: a value a prediction reads
     * whose passes still differ by more than AUGUR_CALIB_UNSTABLE of it after
     * the extra passes.
     */
    uint32_t passes;
    double pass_lo, pass_hi;
    bool unstable;
    /*
     * A ratio to a reference timed beside each repetition (cycles against
     * the clock's add chain): noise moves it either way, so a pass's best
     * is its repetitions' median and the merged best the passes' median.
     */
    bool ratio;
};

/* Passes of a run, and the extra passes run while a value's passes differ by more than ... */
#define AUGUR_CALIB_PASSES       3
#define AUGUR_CALIB_EXTRA_PASSES 2
/* ... this share of the value. */
#define AUGUR_CALIB_UNSTABLE 0.10

/*
 * Merges one value's passes s[0 .. n) (n at most AUGUR_CALIB_PASSES +
 * AUGUR_CALIB_EXTRA_PASSES) into *out: the best of the passes' bests (a
 * rate's highest, a time's lowest, told apart by which end of its
 * repetitions each pass's best is; a ratio's median, as any pass's ratio
 * flag says), the median of their medians, the range of
 * every repetition and of the passes' bests. Returns true when key (a value a
 * prediction reads) and the passes' bests differ by more than
 * AUGUR_CALIB_UNSTABLE of the result (out->unstable).
 */
AUGUR_API bool augur_calib_stat_merge(const struct augur_calib_stat *const *s, uint32_t n, bool key,
                                      struct augur_calib_stat *out);

/* Progress: stage names the benchmark; done of total steps of the whole run. */
typedef void augur_calib_progress_fn(void *ud, const char *stage, int done, int total);

struct augur_calib_opts {
    bool quick;        /* fewer sizes and repetitions: a few seconds */
    uint32_t nthreads; /* thread counts in threads[]; 0: 1 .. number of cores */
    uint32_t threads[AUGUR_CALIB_MAX_THREADS];
    augur_calib_progress_fn *progress; /* may be NULL */
    void *progress_ud;
};

/* One cache level: its geometry (from the OS) and what was measured in it. */
struct augur_calib_cache {
    char name[8];       /* "L1" */
    uint32_t level;     /* 1, 2, 3 */
    uint64_t size;      /* bytes of one instance, as written to the machine file */
    uint64_t os_size;   /* bytes the OS reports */
    bool size_measured; /* size is the latency curve's estimate: the OS's was contradicted */
    /* the last level keeps part of a working set twice its size (not LRU): adaptive replacement */
    bool adaptive;
    double latency_2x_ns; /* the chase's latency at twice its size (0: not measured) */
    uint32_t line;
    int32_t ways;       /* -1: unknown, 0: fully associative */
    uint32_t shared_by; /* cores sharing one instance */
    uint64_t ws_thread; /* bytes per thread the bandwidths were measured at */
    uint64_t ws_chase;  /* bytes the latency was measured at */
    /*
     * The last level, when the chase contradicted the OS's size and streaming
     * did not: the latency's working set at most chase_cap bytes (page walks
     * slow the chase beyond it), and the load's GB/s over half the level.
     */
    uint64_t chase_cap;
    double streamed_half_gbs;
    /*
     * The last level, when the OS's size lies beyond the latency curve and
     * the curve's end is already as slow as memory: the largest working set
     * a load streamed nearer the level's rate than memory's, which is the
     * size written (size_measured is set too).
     */
    uint64_t streamed_to;
    struct augur_calib_stat latency_ns;
    struct augur_calib_stat bw[AUGUR_CALIB_NKERNELS][AUGUR_CALIB_MAX_THREADS]; /* GB/s */
};

/* A curve: y (a stat) against x. */
struct augur_calib_curve {
    uint32_t n;
    double x[AUGUR_CALIB_MAX_POINTS];
    struct augur_calib_stat y[AUGUR_CALIB_MAX_POINTS];
};

struct augur_calib_result {
    char date[32]; /* ISO 8601, local time with offset */
    char host[64];
    char host_id[24]; /* augur_calib_host_id() */
    char cpu_vendor[32];
    char cpu_model[128];
    char topology_source[16]; /* "hwloc" or "sysfs" */
    uint32_t cores, pus, threads_per_core;
    bool avx512;        /* avx512f, cd, bw, dq, vl: the AVX-512 kernels ran */
    uint32_t simd_bits; /* widest vector unit the CPU reports */
    bool quick;
    uint32_t reps;          /* repetitions of each measurement in one pass */
    uint32_t passes;        /* passes over every measurement (the values: their medians) */
    uint32_t nunstable;     /* values a prediction reads flagged unstable */
    double min_rep_seconds; /* each repetition runs at least this long */
    double seconds;         /* the whole run */
    double os_mhz;          /* the OS's nominal frequency, 0 when unknown */
    struct augur_calib_stat clock_ghz;
    uint32_t nthreads;
    uint32_t threads[AUGUR_CALIB_MAX_THREADS];
    uint32_t ncaches;
    struct augur_calib_cache caches[AUGUR_CALIB_MAX_LEVELS];
    /* Main memory: the working sets and what was measured there. */
    uint64_t mem_ws_thread, mem_ws_chase;
    struct augur_calib_stat mem_latency_ns;
    struct augur_calib_stat mem_bw[AUGUR_CALIB_NKERNELS][AUGUR_CALIB_MAX_THREADS];
    /* Service time (ns between completions) versus chains in flight, in mem_ws_chase bytes. */
    struct augur_calib_curve mlp;
    /* Load-to-use latency (ns) versus working set (bytes). */
    struct augur_calib_curve latency;
    /*
     * Bandwidth (GB/s, all threads together) versus working set (bytes of all
     * threads), per kernel and thread count. Empty in quick mode.
     */
    uint32_t nsweep;
    double sweep_bytes[AUGUR_CALIB_MAX_POINTS];
    struct augur_calib_stat sweep[AUGUR_CALIB_NKERNELS][AUGUR_CALIB_MAX_THREADS]
                                 [AUGUR_CALIB_MAX_POINTS];
    /* Gather: ns per element versus the range (bytes) the indices fall in; and sequential loads. */
    struct augur_calib_curve gather;
    struct augur_calib_stat load_ns_per_element;
    struct augur_calib_stat gather_cycles, scatter_cycles; /* per element, in L1 */
    /*
     * The core's costs that depend on the data (the machine file's core
     * section): an update chained through memory and a mispredicted branch
     * (cycles), an OpenMP parallel region's fork and join and a dynamic
     * loop's chunk (ns, with region_threads threads; 0 when only one core).
     */
    struct augur_calib_stat chain_cycles, branch_miss_cycles, region_ns, chunk_ns;
    /* a loop-carried floating-point add and fused multiply-add (cycles; fma 0: none) */
    struct augur_calib_stat fadd_cycles, fma_cycles;
    /*
     * Whether the compiler `augur measure` uses ($CC, else cc) with its
     * default flags (-O3 -march=native) keeps a carried multiply-add
     * (s += a[i] * x[c[i]]) fused: 1, or splits it: 0; -1 when it could not
     * be asked (no compiler). fused_cc names the compiler asked.
     */
    int8_t fused_chains;
    char fused_cc[64];
    /* cycles between independent scalar divisions: the divider's rate */
    struct augur_calib_stat fdiv_cycles;
    /* cycles a locked read-modify-write (an atomic update) adds to a plain update */
    struct augur_calib_stat atomic_cycles;
    /* misses to memory in flight under scattered atomic updates (0: not measured) */
    struct augur_calib_stat atomic_mlp;
    uint32_t region_threads;
    struct augur_calib_stat region1_ns; /* an OpenMP region of one thread (0 without OpenMP) */
    /*
     * ns per line another core wrote, then loaded with x loads in flight (the
     * writer's stores taking the line back included); empty with one core
     */
    struct augur_calib_curve transfer;
    /*
     * The share of a random branch's mispredictions left when its pattern
     * of x / 2 mispredictions (x random outcomes) repeats: what the
     * predictor's history learns.
     */
    struct augur_calib_curve branch_learned;
    /*
     * A branch whose rare outcome follows a run of x common ones on average
     * (runs of random length): the cycles each rare outcome costs in a
     * pattern too long to learn (branch_run_cycles: a long run lets the
     * window fill, so the mispredicted branch waits longer to resolve), and
     * the share of that left when a pattern of 2048 rare outcomes repeats
     * (branch_run_left: the history reaches back over short runs only).
     */
    struct augur_calib_curve branch_run_cycles, branch_run_left;
    /* cycles per update of y[i[e]] += w[e] with runs of x equal i[e] (x = 1: no chain), in L1 */
    struct augur_calib_curve chain_runs;
    /* ns per 4 KiB page of malloc(x bytes), a first touch of every page, free (repeated) */
    struct augur_calib_curve first_touch;
    /*
     * ns per line of x sequential loads interleaved (one load instruction,
     * each stream its own part of an array in memory): the prefetcher
     * follows up to prefetch_streams of them (augur_calib_prefetch_streams)
     */
    struct augur_calib_curve streams;
};

/*
 * Runs the benchmarks. Pins one thread per core while measuring and
 * restores the binding afterwards. On success *out is the caller's (free
 * with augur_calib_free()). Fails with AUGUR_EINVAL for a thread count of 0
 * or above AUGUR_CALIB_MAX_THREADS, AUGUR_EUNSUP for more than one thread
 * without OpenMP.
 */
AUGUR_API int augur_calibrate(const struct augur_calib_opts *opts, struct augur_calib_result **out,
                              struct augur_diag *diag);
AUGUR_API void augur_calib_free(struct augur_calib_result *res);

/*
 * Appends the result as a machine file (docs/machine.md) to buf: every
 * measured field with a comment naming the benchmark and the spread of its
 * repetitions, then the curves as comments.
 */
AUGUR_API void augur_calib_yaml(const struct augur_calib_result *res, struct augur_buf *buf);

/*
 * Calls fn once for each value a prediction reads that res flagged
 * unstable, named as the machine file names it ("L3.latency_ns",
 * "memory.bandwidth_gbs.2", "memory.mlp.4", "core.region_ns").
 */
AUGUR_API void augur_calib_each_unstable(const struct augur_calib_result *res,
                                         void (*fn)(void *ud, const char *name), void *ud);

/*
 * A name for this host's processor, as 16 hex digits into out (size at
 * least 17): a hash of what /proc/cpuinfo says of the first processor
 * (vendor, family, model, stepping, name), the number of online CPUs and
 * the first CPU's caches (sysfs). A calibration holds for one such host: a
 * VM moved to another host type, or a home folder shared by nodes of
 * different types, gets another name.
 */
AUGUR_API void augur_calib_host_id(char *out, size_t size);

/*
 * What augur_calib_check_llc() may measure: one thread's load rate in GB/s,
 * and a random chase's latency in ns, over a working set of bytes.
 */
struct augur_calib_probes {
    double (*load_gbs)(void *ud, uint64_t bytes);
    double (*chase_ns)(void *ud, uint64_t bytes);
    void *ud;
};

/* What augur_calib_check_llc() decided about the last level. */
struct augur_calib_llc_check {
    uint64_t size;            /* bytes to write: the OS's unless contradicted */
    bool size_measured;       /* size is an estimate that replaced the OS's */
    uint64_t chase_cap;       /* the latency's working set at most this (0: no cap) */
    uint64_t streamed_to;     /* see struct augur_calib_cache */
    double streamed_half_gbs; /* the load's rate over the working set the chase found slow */
};

/*
 * Checks the OS's size of the last level (os_size; the level above holds
 * above_size) against the latency curve lat, measuring with probes where
 * the chase and the OS disagree: when the curve reaches twice the size,
 * or, short of that, when a working set of at most a quarter of the size
 * is as slow as memory (an OS that reports a socket's or a host's whole
 * cache to a VM's core names more than one core can keep). Pure but for
 * the probes: the decision of augur_calibrate(), tested on made-up curves.
 */
AUGUR_API void augur_calib_check_llc(const struct augur_calib_curve *lat, uint64_t os_size,
                                     uint64_t above_size, const struct augur_calib_probes *probes,
                                     struct augur_calib_llc_check *out);

/*
 * The last level's size from a bandwidth sweep (n working sets bytes[i],
 * doubling, one thread's load rate gbs[i], the best over the passes): from
 * the chase's estimate `from`, the largest working set of an unbroken run
 * of points that stream nearer the level's rate than memory's (mem_gbs),
 * by ratio (over their geometric mean), at most limit bytes. The level's
 * rate is the sweep's best from twice the level above (above bytes) to
 * from. Returns from when no point past it streams so, 0 when the sweep
 * cannot decide (no point within the level, or none faster than memory).
 */
AUGUR_API uint64_t augur_calib_streamed_size(const double *bytes,
                                             const struct augur_calib_stat *gbs, uint32_t n,
                                             uint64_t above, uint64_t from, uint64_t limit,
                                             double mem_gbs);

/*
 * The streams the prefetcher follows at once, from the streams curve: the
 * last count before the first whose cost per line passes half-way from
 * the cheapest of at most four streams to the dearest of the last two
 * counts. 0 when that cost does not reach 1.5 times the cheapest (no step:
 * the prefetcher follows every count measured, or there is none).
 */
AUGUR_API uint32_t augur_calib_prefetch_streams(const struct augur_calib_curve *streams);

/* The name of a streaming kernel: "load", "copy", "triad". */
AUGUR_API const char *augur_calib_kernel_name(enum augur_calib_kernel k);

#endif
