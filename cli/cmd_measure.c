/*
 * cmd_measure.c - "augur measure": times a kernel function of a C file on a
 * dataset through a generated driver, and reports the time per call, the
 * bytes and flops the skeleton names, and how it was compiled and run
 * (module: cli).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "augur/frontend.h"
#include "augur/measure.h"
#include "cli.h"

void cmd_measure_help(FILE *fp)
{
    fprintf(fp,
            "usage: augur measure [OPTIONS] FILE.c|FILE.cpp --data DATASET [-- COMPILER_ARGS...]\n"
            "\n"
            "Times a kernel function of a C or C++ file on a dataset without a hand-written\n"
            "driver: binds its array and scalar parameters to the dataset as 'augur simulate'\n"
            "does, generates a driver that includes the file (its main renamed), compiles it\n"
            "with the file's flags, runs it in a child process (one warm-up call, then\n"
            "repetitions until both --reps and --min-time are reached, each timed with\n"
            "CLOCK_MONOTONIC) and prints min / median / max seconds per call with the bytes\n"
            "and flops the skeleton counts on the same data. A kernel with a parameter bound\n"
            "to 'round' and a bfs.level array is timed as a whole search (rounds 1, 2, ...\n"
            "until the level array stops changing).\n"
            "\n"
            "options:\n"
            "  --data FILE       the dataset (Matrix Market, edge list, mesh, ...); required\n"
            "  --function NAME   the kernel to time (needed when the file has several)\n"
            "  --bind LIST       bindings NAME=TARGET,... (csr.rowptr, ell.idx, vec(n), n=100);\n"
            "                    NAME=VALUE also sets parameters the skeleton does not use\n"
            "  --threads T       OMP_NUM_THREADS for the run (default $OMP_NUM_THREADS, else 1)\n"
            "  --schedule KIND[,CHUNK]\n"
            "                    time every OpenMP worksharing loop of the kernel with this\n"
            "                    schedule (static, dynamic, guided, auto; e.g. dynamic,64)\n"
            "                    instead of its own: a copy of the file whose directives\n"
            "                    say schedule(runtime) runs with OMP_SCHEDULE=KIND[,CHUNK]\n"
            "  --reps N          at least N timed repetitions (default 10)\n"
            "  --min-time S      and at least S seconds of them in total (default 0.2)\n"
            "  --timeout S       kill the run after S seconds of wall-clock time (default 60)\n"
            "  -p, --compile-commands PATH\n"
            "                    compile_commands.json (or its folder): the file's flags\n"
            "  --cc CC           the compiler (default $CC, else cc)\n"
            "  --openmp          add -fopenmp to the default flags (added anyway when the\n"
            "                    file has OpenMP directives)\n"
            "  --source V        the BFS source node of bfs.level, or 'maxdeg' (default 0)\n"
            "  --ell-width W     ELLPACK width (default: the largest row degree)\n"
            "  --tile-size T     the tile size of the tiling.* bindings' schedule\n"
            "                    (docs/tiling.md)\n"
            "  --stored-only     symmetric data: the stored triangle only (default: both)\n"
            "  --no-counts       do not run the skeleton interpreter (no bytes and flops)\n"
            "  --link FILE       also link FILE: a C source (compiled with the kernel's\n"
            "                    flags), an object, an archive, -lname or -Ldir, for the\n"
            "                    functions the kernel's file only declares (repeatable)\n"
            "  --allow-empty     report the time even when the warm-up call changed none of\n"
            "                    the arrays the kernel stores into (default: an error)\n"
            "  --keep            keep the working folder (driver sources, data blob, binary)\n"
            "  --json            the result as JSON\n" CLI_LOAD_HELP
            "  --quiet           no progress line (drawn on a terminal for a long simulation)\n"
            "  -h, --help        print this help\n"
            "\n"
            "Compiler flags: the file's entry in --compile-commands, else the arguments after\n"
            "\"--\" (they also go to the front end), else -O3 -march=native -falign-loops=32\n"
            "[-fopenmp]; -lm is linked. docs/cli/measure.md has examples.\n");
}

struct opts {
    struct cli_kernel_args k; /* k.compile_commands: the flags' compile_commands */
    const char *cc;
    unsigned threads;
    bool sched_given; /* --schedule KIND[,CHUNK] */
    enum augur_sched sched;
    uint64_t chunk;
    uint64_t reps;
    double min_time, timeout;
    bool keep, openmp, no_counts, allow_empty;
    struct augur_load_opts load;
    const char *links[16]; /* --link: what else to link */
    size_t nlinks;
};

/* The compiler's and the driver's messages, as they printed them. */
static void on_output(void *ud, const char *what, const char *text)
{
    size_t n = strlen(text);

    (void)ud;
    (void)what;
    fputs(text, stderr);
    if (n && text[n - 1] != '\n')
        fputc('\n', stderr);
}

static int parse_seconds(const char *opt, const char *arg, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(arg, &end);
    if (errno || end == arg || *end || !(v > 0) || v > 86400)
        return cli_usage_error("measure", "%s needs seconds in (0, 86400], not '%s'", opt, arg);
    *out = v;
    return 0;
}

/*
 * Splits the --bind list: entries naming an array or scalar of the kernel's
 * skeleton go to skel (bindings), the others to values (parameters outside
 * the slice, checked by augur_measure()).
 */
static void split_binds(const struct augur_node *k, const char *list, struct augur_buf *skel,
                        struct augur_buf *values)
{
    const char *p = list;

    while (p && *p) {
        const char *end = strchr(p, ','), *eq;
        bool known = false;
        size_t n;

        if (!end)
            end = p + strlen(p);
        eq = memchr(p, '=', (size_t)(end - p));
        n = eq ? (size_t)(eq - p) : (size_t)(end - p);
        for (uint32_t i = 0; i < k->u.kernel.nsyms; i++)
            known |= k->u.kernel.syms[i].kind == AUGUR_SYM_PARAM &&
                     strlen(k->u.kernel.syms[i].name) == n &&
                     !strncmp(k->u.kernel.syms[i].name, p, n);
        for (uint32_t i = 0; i < k->u.kernel.narrays; i++)
            known |= strlen(k->u.kernel.arrays[i].name) == n &&
                     !strncmp(k->u.kernel.arrays[i].name, p, n);
        {
            struct augur_buf *b = known || !eq ? skel : values;

            augur_buf_printf(b, "%s%.*s", b->len ? "," : "", (int)(end - p), p);
        }
        p = *end ? end + 1 : end;
    }
}

static int load_kernel(struct opts *o, const char *path, int nargs, char **args,
                       struct augur_skel **skel, struct augur_node **kernel, char **values)
{
    struct augur_diag diag;
    struct augur_fe_opts fo;
    struct augur_buf sb, vb;
    char dir[PATH_MAX];
    int rc = CLI_FAILED;

    augur_diag_init(&diag);
    augur_buf_init(&sb);
    augur_buf_init(&vb);
    memset(&fo, 0, sizeof(fo));
    fo.args = (const char *const *)args;
    fo.nargs = (size_t)nargs;
    fo.function = o->k.function;
    fo.templ = o->k.templ;
    fo.no_shim = o->k.no_shim;
    fo.no_infer = true; /* after the command line's bindings, below */
    /* a compile_commands file of another name gives the timed run's flags only */
    fo.build_dir = cli_compdb_dir(o->k.compile_commands, dir, sizeof(dir));
    if ((rc = cli_fe_parse(path, &fo, skel)) != CLI_OK)
        goto out;
    if (o->k.function) {
        *kernel = (struct augur_node *)augur_skel_find_kernel(*skel, o->k.function);
        if (!*kernel) {
            rc = cli_error("no kernel '%s' in '%s'", o->k.function, path);
            goto out;
        }
    } else if ((*skel)->nkernels == 0) {
        rc = cli_error("'%s' holds no kernel", path);
        goto out;
    } else if ((*skel)->nkernels != 1) {
        struct augur_buf names;

        augur_buf_init(&names);
        for (uint32_t i = 0; i < (*skel)->nkernels; i++)
            augur_buf_printf(&names, "%s%s", i ? ", " : "", (*skel)->kernels[i]->u.kernel.name);
        rc = cli_usage_error("measure",
                             "'%s' has %" PRIu32 " kernels (%s): pick one with --function", path,
                             (*skel)->nkernels, names.s);
        augur_buf_release(&names);
        goto out;
    } else {
        *kernel = (*skel)->kernels[0];
    }
    split_binds(*kernel, o->k.bind, &sb, &vb);
    if (sb.len && augur_skel_bind(*skel, *kernel, sb.s, AUGUR_BIND_CLI, &diag) != 0) {
        rc = cli_diag_error(&diag);
        goto out;
    }
    if (augur_skel_infer_bindings(*skel, &diag) != 0) {
        char msg[1200];

        augur_diag_format(&diag, msg, sizeof(msg));
        cli_warning("%s", msg);
    }
    *values = vb.len ? augur_buf_detach(&vb, NULL) : NULL;
    rc = CLI_OK;
out:
    augur_buf_release(&sb);
    augur_buf_release(&vb);
    return rc;
}

/* ---- output -----------------------------------------------------------------------------------
 */

static double per_second(double amount, double seconds)
{
    return seconds > 0 ? amount / seconds : 0;
}

static void print_text(const struct augur_measurement *m, const struct augur_dataset *ds)
{
    const char *per = m->round_based ? "search" : "call";
    const char *env[3] = { m->omp_num_threads, m->omp_proc_bind, m->omp_places };
    static const char *const keys[3] = { "OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_PLACES" };

    printf("kernel %s (%s) on %s: %" PRIu32 " x %" PRIu32 ", %" PRIu64 " entries\n", m->kernel,
           m->source, ds->path, ds->coo.nrows, ds->coo.ncols, augur_dataset_nnz_full(ds));
    printf("compiled (flags: %s)%s%s:\n  %s\n  %s\n", m->flags_from, m->cc_dir ? " in " : "",
           m->cc_dir ? m->cc_dir : "", m->compile_cmd, m->link_cmd);
    printf("threads %u:", m->threads);
    for (int k = 0; k < 3; k++)
        printf(" %s=%s (%s)%s", keys[k], env[k], m->omp_from_env[k] ? "environment" : "augur",
               k < 2 ? "," : "\n");
    if (m->omp_schedule)
        printf("schedule %s for every worksharing loop, overriding the source's: OMP_SCHEDULE=%s "
               "(augur), %" PRIu32 " directive%s of the compiled copy say%s schedule(runtime)\n",
               m->omp_schedule, m->omp_schedule, m->sched_directives,
               m->sched_directives == 1 ? "" : "s", m->sched_directives == 1 ? "s" : "");
    printf("clock %s; 1 warm-up %s, then %" PRIu64 " timed repetition%s in %.4f s\n", m->clock, per,
           m->reps, m->reps == 1 ? "" : "s", m->total);
    if (m->round_based)
        printf("a repetition is a whole BFS: %" PRIu32 " round%s (round = 1 .. %" PRIu32
               ", the last stores nothing new)\n",
               m->rounds, m->rounds == 1 ? "" : "s", m->rounds);
    printf("\nseconds per %s: min %.6e  median %.6e  max %.6e  (mean %.6e)\n", per, m->min,
           m->median, m->max, m->mean);
    if (m->round_based && m->rounds)
        printf("seconds per round at the median: %.6e\n", m->median / m->rounds);
    if (m->work_checked)
        printf("work check: the warm-up changed %" PRIu64 " of the %" PRIu64
               " elements of the arrays the kernel stores into\n",
               m->changed, m->written);
    else
        printf("work check: none (the kernel stores into no array of the data)\n");
    if (m->have_counts) {
        uint64_t bytes = m->bytes_read + m->bytes_written;

        printf("bytes per %s %" PRIu64 " (read %" PRIu64 ", written %" PRIu64
               "; the bytes the source's %" PRIu64
               " accesses name, element sizes, no cache reuse)\n",
               per, bytes, m->bytes_read, m->bytes_written, m->accesses);
        printf("flops per %s %" PRIu64 "\n", per, m->flops);
        printf("achieved: %.3f GB/s and %.3f Gflop/s at the median, %.3f GB/s and %.3f Gflop/s "
               "at the min\n",
               per_second((double)bytes, m->median) / 1e9,
               per_second((double)m->flops, m->median) / 1e9,
               per_second((double)bytes, m->min) / 1e9, per_second((double)m->flops, m->min) / 1e9);
        printf("operations:");
        for (int i = 0; i < AUGUR_OPK_COUNT; i++)
            if (m->ops[i])
                printf(" %s=%" PRIu64, augur_opkind_name((enum augur_opkind)i), m->ops[i]);
        printf("\n");
    }
    printf("\narguments:\n");
    for (uint32_t i = 0; i < m->nargs; i++) {
        const struct augur_measure_arg *a = &m->args[i];

        if (a->pointer && a->elements)
            printf("  %-16s %-14s %12" PRIu64 " x %" PRIu32 " B\n", a->name, a->what, a->elements,
                   a->elem_size);
        else
            printf("  %-16s %s%s\n", a->name, a->what,
                   a->in_skeleton ? "" : " (not in the skeleton)");
    }
    if (m->notes) {
        printf("\nnotes:\n");
        for (const char *p = m->notes; *p;) {
            const char *nl = strchr(p, '\n');
            int n = nl ? (int)(nl - p) : (int)strlen(p);

            printf("  %.*s\n", n, p);
            p += n + (nl ? 1 : 0);
        }
    }
    if (m->workdir)
        printf("\nworking folder kept: %s\n", m->workdir);
}

/* The OpenMP settings of the run, and which came from the caller's environment. */
static json_t *omp_json(const struct augur_measurement *m)
{
    json_t *omp = json_object(), *a = json_array();

    json_object_set_new(omp, "OMP_NUM_THREADS", json_string(m->omp_num_threads));
    json_object_set_new(omp, "OMP_PROC_BIND", json_string(m->omp_proc_bind));
    json_object_set_new(omp, "OMP_PLACES", json_string(m->omp_places));
    if (m->omp_schedule)
        json_object_set_new(omp, "OMP_SCHEDULE", json_string(m->omp_schedule));
    if (m->omp_from_env[0])
        json_array_append_new(a, json_string("OMP_NUM_THREADS"));
    if (m->omp_from_env[1])
        json_array_append_new(a, json_string("OMP_PROC_BIND"));
    if (m->omp_from_env[2])
        json_array_append_new(a, json_string("OMP_PLACES"));
    json_object_set_new(omp, "from_environment", a);
    return omp;
}

static json_t *result_json(const struct augur_measurement *m, const struct augur_dataset *ds)
{
    json_t *doc = json_object(), *a;
    uint64_t bytes = m->bytes_read + m->bytes_written;

    json_object_set_new(doc, "kernel", json_string(m->kernel));
    json_object_set_new(doc, "file", json_string(m->source));
    json_object_set_new(doc, "dataset", json_string(ds->path));
    json_object_set_new(doc, "rows", json_integer(ds->coo.nrows));
    json_object_set_new(doc, "cols", json_integer(ds->coo.ncols));
    json_object_set_new(doc, "nnz", json_integer((json_int_t)augur_dataset_nnz_full(ds)));
    json_object_set_new(doc, "threads", json_integer(m->threads));
    json_object_set_new(doc, "omp", omp_json(m));
    json_object_set_new(doc, "schedule",
                        m->omp_schedule ? json_string(m->omp_schedule) : json_null());
    json_object_set_new(doc, "schedule_directives", json_integer(m->sched_directives));
    json_object_set_new(doc, "clock", json_string(m->clock));
    json_object_set_new(doc, "round_based", json_boolean(m->round_based));
    json_object_set_new(doc, "rounds", json_integer(m->rounds));
    if (m->round_based)
        json_object_set_new(doc, "interp_rounds", json_integer(m->interp_rounds));
    json_object_set_new(doc, "reps", json_integer((json_int_t)m->reps));
    json_object_set_new(doc, "min", json_real(m->min));
    json_object_set_new(doc, "median", json_real(m->median));
    json_object_set_new(doc, "max", json_real(m->max));
    json_object_set_new(doc, "mean", json_real(m->mean));
    json_object_set_new(doc, "total", json_real(m->total));
    a = json_array();
    for (uint64_t i = 0; i < m->reps; i++)
        json_array_append_new(a, json_real(m->times[i]));
    json_object_set_new(doc, "times", a);
    json_object_set_new(doc, "compile_command", json_string(m->compile_cmd));
    json_object_set_new(doc, "link_command", json_string(m->link_cmd));
    json_object_set_new(doc, "compile_dir", m->cc_dir ? json_string(m->cc_dir) : json_null());
    json_object_set_new(doc, "flags_from", json_string(m->flags_from));
    json_object_set_new(doc, "work_check",
                        m->work_checked ? json_pack("{s:I,s:I}", "changed", (json_int_t)m->changed,
                                                    "written", (json_int_t)m->written)
                                        : json_null());
    if (m->have_counts) {
        json_object_set_new(doc, "accesses", json_integer((json_int_t)m->accesses));
        json_object_set_new(doc, "bytes_read", json_integer((json_int_t)m->bytes_read));
        json_object_set_new(doc, "bytes_written", json_integer((json_int_t)m->bytes_written));
        json_object_set_new(doc, "bytes", json_integer((json_int_t)bytes));
        json_object_set_new(doc, "flops", json_integer((json_int_t)m->flops));
        json_object_set_new(doc, "gbytes_per_s",
                            json_real(per_second((double)bytes, m->median) / 1e9));
        json_object_set_new(doc, "gflops_per_s",
                            json_real(per_second((double)m->flops, m->median) / 1e9));
        a = json_object();
        for (int i = 0; i < AUGUR_OPK_COUNT; i++)
            if (m->ops[i])
                json_object_set_new(a, augur_opkind_name((enum augur_opkind)i),
                                    json_integer((json_int_t)m->ops[i]));
        json_object_set_new(doc, "operations", a);
    } else {
        json_object_set_new(doc, "bytes", json_null());
        json_object_set_new(doc, "flops", json_null());
    }
    a = json_array();
    for (uint32_t i = 0; i < m->nargs; i++) {
        const struct augur_measure_arg *g = &m->args[i];
        json_t *o = json_object();

        json_object_set_new(o, "name", json_string(g->name));
        json_object_set_new(o, "binding", json_string(g->what));
        json_object_set_new(o, "pointer", json_boolean(g->pointer));
        json_object_set_new(o, "in_skeleton", json_boolean(g->in_skeleton));
        if (g->pointer && g->elements) {
            json_object_set_new(o, "elements", json_integer((json_int_t)g->elements));
            json_object_set_new(o, "elem_size", json_integer(g->elem_size));
        }
        json_array_append_new(a, o);
    }
    json_object_set_new(doc, "arguments", a);
    a = json_array();
    for (const char *p = m->notes; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);

        json_array_append_new(a, json_stringn(p, n));
        p += n + (nl ? 1 : 0);
    }
    json_object_set_new(doc, "notes", a);
    json_object_set_new(doc, "workdir", m->workdir ? json_string(m->workdir) : json_null());
    return doc;
}

/* ---- the command --------------------------------------------------------------------------------
 */

/* One of measure's own options: CLI_OK, -1 after --help, or an exit status. */
static int measure_option(struct opts *o, int opt, const char *arg, const char *given)
{
    uint64_t v;

    switch (opt) {
    case 't':
        if (cli_parse_u64("measure", "--threads", arg, 1, 4096, &v))
            return CLI_USAGE;
        o->threads = (unsigned)v;
        break;
    case 'D':
        if (cli_parse_schedule("measure", "--schedule", arg, &o->sched, &o->chunk))
            return CLI_USAGE;
        o->sched_given = true;
        break;
    case 'n':
        if (cli_parse_u64("measure", "--reps", arg, 1, 100000000, &o->reps))
            return CLI_USAGE;
        break;
    case 'M':
        if (parse_seconds("--min-time", arg, &o->min_time))
            return CLI_USAGE;
        break;
    case 'T':
        if (parse_seconds("--timeout", arg, &o->timeout))
            return CLI_USAGE;
        break;
    case 'c':
        o->cc = arg;
        break;
    case 'O':
        o->openmp = true;
        break;
    case 'N':
        o->no_counts = true;
        break;
    case 'A':
        o->allow_empty = true;
        break;
    case 'L':
        if (o->nlinks == sizeof(o->links) / sizeof(o->links[0]))
            return cli_usage_error("measure", "--link: at most %zu items",
                                   sizeof(o->links) / sizeof(o->links[0]));
        o->links[o->nlinks++] = arg;
        break;
    case 'k':
        o->keep = true;
        break;
    case 'j':
        cli_json = true;
        break;
    case 'h':
        cmd_measure_help(stdout);
        return -1;
    default:
        return cli_usage_error("measure", "unknown or incomplete option '%s'", given);
    }
    return CLI_OK;
}

static int parse_args(int argc, char **argv, struct opts *o, int *nopt, const char **path)
{
    static const struct option longopts[] = {
        CLI_KERNEL_LONGOPTS,
        { "threads", required_argument, NULL, 't' },
        { "schedule", required_argument, NULL, 'D' },
        { "reps", required_argument, NULL, 'n' },
        { "min-time", required_argument, NULL, 'M' },
        { "timeout", required_argument, NULL, 'T' },
        { "cc", required_argument, NULL, 'c' },
        { "openmp", no_argument, NULL, 'O' },
        { "no-counts", no_argument, NULL, 'N' },
        { "allow-empty", no_argument, NULL, 'A' },
        { "link", required_argument, NULL, 'L' },
        { "keep", no_argument, NULL, 'k' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        CLI_LOAD_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    int opt, rc;

    *nopt = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            *nopt = i;
            break;
        }
    opterr = 0;
    while ((opt = getopt_long(*nopt, argv, "hp:", longopts, NULL)) != -1) {
        int used = cli_load_option("measure", opt, optarg, &o->load);

        if (!used)
            used = cli_kernel_option("measure", opt, optarg, &o->k);
        if (used == CLI_USAGE)
            return CLI_USAGE;
        if (used && opt == CLI_OPT_MACHINE)
            return cli_usage_error("measure", "--machine: measure times this machine");
        if (used)
            continue;
        rc = measure_option(o, opt, optarg, argv[optind - 1]);
        if (rc != CLI_OK)
            return rc;
    }
    if (optind >= *nopt)
        return cli_usage_error("measure", "missing the kernel file (FILE.c)");
    if (optind + 1 < *nopt)
        return cli_usage_error("measure", "one kernel file at a time ('%s' is extra)",
                               argv[optind + 1]);
    if (!o->k.data)
        return cli_usage_error("measure", "missing --data DATASET");
    *path = argv[optind];
    if (augur_str_ends_with(*path, ".cu"))
        return cli_usage_error("measure",
                               "'%s': augur measure compiles and runs C kernels; time a CUDA "
                               "kernel with Nsight Compute (ncu --csv) and compare it with "
                               "augur predict --ncu FILE.csv",
                               *path);
    if (augur_str_ends_with(*path, ".skel"))
        return cli_usage_error("measure",
                               "'%s': augur measure compiles and runs C files; a skeleton has no "
                               "code to compile",
                               *path);
    return CLI_OK;
}

/* Loads the kernel and the data, measures, reports. */
static int run(struct opts *o, const char *path, int nargs, char **args)
{
    struct augur_diag diag;
    struct augur_skel *skel = NULL;
    struct augur_node *kernel = NULL;
    struct augur_dataset *ds = NULL;
    struct augur_bound *bound = NULL;
    struct augur_measurement *m = NULL;
    struct augur_bound_opts bo;
    struct augur_measure_opts mo;
    char *values = NULL;
    int rc;

    augur_diag_init(&diag);

    memset(&bo, 0, sizeof(bo));
    bo.stored_only = o->k.stored_only;
    bo.ell_width = o->k.ell_width;
    bo.tile_size = o->k.tile_size;
    bo.nthreads = o->threads ? o->threads : 1;
    if (o->k.source && cli_bfs_source("measure", o->k.source, &bo))
        return CLI_USAGE;
    rc = load_kernel(o, path, nargs, args, &skel, &kernel, &values);
    if (rc)
        goto out;
    rc = cli_load_dataset(o->k.data, &o->load, &ds);
    if (rc)
        goto out;
    rc = CLI_FAILED;
    if (augur_bound_new(ds, &bo, &bound, &diag) != 0) {
        rc = cli_diag_error(&diag);
        goto out;
    }
    memset(&mo, 0, sizeof(mo));
    mo.compile_commands = o->k.compile_commands;
    mo.args = (const char *const *)args;
    mo.nargs = (size_t)nargs;
    mo.args_given = args != NULL;
    mo.openmp = o->openmp;
    mo.cc = o->cc;
    mo.values = values;
    mo.threads = o->threads;
    mo.sched_given = o->sched_given;
    mo.sched = o->sched;
    mo.chunk = o->chunk;
    mo.reps = o->reps;
    mo.min_time = o->min_time;
    mo.timeout = o->timeout;
    mo.keep = o->keep;
    mo.no_counts = o->no_counts;
    mo.allow_empty = o->allow_empty;
    mo.links = o->links;
    mo.nlinks = o->nlinks;
    mo.on_output = on_output;
    if (augur_measure(skel, kernel, bound, &mo, &m, &diag) != 0) {
        rc = cli_diag_error(&diag);
        goto out;
    }
    if (cli_json)
        rc = cli_print_json(result_json(m, ds));
    else {
        print_text(m, ds);
        rc = cli_flush_stdout();
    }
out:
    augur_measurement_free(m);
    augur_free(values);
    augur_bound_free(bound);
    augur_dataset_free(ds);
    augur_skel_free(skel);
    return rc;
}
int cmd_measure(int argc, char **argv)
{
    struct opts o;
    const char *path = NULL;
    int nopt, rc;

    memset(&o, 0, sizeof(o));
    rc = parse_args(argc, argv, &o, &nopt, &path);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    return run(&o, path, nopt < argc ? argc - nopt - 1 : 0, nopt < argc ? argv + nopt + 1 : NULL);
}
