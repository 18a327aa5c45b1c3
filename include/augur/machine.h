/*
 * machine.h - the machine model: a YAML file describing a CPU or a GPU (clock,
 * cores, SIMD unit, caches, memory, GPU parameters, fitted model constants),
 * its loader, validator and dumper (module: machine). docs/machine.md is
 * the schema.
 */
#ifndef AUGUR_MACHINE_H
#define AUGUR_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "augur/base.h"

/* Limits the loader enforces (anything beyond is "absurd"). */
#define AUGUR_MACHINE_MAX_CACHES    8                   /* cache levels in one file */
#define AUGUR_MACHINE_MAX_POINTS    64                  /* points of one bandwidth table or curve */
#define AUGUR_MACHINE_MAX_BYTES     (UINT64_C(1) << 40) /* 1 TiB: largest cache */
#define AUGUR_MACHINE_MAX_LINE      4096u               /* largest line size in bytes */
#define AUGUR_MACHINE_MAX_CORES     (1u << 20)
#define AUGUR_MACHINE_MAX_HISTORIES 8 /* tagged tables of the branch predictor */

enum augur_machine_kind {
    AUGUR_MACHINE_CPU,
    AUGUR_MACHINE_GPU,
};

/*
 * Write policy of a cache level. UNSET: the file does not say (the simulator
 * then uses write-back).
 */
enum augur_write_policy {
    AUGUR_WRITE_UNSET,
    AUGUR_WRITE_BACK,
    AUGUR_WRITE_THROUGH,
};

/* Hardware prefetcher of a cache level. UNSET: not given (simulated as NONE). */
enum augur_prefetch {
    AUGUR_PREFETCH_UNSET,
    AUGUR_PREFETCH_NONE,
    AUGUR_PREFETCH_NEXT_LINE,
    AUGUR_PREFETCH_STRIDE,
};

/*
 * A level's replacement. LRU inserts every fill as the most recently used
 * line. ADAPTIVE is dynamic insertion (Qureshi et al., ISCA 2007): 1 in 64
 * sets always inserts as LRU does, 1 in 64 inserts at the least recently
 * used place (as the most recent one fill in 32), and a saturating counter
 * of their misses picks the better for the other sets. A working set a
 * little larger than the level then keeps most of its lines instead of
 * none, as the last-level caches of current CPUs do. Set-associative
 * levels of 128 sets or more; others (fully associative ones: no sets to
 * duel) stay LRU.
 */
enum augur_replacement {
    AUGUR_REPL_UNSET,
    AUGUR_REPL_LRU,
    AUGUR_REPL_ADAPTIVE,
};

/* A 1-based line and column in the machine file (0: not from a file). */
struct augur_machine_loc {
    uint32_t line, col;
};

/*
 * A bandwidth at a thread count: GB/s (10^9 bytes per second) that `threads`
 * threads, one per core, get together. threads 0 stands for the whole
 * machine (the file gave a single number, as for a GPU's DRAM).
 */
struct augur_bw_point {
    uint32_t threads;
    double gbs;
};

/* A point of a service-time curve: with m requests outstanding, one is served every ns. */
struct augur_curve_point {
    double m;
    double ns;
};

/*
 * One cache level. Unless said otherwise, 0 (or the UNSET value) means "not
 * given in the file": the sources of a shipped machine do not state it.
 */
struct augur_machine_cache {
    const char *name;     /* "L1", "L2", "L3", ...: unique within the file */
    uint64_t size;        /* bytes of one instance */
    uint32_t line;        /* bytes, a power of two */
    uint32_t sector;      /* bytes, a power of two dividing line (GPUs) */
    int32_t ways;         /* -1: not given; 0: fully associative */
    uint32_t shared_by;   /* cores (SMs on a GPU) sharing one instance; 0: not given */
    int8_t inclusive;     /* -1: not given, 0: no, 1: holds every line of the levels above */
    int8_t write_alloc;   /* -1: not given, 0: no, 1: write misses allocate */
    uint8_t write_policy; /* enum augur_write_policy */
    uint8_t prefetch;     /* enum augur_prefetch */
    uint8_t replacement;  /* enum augur_replacement */
    double latency_ns;    /* load-to-use latency of a hit */
    double latency_cycles;
    struct augur_bw_point *bandwidth; /* ascending threads; NULL when not given */
    uint32_t nbandwidth;
    struct augur_machine_loc loc; /* the entry in the file */
};

/*
 * The core's issue rates and memory parallelism (reciprocal throughputs of
 * scalar code); 0 when not given: the models then use the defaults that
 * docs/models.md lists.
 */
struct augur_machine_core {
    bool given;
    double loads_per_cycle;    /* scalar loads issued per cycle */
    double stores_per_cycle;   /* scalar stores per cycle */
    double fp_ops_per_cycle;   /* floating-point instructions per cycle (an FMA is one) */
    double int_ops_per_cycle;  /* integer, logic and compare instructions per cycle */
    double issue_width;        /* instructions issued per cycle, all kinds together */
    double branch_miss_cycles; /* cycles a mispredicted branch costs */
    double region_ns;          /* an OpenMP parallel region's fork and join with 2+ threads */
    double region1_ns;         /* the same with a team of one thread */
    double chain_cycles;       /* an update waiting for the previous one's store (forwarding) */
    double chain_loop_instr;   /* instructions of one update of the loop chain_runs timed */
    double fadd_latency;       /* cycles a loop-carried floating-point add makes the next wait */
    double fma_latency;        /* the same for a fused multiply-add (and a multiply) */
    /*
     * Whether the compiler keeps a carried multiply-add (s += a * b) fused,
     * so that its chain waits for fma_latency (1), or splits it into a
     * multiply off the chain and an add on it (0: fadd_latency); -1 not
     * given: the cheaper of the two. gcc fuses it for Intel's cores and
     * splits it for AMD's Zen (its tuning avoids FMA chains there).
     */
    int8_t fused_chains;
    double fdiv_cycles;   /* cycles between independent divisions (the divider) */
    double atomic_cycles; /* cycles a locked read-modify-write adds to an update */
    double atomic_mlp;    /* misses in flight under locked updates (0: mlp) */
    double chunk_ns;      /* a thread taking a chunk of a dynamic or guided loop */
    double inflight;      /* memory instructions in flight (the load queue): n of model 2 */
    double window;        /* instructions in flight (the reorder buffer) */
    double mlp;           /* cache misses in flight per core (fill buffers) */
    /*
     * The stream prefetcher: the streams it follows at once, and how many
     * lines from a stream's last one a request may land and still be seen
     * coming (0: not given)
     */
    uint32_t prefetch_streams, prefetch_reach;
    uint32_t stride_entries; /* loads a level's stride prefetcher tracks at once */
    /*
     * The share of mispredictions left (ns: a fraction) when a kernel runs
     * the same m surprising branch outcomes in every call (m: outcomes a
     * simple counter would mispredict): a predictor with a long history
     * learns a short pattern. Ascending m; none: every one is left.
     */
    struct augur_curve_point *branch_learned;
    uint32_t nbranch_learned;
    /*
     * A branch whose rare outcome follows a run of m common outcomes on
     * average: the cycles each rare outcome costs (ns: cycles), and the
     * share of them a repeated pattern leaves (ns: a fraction; the history
     * learns what follows short runs only). None: branch_miss_cycles, and
     * every run learnable.
     */
    struct augur_curve_point *branch_run_cycles, *branch_run_left;
    uint32_t nbranch_run_cycles, nbranch_run_left;
    /*
     * Chains of m updates (y[i[e]] += w[e] with runs of m equal i[e], in
     * L1): cycles per update (ns: cycles), m = 1 first (no chain). Short
     * chains overlap in the window, long ones wait link by link. None:
     * chain_cycles and the window alone.
     */
    struct augur_curve_point *chain_runs;
    uint32_t nchain_runs;
    /*
     * Fresh memory: ns per 4 KiB page (ns) that a call spends making an
     * array of m bytes (m) and touching it for the first time, the block
     * freed at the end of the call: malloc's mmap() and the page faults
     * (small blocks come back from the heap and cost nothing). Ascending m;
     * none: allocation is free.
     */
    struct augur_curve_point *first_touch;
    uint32_t nfirst_touch;
    /*
     * Coherence: ns per line (ns) that another core wrote and still holds
     * when this one loads it, with m such loads in flight (m), the writer's
     * stores taking the line back included. Ascending m; none: a transfer
     * costs what the level that serves it in the simulation costs.
     */
    struct augur_curve_point *transfer;
    uint32_t ntransfer;
};

/* The SIMD unit of a core; all 0 when the file has no simd section. */
struct augur_machine_simd {
    uint32_t width_bits;
    double gather_cycles_per_element;
    double scatter_cycles_per_element;
    uint32_t pack_bytes;     /* the vector the compiler packs a short loop into (0: not given) */
    uint32_t register_elems; /* the most elements of a local array kept in registers */
};

/* Main memory. */
struct augur_machine_memory {
    struct augur_bw_point *bandwidth;
    uint32_t nbandwidth;
    double latency_ns;
    double latency_cycles;
    uint32_t row_buffer_bytes;     /* DRAM row-buffer block, a power of two */
    uint32_t banks;                /* open rows kept at a time */
    struct augur_curve_point *mlp; /* service time versus outstanding misses, ascending m */
    uint32_t nmlp;
};

/* GPU parameters (kind gpu only). */
struct augur_machine_gpu {
    uint32_t sms;
    uint32_t warp_size;
    uint32_t max_warps_per_sm;
    uint32_t max_warps; /* resident warps on the whole device */
    uint32_t max_blocks_per_sm;
    uint32_t registers_per_sm;
    uint32_t register_alloc_unit;  /* a warp's registers are taken in multiples of this (0: 1) */
    uint64_t shared_memory_per_sm; /* bytes */
    uint32_t shared_alloc_unit;    /* a block's shared memory in multiples of this (0: 1) */
    uint32_t shared_reserved_per_block; /* bytes the system takes per resident block */
    struct augur_curve_point *l2_hit, *row_hit, *row_miss; /* service-time curves */
    uint32_t nl2_hit, nrow_hit, nrow_miss;
    struct augur_curve_point *l1_hit; /* L1 hits (a GPU that caches loads in L1); may be empty */
    uint32_t nl1_hit;
    double launch_us;     /* what a kernel launch adds to its kernel's time (0: unknown) */
    double round_trip_us; /* a launch between two 4-byte host copies (a BFS round's flag) */
    /* an empty kernel's duration on the GPU as Nsight Compute times it (0: unknown): the part
       of launch_us that ncu's gpu__time_duration holds */
    double empty_kernel_us;
};

/*
 * Issue costs of the operations whose rate no calibration measures
 * (cycles per instruction; 0: not given): libm calls, integer division,
 * multiplies and conversions, AVX-512 conflict detection and reductions, a
 * square root as a multiple of a division.
 */
struct augur_machine_ops {
    bool given;
    double fmath, idiv, conflict, reduce;
    double fsqrt_per_fdiv;
};

/*
 * The branch predictor the interpreter simulates for each CPU thread (a
 * TAGE: docs/models.md "branch misses"); 0 and nhistories 0: not given.
 * Its capacity decides how much of a call's branch pattern a core can
 * learn; the calibrated core.branch_learned curve says how much of the
 * pattern a repeated call replays.
 */
struct augur_machine_bpred {
    bool given;
    uint32_t bias_entries;   /* 2-bit counters indexed by the jump's address, a power of two */
    uint32_t tagged_entries; /* entries of each tagged table, a power of two */
    uint32_t tag_bits;       /* bits of a tagged entry's tag */
    uint32_t
        histories[AUGUR_MACHINE_MAX_HISTORIES]; /* outcomes each table's index folds, ascending */
    uint32_t nhistories;                        /* tagged tables */
    uint32_t aging_log2;                        /* the useful bits halve every 2^aging_log2 jumps */
};

/*
 * Constants of the models: fitted by `augur train` (Zhu et al. PACT'19 eq. 4-5), or
 * chosen on a benchmark and documented where they are (overlap_norm: the L^p
 * norm in which a line's issue, memory and loop-carried times add up).
 */
struct augur_machine_model {
    bool given;
    double mimd_a;
    double mimd_b;
    double overlap_norm;
};

/*
 * A loaded machine. Everything it points to lives in its arena: read-only by
 * convention, freed at once by augur_machine_free().
 */
struct augur_machine {
    const char *path; /* the file it came from; "" when built in code */
    const char *name;
    /*
     * The host `augur calibrate` measured (augur_calib_host_id()), NULL for a
     * file written from documents: predictions on this host with a file of
     * another host are for that host, and timing them here means nothing.
     */
    const char *host_id;
    enum augur_machine_kind kind;
    double clock_ghz;
    uint32_t cores;            /* cores (CPU); SMs may be given here or in gpu.sms */
    uint32_t threads_per_core; /* 0: not given (1) */
    uint64_t registers_bytes;  /* data the register file holds (Langguth et al. JPDC'15 Table 1,
                                  level 0) */
    struct augur_machine_core core;
    struct augur_machine_simd simd;
    struct augur_machine_cache *caches; /* nearest the core first */
    uint32_t ncaches;
    bool has_memory;
    struct augur_machine_memory memory;
    bool has_gpu;
    struct augur_machine_gpu gpu;
    struct augur_machine_ops ops;
    struct augur_machine_bpred branch_predictor;
    struct augur_machine_model model;
    struct augur_machine_loc loc_cores; /* where cores was given */
    struct augur_arena arena;
};

/*
 * The defaults of every CPU machine: a machine file's core, simd, ops and
 * model values that it does not give are these (samples/machines/
 * default-cpu.yml, built into the library, each value with its source).
 * Borrowed; valid for the life of the process.
 */
AUGUR_API const struct augur_machine *augur_machine_cpu_defaults(void);

/*
 * Loads and validates a machine file (YAML; gzip accepted). On success *out
 * is the caller's; free it with augur_machine_free(). On failure *out is
 * untouched and diag names file:line:col and the problem: YAML syntax,
 * unknown or duplicate keys, missing required fields, wrong types, values
 * out of range or inconsistent. Returns 0, AUGUR_EPARSE (not YAML),
 * AUGUR_EMODEL (YAML, but not a valid machine), or an I/O error.
 */
AUGUR_API int augur_machine_load(const char *path, struct augur_machine **out,
                                 struct augur_diag *diag);

/*
 * The same for a machine held in memory; name stands for the file name in
 * messages. text need not be NUL-terminated.
 */
AUGUR_API int augur_machine_parse(const char *text, size_t len, const char *name,
                                  struct augur_machine **out, struct augur_diag *diag);

/*
 * Checks a machine's fields against the schema's ranges and each other (as
 * the loader does). For a machine edited or built in code. Returns 0 or
 * AUGUR_EMODEL with the problem in diag (with the file position when known).
 */
AUGUR_API int augur_machine_validate(const struct augur_machine *m, struct augur_diag *diag);

/* Frees a machine; NULL is a no-op. */
AUGUR_API void augur_machine_free(struct augur_machine *m);

/*
 * Writes the machine as YAML in the canonical form: fields in schema order,
 * the ones not given left out, sizes in exact units. Loading the output gives
 * the same machine, and dumping that gives the same text.
 */
AUGUR_API void augur_machine_dump(FILE *fp, const struct augur_machine *m);
/* The same into a string buffer (appended). */
AUGUR_API void augur_machine_dump_buf(struct augur_buf *buf, const struct augur_machine *m);

/* Returns the cache level named name ("L2"), or NULL. Borrowed. */
AUGUR_API const struct augur_machine_cache *augur_machine_cache_find(const struct augur_machine *m,
                                                                     const char *name);

/*
 * Bandwidth at a thread count from a table: the point for exactly that count,
 * else linear interpolation between the neighbours, else the nearest end
 * (a single whole-machine value applies to every count). Returns 0 for an
 * empty table.
 */
AUGUR_API double augur_machine_bw_at(const struct augur_bw_point *bw, uint32_t nbw,
                                     uint32_t threads);

/*
 * Service time at m outstanding requests from a curve: linear interpolation,
 * clamped to the ends. Returns 0 for an empty curve.
 */
AUGUR_API double augur_machine_curve_at(const struct augur_curve_point *c, uint32_t n, double m);

/* Names used in the file: "cpu", "write-back", "next-line", ... */
AUGUR_API const char *augur_machine_kind_name(enum augur_machine_kind kind);
AUGUR_API const char *augur_write_policy_name(enum augur_write_policy p);
AUGUR_API const char *augur_prefetch_name(enum augur_prefetch p);
AUGUR_API const char *augur_replacement_name(enum augur_replacement r);

#endif
