/*
 * cli.h - what the subcommands of the augur command share (module: cli).
 */
#ifndef AUGUR_CLI_H
#define AUGUR_CLI_H

#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "augur/augur.h"

/* Exit statuses. */
enum { CLI_OK = 0, CLI_FAILED = 1, CLI_USAGE = 2 };

/* A subcommand: argv[0] is its name. help prints its usage to fp. */
struct cli_cmd {
    const char *name;
    int (*run)(int argc, char **argv);
    void (*help)(FILE *fp);
    const char *summary;
};

/* Set by the global --json or a subcommand's --json: results and errors as JSON on stdout. */
extern bool cli_json;

/* "augur: error: ..." on stderr, or {"error": "..."} on stdout with --json. Returns CLI_FAILED. */
int cli_error(const char *fmt, ...) AUGUR_PRINTF(1, 2);
/* The same for a library diagnostic (file:line:col: message). Returns CLI_FAILED. */
int cli_diag_error(const struct augur_diag *diag);
/* A usage error: the message, then "see 'augur CMD --help'". Returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) AUGUR_PRINTF(2, 3);
/* "augur: warning: ..." on stderr (also with --json, where stdout is the result). */
void cli_warning(const char *fmt, ...) AUGUR_PRINTF(1, 2);

/* Runs the subcommand of table named by argv[0]; prefix names the parent ("augur data"). */
int cli_dispatch(const struct cli_cmd *table, int argc, char **argv, const char *prefix,
                 void (*help)(FILE *fp));

/* Writes a JSON document to stdout followed by a newline and releases it. */
int cli_print_json(json_t *doc);
/* Flushes the text written to stdout: CLI_OK, or CLI_FAILED after saying it could not. */
int cli_flush_stdout(void);

/*
 * Options that load a dataset, shared by every subcommand that reads one.
 * cli_load_option() handles one getopt_long result; it returns 1 when it
 * used the option, 0 when the option is not one of these, or CLI_USAGE.
 */
#define CLI_LOAD_LONGOPTS                                                                     \
    { "format", required_argument, NULL, 0x100 }, { "undirected", no_argument, NULL, 0x101 }, \
        { "base", required_argument, NULL, 0x102 },                                           \
    {                                                                                         \
        "max-bytes", required_argument, NULL, 0x103                                           \
    }
/* The options of every command that runs a kernel on a dataset (cli_kernel_option()). */
struct cli_kernel_args {
    const char *data, *function, *bind, *machine, *source, *compile_commands, *templ;
    uint32_t ell_width;
    uint32_t tile_size; /* --tile-size: the tiling.* targets' schedule (0: none) */
    bool stored_only, no_shim;
};
#define CLI_OPT_MACHINE 0x113
#define CLI_OPT_QUIET   0x118
#define CLI_KERNEL_LONGOPTS                                                                      \
    { "data", required_argument, NULL, 0x110 }, { "function", required_argument, NULL, 0x111 },  \
        { "bind", required_argument, NULL, 0x112 },                                              \
        { "machine", required_argument, NULL, CLI_OPT_MACHINE },                                 \
        { "source", required_argument, NULL, 0x114 },                                            \
        { "compile-commands", required_argument, NULL, 0x115 },                                  \
        { "ell-width", required_argument, NULL, 0x116 },                                         \
        { "stored-only", no_argument, NULL, 0x117 },                                             \
        { "template", required_argument, NULL, 0x119 }, { "no-shim", no_argument, NULL, 0x11A }, \
        { "tile-size", required_argument, NULL, 0x11B },                                         \
    {                                                                                            \
        "quiet", no_argument, NULL, CLI_OPT_QUIET                                                \
    }
/* One of CLI_KERNEL_LONGOPTS into k: 1 when opt is one, 0 when not, CLI_USAGE when bad. */
int cli_kernel_option(const char *cmd, int opt, const char *arg, struct cli_kernel_args *k);

#define CLI_LOAD_HELP                                                                 \
    "  --format FMT      input format: auto (default), mtx, edges, dimacs, metis,\n"  \
    "                    tetgen, gmsh, medit\n"                                       \
    "  --undirected      edge lists and DIMACS: store each edge in both directions\n" \
    "  --base 0|1        edge lists: first vertex id (default: detect)\n"             \
    "  --max-bytes N     refuse inputs larger than N bytes once decompressed\n"
int cli_load_option(const char *cmd, int opt, const char *arg, struct augur_load_opts *opts);

/* Loads a dataset, reporting a failure itself. Returns CLI_OK or CLI_FAILED. */
int cli_load_dataset(const char *path, const struct augur_load_opts *opts,
                     struct augur_dataset **out);

/*
 * Parses a whole number in [lo, hi] for option opt of subcommand cmd.
 * Returns 0, or CLI_USAGE after a usage error naming the option.
 */
int cli_parse_u64(const char *cmd, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
                  uint64_t *out);

/*
 * Parses a fraction for option opt (its name with the dashes) of subcommand
 * cmd: in (0, 1], or in (0, 1) when one is not allowed. Returns 0, or
 * CLI_USAGE after a usage error naming the option.
 */
int cli_parse_fraction(const char *cmd, const char *opt, const char *arg, bool one, double *out);

/*
 * Parses a positive time for option opt of subcommand cmd: seconds, or a
 * number with a unit (ns, us, ms, s; "250us", "1.5 ms"). Returns 0, or
 * CLI_USAGE after a usage error naming the option.
 */
int cli_parse_seconds(const char *cmd, const char *opt, const char *arg, double *out);

/*
 * A schedule KIND[,CHUNK] (augur_sched_parse()) for option opt of
 * subcommand cmd. Returns 0, or CLI_USAGE after a usage error naming the
 * option.
 */
int cli_parse_schedule(const char *cmd, const char *opt, const char *arg, enum augur_sched *kind,
                       uint64_t *chunk);

/*
 * --kernel K of the sampling commands: spmv, fv or ireduce into *k, -1 for
 * "all". Returns 0, or CLI_USAGE after a usage error.
 */
int cli_parse_stream_kernel(const char *cmd, const char *arg, int *k);

/* --scaling X: auto, reuse, footprint or none. Returns 0, or CLI_USAGE after a usage error. */
int cli_parse_scaling(const char *cmd, const char *arg, enum augur_scaling *out);

/* --source V: a node number or 'maxdeg', into bo. Returns 0 or CLI_USAGE. */
int cli_bfs_source(const char *cmd, const char *arg, struct augur_bound_opts *bo);

/* The interpreter's warnings: "file:line:col: warning: message" on stderr. */
void cli_interp_warning(void *ud, const struct augur_diag *d);

/*
 * The progress line of a long simulation: on standard error when it is a
 * terminal, after the first second, unless --quiet (cli_quiet). cli_progress
 * is the interpreter's callback (or NULL when there is no line to draw);
 * cli_progress_done() clears the line.
 */
extern bool cli_quiet;
augur_interp_progress_fn *cli_progress_fn(void);
void cli_progress_done(void);

/*
 * A file augur ships: the given path, else $envvar (when envvar is not
 * NULL and it is set), else name under samples/ or share/augur/ beside the
 * directory of the augur executable (a build tree inside the checkout, or an
 * installation). Returns false when there is none.
 */
bool cli_find_shipped(const char *given, const char *envvar, const char *name, char *path,
                      size_t size);

/* What the categorizer said about a dataset. */
struct cli_category {
    bool have;
    enum augur_sampler sampler;
    unsigned leaf;
    char tree[PATH_MAX];
    char why[160]; /* when !have: why there is no category */
    double x[AUGUR_CAT_NFEATURES];
};

/*
 * Runs the categorizer tree (tree_opt, else $AUGUR_TREE, else the shipped
 * samples/categorizer.tree) on csr, the full pattern of ds. Without a tree,
 * or for a matrix that is not square, there is no category: an error when
 * required, else cat->why says why. A tree that does not load is an error.
 */
int cli_categorize(const struct augur_dataset *ds, const struct augur_csr *csr,
                   const char *tree_opt, bool required, struct cli_category *cat,
                   struct augur_diag *diag);

/*
 * The machine file: the given one, else $AUGUR_MACHINE, else "auto": this
 * host, calibrated once (augur calibrate --quick) and cached per kind of
 * host. Returns false when there is none (the message printed).
 */
bool cli_find_machine(const char *given, char *path, size_t size);

/*
 * A CPU machine file measured on another host (its host_id): a warning, or an
 * error when a time measured here is to be compared with it (measuring). A
 * file that names no host: a warning when measuring. Returns CLI_OK or
 * CLI_FAILED.
 */
int cli_machine_host_check(const struct augur_machine *m, bool measuring);
/*
 * The file --machine auto reads on this host; with make_dir, its folder is
 * made. False (the reason printed) when there is no cache folder.
 */
bool cli_auto_machine_path(char *path, size_t size, bool make_dir);

/* How cli_load_kernel() finds and binds the kernel. */
struct cli_kernel_opts {
    const char *cmd;      /* the subcommand, for usage errors */
    const char *function; /* --function, or NULL: the file's only kernel */
    const char *bind;     /* --bind, or NULL */
    const char *launch;   /* --launch, or NULL */
    /* --compile-commands: a folder holding compile_commands.json, or the file itself; NULL */
    const char *compile_commands;
    const char *templ; /* --template, or NULL */
    bool no_shim;      /* --no-shim */
};

/*
 * The folder whose compile_commands.json the front end reads for path
 * (--compile-commands): the path itself when it names a folder, its folder
 * when it names compile_commands.json; NULL for any other file (its flags
 * serve the compiled run only). dir holds the result.
 */
const char *cli_compdb_dir(const char *path, char *dir, size_t size);

/*
 * Parses the C/CUDA file path through the front end with the options fo (its
 * on_diag and ud are set here: the compiler's diagnostics go to stderr, and
 * a file that does not compile is "'path' does not compile (N errors)").
 * Reports failures itself: returns CLI_OK or CLI_FAILED; the caller owns *skel.
 */
int cli_fe_parse(const char *path, struct augur_fe_opts *fo, struct augur_skel **skel);

/*
 * Builds the skeleton of path (a .skel file, or C/CUDA through the front
 * end with the compiler arguments args), applies the bindings and picks the
 * kernel. Reports failures itself: returns CLI_OK, CLI_FAILED or CLI_USAGE.
 * The caller owns *skel (augur_skel_free()); *kernel points into it.
 */
int cli_load_kernel(const struct cli_kernel_opts *ko, const char *path, int nargs, char **args,
                    struct augur_skel **skel, const struct augur_node **kernel);

/* augur train model (cmd_train_model.c). */
int train_model(int argc, char **argv);
void train_model_help(FILE *fp);

/* The subcommands. */
int cmd_data(int argc, char **argv);
void cmd_data_help(FILE *fp);
int cmd_calibrate(int argc, char **argv);
void cmd_calibrate_help(FILE *fp);
int cmd_measure(int argc, char **argv);
void cmd_measure_help(FILE *fp);
int cmd_predict(int argc, char **argv);
void cmd_predict_help(FILE *fp);
int cmd_simulate(int argc, char **argv);
void cmd_simulate_help(FILE *fp);
int cmd_skeleton(int argc, char **argv);
void cmd_skeleton_help(FILE *fp);
int cmd_train(int argc, char **argv);
void cmd_train_help(FILE *fp);
int cmd_advise(int argc, char **argv);
void cmd_advise_help(FILE *fp);
int cmd_batch(int argc, char **argv);
void cmd_batch_help(FILE *fp);

/*
 * --regs N and --smem BYTES of predict and simulate: what a CUDA block holds
 * on an SM besides its warps, for the occupancy. cli_gpu_use_option(): 1
 * when opt is one, 0 when not, CLI_USAGE when bad.
 */
#define CLI_GPU_USE_LONGOPTS                    \
    { "regs", required_argument, NULL, 0x132 }, \
    {                                           \
        "smem", required_argument, NULL, 0x133  \
    }
#define CLI_GPU_USE_HELP                                                                \
    "  --regs N          CUDA: registers per thread (nvcc --resource-usage), for the\n" \
    "                    occupancy (default: Nsight Compute's with --ncu, else none)\n" \
    "  --smem BYTES      CUDA: dynamic shared memory per block (the launch's third\n"   \
    "                    argument); the kernel's static __shared__ arrays are added\n"
struct cli_gpu_use {
    struct augur_gpu_block_use use;
    bool regs_given, smem_given;
    const char *regs_from; /* where the registers came from when not --regs (NULL: --regs) */
};
int cli_gpu_use_option(const char *cmd, int opt, const char *arg, struct cli_gpu_use *u);
/* The occupancy line of a CUDA run: "occupancy: 8 blocks of 8 warps per SM, ..." */
void cli_print_occupancy(const struct augur_gpu_occupancy *occ, const char *regs_from);

/*
 * --ncu FILE [--ncu-id N] of predict and simulate: Nsight Compute's
 * measurement of the kernel (a launch, or the median of its launches)
 * beside augur's counts of one call. cli_ncu_compare() loads, selects and
 * compares (CLI_OK, or an exit status after the message); rows are empty
 * when no metric is in both.
 */
#define CLI_NCU_LONGOPTS                         \
    { "ncu", required_argument, NULL, 0x130 },   \
    {                                            \
        "ncu-id", required_argument, NULL, 0x131 \
    }
#define CLI_NCU_HELP                                                                    \
    "  --ncu FILE        compare with Nsight Compute's CSV of the kernel (ncu --csv,\n" \
    "                    --page raw or details): measured against augur per metric\n"   \
    "  --ncu-id N        the launch of that ID (default: the median of the kernel's)\n"
struct cli_ncu {
    const char *path;
    int64_t id; /* -1: every launch of the kernel */
    struct augur_ncu *file;
    struct augur_ncu_launch launch;
    uint32_t count;
    struct augur_ncu_row rows[AUGUR_NCU_NQUANTITIES];
    size_t nrows;
};
/* One of CLI_NCU_LONGOPTS: 1 when opt is one, 0 when not, CLI_USAGE when bad. */
int cli_ncu_option(const char *cmd, int opt, const char *arg, struct cli_ncu *n);
/* Reads the file (before any simulation, so a bad one fails fast): CLI_OK or CLI_FAILED. */
int cli_ncu_load(struct cli_ncu *n);
int cli_ncu_compare(struct cli_ncu *n, const char *kernel, const struct augur_workload *w,
                    double kernel_seconds);
void cli_ncu_release(struct cli_ncu *n);
/* What --regs and --smem leave out, from the loaded file's launch of kernel (when it has it). */
void cli_ncu_block_use(const struct cli_ncu *n, const char *kernel, struct cli_gpu_use *u);
/* The comparison as a table; cold: augur counted from empty caches, as ncu runs by default. */
void cli_ncu_print(const struct cli_ncu *n, bool cold);
json_t *cli_ncu_json(const struct cli_ncu *n);

#endif
