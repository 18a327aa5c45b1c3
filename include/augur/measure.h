/*
 * measure.h - times a kernel function of a C file on a dataset: a generated
 * driver binds the kernel's parameters to the dataset as the interpreter
 * does, is compiled with the file's flags and run in a child process with a
 * time limit (module: measure). docs/cli/measure.md describes it.
 */
#ifndef AUGUR_MEASURE_H
#define AUGUR_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "augur/base.h"
#include "augur/interp.h"
#include "augur/sim.h"
#include "augur/skeleton.h"

/*
 * Receives what the compiler and the driver print on their standard error
 * (compiler errors and warnings carry their own file:line:col), as it was
 * printed. what is "compile", "link" or "run". text is borrowed for the call.
 */
typedef void augur_measure_output_fn(void *ud, const char *what, const char *text);

/* Options of augur_measure(); zero-initialised means "all defaults". */
struct augur_measure_opts {
    /*
     * Compiler flags: the entry of source in compile_commands (the file or
     * its folder) when given, else -O3 -march=native -falign-loops=32, with
     * -fopenmp when the file has OpenMP directives or openmp is set,
     * followed by args (the arguments after "--"; a later flag wins, so
     * -O2 there lowers the optimisation). -lm is always linked.
     */
    const char *compile_commands;
    const char *const *args;
    size_t nargs;
    bool args_given;
    bool openmp;
    const char *cc; /* the compiler; NULL: $CC, else cc */
    /*
     * What else the kernel needs linked (functions its file only declares):
     * C sources (compiled with the kernel's flags), objects, archives,
     * -lname and -Ldir, in order.
     */
    const char *const *links;
    size_t nlinks;
    /*
     * "NAME=VALUE,...": values of scalar parameters that the skeleton does
     * not hold (outside the address and control slice, e.g. a damping
     * factor). Others get 1 (integers) or 0.5 (floating point).
     */
    const char *values;
    unsigned threads; /* OMP_NUM_THREADS (0: $OMP_NUM_THREADS, else 1) */
    /*
     * Time the kernel as if every OpenMP worksharing loop of it said
     * schedule(sched, chunk) (chunk 0: none), the override struct
     * augur_interp_opts gives the interpreter: the driver compiles a copy
     * of the kernel's file whose worksharing directives in the kernel say
     * schedule(runtime) (a schedule clause replaced, else one added; lines
     * keep their numbers, and the original's folder is searched for its
     * "" includes) and runs it with OMP_SCHEDULE=sched[,chunk] in place of
     * the caller's. Without it the source's schedules run as written.
     */
    bool sched_given;
    enum augur_sched sched;
    uint64_t chunk;
    uint64_t reps;      /* at least this many timed repetitions (0: 10) */
    double min_time;    /* and at least this many seconds of them in total (<= 0: 0.2) */
    double timeout;     /* wall-clock limit of the run in seconds (<= 0: 60) */
    double cc_timeout;  /* limit of each compiler run (<= 0: 300) */
    bool keep;          /* keep the working folder (driver, blob, binary) */
    bool no_counts;     /* skip the interpreter run that counts bytes and flops */
    bool allow_empty;   /* report a time even when the work check finds nothing done */
    const char *tmpdir; /* where the working folder goes (NULL: $TMPDIR, else /tmp) */
    augur_measure_output_fn *on_output;
    void *ud;
};

/* One parameter of the kernel as the driver passes it. */
struct augur_measure_arg {
    char *name;
    char *what;   /* the binding target, "=VALUE", or "NULL" */
    bool pointer; /* an array: its data lie in the blob */
    uint64_t elements;
    uint32_t elem_size;
    bool in_skeleton; /* false: the skeleton does not use it (a default or --bind value) */
};

/* The result of augur_measure(). Every time is in seconds. */
struct augur_measurement {
    char *kernel;
    char *source; /* absolute path */
    double min, median, max, mean, total;
    uint64_t reps;
    double *times; /* reps entries, in the order they ran */
    /*
     * Round-based kernels (a parameter bound to round and a bfs.level
     * array): a repetition is a whole BFS, rounds calls with round = 1, 2,
     * ... as many as the warm-up search needed (its last round stores
     * nothing new); interp_rounds is what the interpreter counted (0: not
     * run). Other kernels: rounds 1, a repetition is one call.
     */
    bool round_based;
    uint32_t rounds, interp_rounds;
    char clock[32];    /* "CLOCK_MONOTONIC" */
    char *compile_cmd; /* the compiler command for the kernel's file, shell-quoted */
    char *link_cmd;    /* the link command */
    char *cc_dir;      /* the folder the compiler ran in (compile_commands.json), or NULL */
    char *flags_from;  /* "compile_commands.json", "command line" or "defaults" */
    unsigned threads;  /* OMP_NUM_THREADS as run */
    char *omp_num_threads, *omp_proc_bind, *omp_places;
    /*
     * The schedule override as run: OMP_SCHEDULE, and the worksharing
     * directives the copy of the file says schedule(runtime) in (NULL, 0:
     * none asked; the source's schedules ran).
     */
    char *omp_schedule;
    uint32_t sched_directives;
    bool omp_from_env[3]; /* the value came from the caller's environment */
    struct augur_measure_arg *args;
    uint32_t nargs;
    /*
     * Per repetition, counted by the skeleton interpreter on the same data
     * (have_counts false when it was not run or failed: notes say why):
     * bytes the source's accesses name (each access's element size, no
     * cache reuse), floating-point operations (an FMA is two, vector
     * operations count their lanes), and the operation totals by kind.
     */
    bool have_counts;
    uint64_t bytes_read, bytes_written, accesses;
    uint64_t flops;
    uint64_t ops[AUGUR_OPK_COUNT];
    /*
     * The work check: of the written elements of the arrays the skeleton
     * stores into, how many the warm-up changed (work_checked false when the
     * kernel stores into none). A kernel that changed none is an error
     * unless opts->allow_empty.
     */
    bool work_checked;
    uint64_t changed, written;
    char *workdir; /* the kept working folder, or NULL */
    char *notes;   /* remarks, one a line, or NULL */
};

/*
 * Times kernel (a kernel node of skel, parsed from opts->source, its
 * bindings applied) on data with opts->threads OpenMP threads: writes each
 * bound array in its parameter's element type to a blob in a private
 * folder, generates a driver that includes the source (its main renamed),
 * compiles and links it, runs it once to warm up, then repeats until both
 * opts->reps repetitions and opts->min_time seconds are reached, timing
 * each with CLOCK_MONOTONIC, then counts bytes and flops with the
 * interpreter. skel, kernel and data are borrowed.
 *
 * Returns 0 and the caller's *out (augur_measurement_free()), or
 * AUGUR_EBIND when the bindings do not fit the data or a parameter cannot be
 * passed (file:line:col of the declaration), AUGUR_EUNSUP for CUDA kernels
 * and parameters that are neither arrays nor scalars (structs, function
 * pointers), AUGUR_EPARSE when the kernel does not compile (diag names the
 * first error's file:line:col; the compiler's messages went to
 * opts->on_output), AUGUR_ERUN when the driver fails: killed by a signal
 * (named), exited with an error (its message), or ran past opts->timeout
 * (its process group is killed), AUGUR_EIO for the working folder. With
 * opts->sched_given: AUGUR_EINVAL for a schedule the interpreter refuses
 * or flags without -fopenmp, AUGUR_EUNSUP when the copy cannot run it
 * (naming the line): a kernel without a worksharing directive, one written
 * with _Pragma or a macro, a worksharing loop in another file (a header).
 */
AUGUR_API int augur_measure(const struct augur_skel *skel, const struct augur_node *kernel,
                            struct augur_bound *data, const struct augur_measure_opts *opts,
                            struct augur_measurement **out, struct augur_diag *diag);

/* Frees a measurement; NULL is a no-op. */
AUGUR_API void augur_measurement_free(struct augur_measurement *m);

/* ---- Nsight Compute files ------------------------------------------------------------------ */

/* What augur reads from an Nsight Compute CSV: the metrics it simulates or needs. */
enum augur_ncu_quantity {
    AUGUR_NCU_SECONDS,        /* gpu__time_duration.sum: the kernel on the GPU */
    AUGUR_NCU_WARP_LOADS,     /* smsp__inst_executed_op_global_ld.sum */
    AUGUR_NCU_L1_REQUESTS,    /* l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum */
    AUGUR_NCU_L1_SECTORS,     /* l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum */
    AUGUR_NCU_L1_HITS,        /* ... _lookup_hit.sum */
    AUGUR_NCU_L2_SECTORS,     /* lts__t_sectors_srcunit_tex_op_read.sum: L1's reads of L2 */
    AUGUR_NCU_L2_HITS,        /* ... _lookup_hit.sum */
    AUGUR_NCU_DRAM_READ,      /* dram__bytes_read.sum */
    AUGUR_NCU_DRAM_WRITE,     /* dram__bytes_write.sum */
    AUGUR_NCU_DIVERGENT,      /* smsp__sass_branch_targets_threads_divergent.sum */
    AUGUR_NCU_BRANCH_EFF,     /* sm__sass_average_branch_targets_threads_uniform.pct, % */
    AUGUR_NCU_REGISTERS,      /* launch__registers_per_thread */
    AUGUR_NCU_SHARED_STATIC,  /* launch__shared_mem_per_block_static, bytes */
    AUGUR_NCU_SHARED_DYNAMIC, /* launch__shared_mem_per_block_dynamic, bytes */
    AUGUR_NCU_OCCUPANCY,      /* sm__maximum_warps_per_active_cycle_pct: theoretical, % */
    AUGUR_NCU_NQUANTITIES
};

/* Nsight Compute's name of q ("dram__bytes_read.sum"), and what it is ("DRAM bytes read"). */
AUGUR_API const char *augur_ncu_metric(enum augur_ncu_quantity q);
AUGUR_API const char *augur_ncu_label(enum augur_ncu_quantity q);

/* One kernel launch as Nsight Compute measured it. */
struct augur_ncu_launch {
    uint64_t id;        /* ncu's ID */
    uint32_t line;      /* its row of the file (the details page: its first row) */
    const char *kernel; /* as ncu names it: "spmv(int, const int *, float *)" */
    char name[128];     /* the function's own name: "spmv" */
    uint64_t block[3], grid[3];
    double value[AUGUR_NCU_NQUANTITIES]; /* base units: seconds, bytes, counts, %; NaN: absent */
};

struct augur_ncu {
    struct augur_ncu_launch *launches; /* in the file's order */
    size_t nlaunches;
    bool details; /* the details page (a metric a row), else the raw page (a launch a row) */
    struct augur_arena strings;
};

/*
 * Reads the CSV Nsight Compute prints with --csv: the raw page (--page raw:
 * a header row, a row of units, a launch a row) or the details page (the
 * default: a metric a row, with --metrics or the sections' labels such as
 * "Duration" and "Registers Per Thread"). Lines before the header (the
 * application's output, ==PROF== lines) are skipped; values are converted
 * from their units (Mbyte, usecond, ...) to base units. path names the file
 * in messages. AUGUR_EFORMAT when no header is found, AUGUR_EPARSE for a
 * malformed row or a value of a metric augur reads that is no number, has an
 * unknown unit or is negative (file:line), AUGUR_ELIMIT past the sizes a
 * real file has. The caller owns *out (augur_ncu_free()).
 */
AUGUR_API int augur_ncu_parse(const char *text, size_t len, const char *path,
                              struct augur_ncu **out, struct augur_diag *diag);
/* The same from a file (gzip or plain; "-": standard input). */
AUGUR_API int augur_ncu_load(const char *path, struct augur_ncu **out, struct augur_diag *diag);
AUGUR_API void augur_ncu_free(struct augur_ncu *n);

/*
 * The launches of kernel (matched by the function's own name) as one: the
 * launch numbered id when id >= 0, else the median of each metric over all
 * of them (*count: how many). AUGUR_ENOENT naming the kernels the file has
 * when none matches, or when id is no launch of kernel.
 */
AUGUR_API int augur_ncu_select(const struct augur_ncu *n, const char *kernel, int64_t id,
                               struct augur_ncu_launch *out, uint32_t *count,
                               struct augur_diag *diag);

/* One quantity measured against simulated. */
struct augur_ncu_row {
    enum augur_ncu_quantity q;
    double measured, augur;
};

/*
 * augur's value of every quantity launch has and a simulation gives, from
 * the workload w of one call (w->gpu_given) and the predicted time of the
 * kernel on the GPU (kernel_seconds; <= 0: not compared); returns the rows
 * written (at most AUGUR_NCU_NQUANTITIES).
 */
AUGUR_API size_t augur_ncu_compare(const struct augur_ncu_launch *launch,
                                   const struct augur_workload *w, double kernel_seconds,
                                   struct augur_ncu_row *rows);

#endif
