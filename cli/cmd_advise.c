/*
 * cmd_advise.c - "augur advise": sweeps the thread count through the library's
 * prediction (one dataset load, one context for every question), ranks the
 * configurations by predicted time with the bottleneck of each, and with
 * --verify K times the best K and the first one to say whether the ranking
 * held (module: cli).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "augur/measure.h"
#include "cli.h"

#define MAX_CONFIGS 256

void cmd_advise_help(FILE *fp)
{
    fprintf(fp,
            "usage: augur advise [OPTIONS] FILE.c|FILE.skel --data DATASET [-- COMPILER_ARGS...]\n"
            "\n"
            "Answers how many OpenMP threads to run a kernel with on a dataset and a\n"
            "machine: predicts every thread count of the sweep (one load of the data, one\n"
            "prediction each, as augur predict makes it), ranks them by predicted time with\n"
            "the speed-up over the first count and the bottleneck of each, and with\n"
            "--verify K times the K best and the first count on this machine to say\n"
            "whether the ranking held.\n"
            "\n"
            "options:\n"
            "  --data FILE       the dataset (Matrix Market, edge list, mesh, ...); required\n"
            "  --function NAME   the kernel (needed when the file has several)\n"
            "  --bind LIST       bindings NAME=TARGET,... (csr.rowptr, ell.idx, vec(n), n=100)\n"
            "  -p, --compile-commands PATH\n"
            "                    the file's flags from compile_commands.json (the file, or\n"
            "                    its folder)\n"
            "  --machine FILE    machine file, or 'auto' (the default, else $AUGUR_MACHINE):\n"
            "                    this host, calibrated once and cached\n"
            "  --threads LIST    the thread counts to try: 1,2,4 or 1-8 or both (default:\n"
            "                    1 to the machine's hardware threads, at most 64)\n"
            "  --source V        the BFS source node, or 'maxdeg' (default 0)\n"
            "  --ell-width W     ELLPACK width (default: the largest row degree)\n"
            "  --stored-only     symmetric data: the stored triangle only (default: both)\n"
            "  --verify K        time the K best counts and the first one (augur measure) and\n"
            "                    compare the rankings (machine files of this host only)\n"
            "  --reps N          --verify: repetitions per count (default 10)\n"
            "  --json            the result as JSON\n" CLI_LOAD_HELP
            "  --quiet           no progress line (drawn on a terminal for a long simulation)\n"
            "  -h, --help        print this help\n"
            "\n"
            "Arguments after \"--\" go to the compiler. docs/cli/advise.md has examples.\n");
}

struct opts {
    struct cli_kernel_args k;
    const char *threads;
    unsigned verify, reps;
    struct augur_load_opts load;
};

/* One configuration: its thread count, what augur predicts, what --verify measured. */
struct config {
    unsigned threads;
    double predicted;
    char bottleneck[64];
    bool measured;
    double seconds; /* the measured median */
};

/* "1,2,4", "1-8" or both into counts (ascending, distinct); an exit status on error. */
static int parse_threads(const char *list, unsigned hw, unsigned *counts, unsigned *n)
{
    bool seen[MAX_CONFIGS + 1] = { false };
    const char *p = list;

    while (*p) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;

        if (end == p)
            break;
        if (*end == '-') {
            p = end + 1;
            hi = strtoul(p, &end, 10);
            if (end == p)
                break;
        }
        if (lo < 1 || hi < lo || hi > MAX_CONFIGS)
            return cli_usage_error("advise", "--threads: counts from 1 to %d, not '%s'",
                                   MAX_CONFIGS, list);
        for (unsigned long t = lo; t <= hi; t++)
            seen[t] = true;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            break;
        if (!*p)
            goto done;
    }
    if (*p || p == list)
        return cli_usage_error("advise", "--threads needs counts such as 1,2,4 or 1-8, not '%s'",
                               list);
done:
    *n = 0;
    for (unsigned t = 1; t <= MAX_CONFIGS; t++)
        if (seen[t]) {
            if (t > hw)
                return cli_error("--threads %u: the machine runs %u thread%s", t, hw,
                                 hw == 1 ? "" : "s");
            counts[(*n)++] = t;
        }
    return CLI_OK;
}

/* One of advise's own options: CLI_OK, -1 after --help, or an exit status. */
static int advise_option(struct opts *o, int opt, const char *arg, const char *given)
{
    uint64_t v;

    switch (opt) {
    case 't':
        o->threads = arg;
        break;
    case 'v':
        if (cli_parse_u64("advise", "--verify", arg, 1, MAX_CONFIGS, &v))
            return CLI_USAGE;
        o->verify = (unsigned)v;
        break;
    case 'n':
        if (cli_parse_u64("advise", "--reps", arg, 1, 1000000, &v))
            return CLI_USAGE;
        o->reps = (unsigned)v;
        break;
    case 'j':
        cli_json = true;
        break;
    case 'h':
        cmd_advise_help(stdout);
        return -1;
    default:
        return cli_usage_error("advise", "unknown or incomplete option '%s'", given);
    }
    return CLI_OK;
}

static int parse_args(int argc, char **argv, struct opts *o, int *nopt, const char **path)
{
    static const struct option longopts[] = {
        CLI_KERNEL_LONGOPTS,
        { "threads", required_argument, NULL, 't' },
        { "verify", required_argument, NULL, 'v' },
        { "reps", required_argument, NULL, 'n' },
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
        int used = cli_load_option("advise", opt, optarg, &o->load);

        if (!used)
            used = cli_kernel_option("advise", opt, optarg, &o->k);
        if (used == CLI_USAGE)
            return CLI_USAGE;
        if (used)
            continue;
        rc = advise_option(o, opt, optarg, argv[optind - 1]);
        if (rc != CLI_OK)
            return rc;
    }
    if (optind >= *nopt)
        return cli_usage_error("advise", "missing the kernel file (FILE.c or FILE.skel)");
    if (optind + 1 < *nopt)
        return cli_usage_error("advise", "one kernel file at a time ('%s' is extra)",
                               argv[optind + 1]);
    if (!o->k.data)
        return cli_usage_error("advise", "missing --data DATASET");
    *path = argv[optind];
    return CLI_OK;
}

/* What advise loaded; freed together. */
struct job {
    struct augur_skel *skel;
    const struct augur_node *kernel;
    struct augur_dataset *ds;
    struct augur_machine *m;
    struct augur_predict_ctx *ctx;
    char mpath[PATH_MAX];
    struct config cfg[MAX_CONFIGS];
    unsigned n;
};

static int load(struct opts *o, const char *path, int nargs, char **args, struct job *j)
{
    struct cli_kernel_opts ko = { "advise", o->k.function, o->k.bind, NULL, o->k.compile_commands };
    struct augur_diag diag;
    int rc;

    augur_diag_init(&diag);
    if ((rc = cli_load_kernel(&ko, path, nargs, args, &j->skel, &j->kernel)) != 0)
        return rc;
    if (j->kernel->u.kernel.cuda)
        return cli_error("kernel '%s' is CUDA: advise sweeps OpenMP threads, and a CUDA kernel "
                         "runs on the machine's SMs",
                         j->kernel->u.kernel.name);
    if (!cli_find_machine(o->k.machine, j->mpath, sizeof(j->mpath)))
        return cli_error("no machine file: give --machine FILE or set AUGUR_MACHINE");
    if (augur_machine_load(j->mpath, &j->m, &diag) != 0)
        return cli_diag_error(&diag);
    if ((rc = cli_machine_host_check(j->m, o->verify > 0)) != 0 ||
        (rc = cli_load_dataset(o->k.data, &o->load, &j->ds)) != 0)
        return rc;
    if (augur_predict_ctx_new(j->ds, NULL, NULL, &j->ctx, &diag) != 0)
        return cli_diag_error(&diag);
    return CLI_OK;
}

static void job_free(struct job *j)
{
    augur_predict_ctx_free(j->ctx);
    augur_dataset_free(j->ds);
    augur_machine_free(j->m);
    augur_skel_free(j->skel);
}

static void predict_opts(const struct opts *o, const struct job *j, unsigned threads,
                         struct augur_predict_opts *po)
{
    memset(po, 0, sizeof(*po));
    po->threads = threads;
    po->bound.stored_only = o->k.stored_only;
    po->bound.ell_width = o->k.ell_width;
    po->on_warn = cli_interp_warning;
    po->on_progress = cli_progress_fn();
    /* a kernel with a round parameter is a level-synchronous BFS: one call is all its rounds */
    for (uint32_t i = 0; i < j->kernel->u.kernel.nsyms; i++)
        if (augur_bind_uses_round(j->kernel->u.kernel.syms[i].bind))
            po->rounds = true;
}

/* Every configuration predicted on the one context. */
static int sweep(const struct opts *o, struct job *j)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    for (unsigned i = 0; i < j->n; i++) {
        struct augur_predict_opts po;
        struct augur_predict_result *r = NULL;
        const struct augur_prediction *p;

        predict_opts(o, j, j->cfg[i].threads, &po);
        if (o->k.source && cli_bfs_source("advise", o->k.source, &po.bound))
            return CLI_USAGE;
        if (augur_predict_run(j->ctx, j->skel, j->kernel, j->m, &po, &r, &diag) != 0)
            return cli_diag_error(&diag);
        cli_progress_done();
        p = augur_predict_selected(r);
        j->cfg[i].predicted = p->seconds;
        snprintf(j->cfg[i].bottleneck, sizeof(j->cfg[i].bottleneck), "%s",
                 p->bottleneck ? p->bottleneck : "-");
        augur_predict_result_free(r);
    }
    return CLI_OK;
}

static int by_predicted(const void *a, const void *b)
{
    const struct config *x = a, *y = b;

    return x->predicted < y->predicted ? -1 : x->predicted > y->predicted ? 1 : 0;
}

/* --verify: the K best and the first count, timed on this machine. */
static int verify(const struct opts *o, struct job *j, int nargs, char **args,
                  unsigned first_threads)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    for (unsigned i = 0; i < j->n; i++) {
        struct augur_predict_opts po;
        struct augur_measure_opts mo;
        struct augur_measurement *meas = NULL;
        struct augur_bound *full = NULL;
        int rc;

        if (i >= o->verify && j->cfg[i].threads != first_threads)
            continue;
        predict_opts(o, j, j->cfg[i].threads, &po);
        if (o->k.source && cli_bfs_source("advise", o->k.source, &po.bound))
            return CLI_USAGE;
        memset(&mo, 0, sizeof(mo));
        mo.args = (const char *const *)args;
        mo.nargs = nargs > 0 ? (size_t)nargs : 0;
        mo.args_given = args != NULL;
        mo.compile_commands = o->k.compile_commands;
        mo.threads = j->cfg[i].threads;
        mo.reps = o->reps;
        mo.no_counts = true;
        rc = augur_predict_bound(j->ctx, &po, &full, &diag);
        if (!rc)
            rc = augur_measure(j->skel, j->kernel, full, &mo, &meas, &diag);
        augur_bound_free(full);
        if (rc)
            return cli_diag_error(&diag);
        j->cfg[i].measured = true;
        j->cfg[i].seconds = meas->median;
        augur_measurement_free(meas);
    }
    return CLI_OK;
}

/* Kendall's tau of the predicted against the measured order, over the measured ones. */
static double kendall_tau(const struct job *j, unsigned *pairs)
{
    long c = 0, d = 0;

    for (unsigned a = 0; a < j->n; a++)
        for (unsigned b = a + 1; b < j->n; b++) {
            const struct config *x = &j->cfg[a], *y = &j->cfg[b];
            double s;

            if (!x->measured || !y->measured)
                continue;
            s = (x->predicted - y->predicted) * (x->seconds - y->seconds);
            c += s > 0;
            d += s < 0;
        }
    *pairs = (unsigned)(c + d);
    return c + d ? (double)(c - d) / (double)(c + d) : 0;
}

static const struct config *find(const struct job *j, unsigned threads)
{
    for (unsigned i = 0; i < j->n; i++)
        if (j->cfg[i].threads == threads)
            return &j->cfg[i];
    return NULL;
}

static int report(const struct opts *o, const struct job *j, unsigned first_threads)
{
    const struct config *base = find(j, first_threads), *best_meas = NULL;
    unsigned pairs = 0;
    double tau = kendall_tau(j, &pairs);

    for (unsigned i = 0; i < j->n; i++)
        if (j->cfg[i].measured && (!best_meas || j->cfg[i].seconds < best_meas->seconds))
            best_meas = &j->cfg[i];
    if (cli_json) {
        json_t *doc = json_object(), *a = json_array();

        json_object_set_new(doc, "kernel", json_string(j->kernel->u.kernel.name));
        json_object_set_new(doc, "dataset", json_string(j->ds->path));
        json_object_set_new(doc, "machine", json_string(j->m->name));
        json_object_set_new(doc, "machine_file", json_string(j->mpath));
        for (unsigned i = 0; i < j->n; i++) {
            const struct config *c = &j->cfg[i];
            json_t *e = json_pack("{s:i,s:f,s:f,s:s}", "threads", (int)c->threads, "predicted",
                                  c->predicted, "speedup", base->predicted / c->predicted,
                                  "bottleneck", c->bottleneck);

            if (c->measured)
                json_object_set_new(e, "measured", json_real(c->seconds));
            json_array_append_new(a, e);
        }
        json_object_set_new(doc, "ranked", a);
        json_object_set_new(doc, "pick", json_integer(j->cfg[0].threads));
        if (o->verify) {
            json_object_set_new(doc, "kendall_tau", json_real(tau));
            json_object_set_new(doc, "pick_measured_speedup",
                                json_real(base->seconds / j->cfg[0].seconds));
            json_object_set_new(doc, "pick_from_best_measured",
                                json_real(j->cfg[0].seconds / best_meas->seconds - 1));
        }
        return cli_print_json(doc);
    }
    printf("kernel %s on %s, machine %s (%s)\n\n", j->kernel->u.kernel.name, j->ds->path,
           j->m->name, j->mpath);
    printf("%-5s %8s %14s %9s %-18s%s\n", "rank", "threads", "predicted", "speed-up", "bottleneck",
           o->verify ? "      measured  speed-up" : "");
    for (unsigned i = 0; i < j->n; i++) {
        const struct config *c = &j->cfg[i];

        printf("%-5u %8u %12.4g s %8.2fx %-18s", i + 1, c->threads, c->predicted,
               base->predicted / c->predicted, c->bottleneck);
        if (c->measured)
            printf(" %11.4g s %8.2fx", c->seconds, base->seconds / c->seconds);
        printf("\n");
    }
    printf("\nadvice: %u thread%s (predicted %.2fx the %u-thread time)\n", j->cfg[0].threads,
           j->cfg[0].threads == 1 ? "" : "s", base->predicted / j->cfg[0].predicted, first_threads);
    if (o->verify)
        printf("verified: the pick runs %.2fx the %u-thread time, %.1f %% from the fastest "
               "measured (%u threads); Kendall's tau of the rankings %.2f over %u pairs\n",
               base->seconds / j->cfg[0].seconds, first_threads,
               100 * (j->cfg[0].seconds / best_meas->seconds - 1), best_meas->threads, tau, pairs);
    return cli_flush_stdout();
}

int cmd_advise(int argc, char **argv)
{
    static struct job j; /* the configurations: too large for the stack of a thread */
    struct opts o;
    unsigned counts[MAX_CONFIGS], hw, first;
    const char *path = NULL;
    int nopt, rc;
    char buf[32];

    memset(&o, 0, sizeof(o));
    memset(&j, 0, sizeof(j));
    rc = parse_args(argc, argv, &o, &nopt, &path);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    rc =
        load(&o, path, nopt < argc ? argc - nopt - 1 : 0, nopt < argc ? argv + nopt + 1 : NULL, &j);
    if (rc)
        goto out;
    hw = j.m->cores * (j.m->threads_per_core ? j.m->threads_per_core : 1);
    snprintf(buf, sizeof(buf), "1-%u", hw < 64 ? hw : 64);
    if ((rc = parse_threads(o.threads ? o.threads : buf, hw, counts, &j.n)) != 0)
        goto out;
    for (unsigned i = 0; i < j.n; i++)
        j.cfg[i].threads = counts[i];
    first = counts[0];
    if ((rc = sweep(&o, &j)) != 0)
        goto out;
    qsort(j.cfg, j.n, sizeof(j.cfg[0]), by_predicted);
    if (o.verify && (rc = verify(&o, &j, nopt < argc ? argc - nopt - 1 : 0,
                                 nopt < argc ? argv + nopt + 1 : NULL, first)) != 0)
        goto out;
    rc = report(&o, &j, first);
out:
    job_free(&j);
    return rc;
}
