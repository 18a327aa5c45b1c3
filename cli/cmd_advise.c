/*
 * cmd_advise.c - "augur advise": sweeps thread counts and reorderings of the
 * data through the library's prediction (one load of the dataset, one
 * reordered copy and one context per reordering, every thread count a
 * question on it), ranks the configurations by predicted time with the
 * bottleneck and the cache misses saved, says after how many calls a
 * reordering pays for itself, and with --verify K times the best K and the
 * current one to say whether the ranking held (module: cli).
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "augur/measure.h"
#include "cli.h"

#define MAX_CONFIGS   256
#define MAX_VARIANTS  16
#define MAX_SCHEDULES 16
#define MAX_ROUNDS    16
#define MAX_TILES     16

/* The reorderings swept when --reorder is not given (METIS blocks as Langguth et al. sweep them).
 */
static const char default_reorders[] = "none,rcm,metis:64,metis:512,metis:4096,metis:32768";
/* The tile sizes swept for a kernel that runs the tiling schedule when --tile is not given. */
static const char default_tiles[] = "128,256,512,1024,2048,4096,8192";
/* The schedules swept besides the source's when --schedule is not given. */
static const char default_schedules[] = "static,dynamic,64,guided";

void cmd_advise_help(FILE *fp)
{
    fprintf(fp,
            "usage: augur advise [OPTIONS] FILE.c|FILE.skel --data DATASET [-- COMPILER_ARGS...]\n"
            "\n"
            "Answers how many OpenMP threads to run a kernel with on a dataset and a\n"
            "machine, and whether to renumber the data first (for a kernel that runs the\n"
            "tiled-and-grouped schedule, at which tile size): predicts every thread count\n"
            "on every reordering of the sweep (one load of the data, one prediction each,\n"
            "as augur predict makes it), ranks them by predicted time with the speed-up\n"
            "over the current configuration (the data as it is, the first count), the\n"
            "bottleneck and the cache misses a reordering saves, and says after how many\n"
            "calls a reordering pays for its own cost; with two METIS block sizes or\n"
            "more, the bottleneck by block size per count (the plateaus). With --verify K\n"
            "it times the K best and the current configuration on this machine to say\n"
            "whether the ranking held.\n"
            "\n"
            "options:\n"
            "  --data FILE       the dataset (Matrix Market, edge list, mesh, ...); required\n"
            "  --function NAME   the kernel (needed when the file has several)\n"
            "  --bind LIST       bindings NAME=TARGET,... (csr.rowptr, ell.idx, vec(n), n=100)\n"
            "  --template LIST   a template kernel's parameters (CUDA or C++) NAME=TYPE or\n"
            "                    NAME=VALUE,... (type parameters default to float)\n"
            "  --no-shim         CUDA: parse without augur's declarations of the CUDA API\n"
            "                    (the file brings its own; docs/skeleton.md)\n"
            "  -p, --compile-commands PATH\n"
            "                    the file's flags from compile_commands.json (the file, or\n"
            "                    its folder)\n"
            "  --machine FILE    machine file, or 'auto' (the default, else $AUGUR_MACHINE):\n"
            "                    this host, calibrated once and cached\n"
            "  --threads LIST    the thread counts to try: 1,2,4 or 1-8 or both (default:\n"
            "                    1 to the machine's hardware threads, at most 64)\n"
            "  --schedule LIST   OpenMP schedules to try on the worksharing loops besides\n"
            "                    the source's, as OMP_SCHEDULE spells them: static,\n"
            "                    dynamic,64, guided,8, ... (a number after a kind is its\n"
            "                    chunk; default static,dynamic,64,guided; 'source' alone:\n"
            "                    the source's only); one thread runs the source's\n"
            "  --reorder LIST    the renumberings of the data to try, as augur data reorder\n"
            "                    makes them: none, rcm, metis:B (default: none, rcm and\n"
            "                    metis:64,512,4096,32768 below the row count, for square\n"
            "                    data; none for other data)\n"
            "  --tile LIST       a kernel that runs the tiled-and-grouped schedule (binds\n"
            "                    tiling.* targets): the tile sizes to try (default\n"
            "                    128,256,...,8192; --tile-size T: the current one, else\n"
            "                    the first); its reorderings default to none\n"
            "  --source V        the BFS source node, or 'maxdeg' (default 0); a reordered\n"
            "                    graph starts from the same node under its new number\n"
            "  --ell-width W     ELLPACK width (default: the largest row degree)\n"
            "  --stored-only     symmetric data: the stored triangle only (default: both)\n"
            "  --verify K        time the K best configurations and the current one (augur\n"
            "                    measure) and compare the rankings (machine files of this\n"
            "                    host only)\n"
            "  --reps N          --verify: repetitions per configuration (default 10)\n"
            "  --rounds R        --verify: time the configurations in R interleaved rounds\n"
            "                    of REPS/R repetitions each (default 3), and say how well\n"
            "                    the measured order repeats from one round to the next\n"
            "  --json            the result as JSON\n" CLI_LOAD_HELP
            "  --quiet           no progress line (drawn on a terminal for a long simulation)\n"
            "  -h, --help        print this help\n"
            "\n"
            "Arguments after \"--\" go to the compiler. docs/cli/advise.md has examples.\n");
}

struct opts {
    struct cli_kernel_args k;
    const char *threads, *reorder, *schedule, *tiles;
    unsigned verify, reps, rounds;
    struct augur_load_opts load;
};

/* One renumbering of the data: its copy, the context on it, what it cost. */
struct variant {
    struct augur_reorder how;
    char name[32];
    struct augur_dataset *ds; /* NULL for none: the loaded dataset */
    uint32_t *order;          /* order[new] = original row; NULL for none */
    struct augur_reorder_info info;
    struct augur_predict_ctx *ctx;
};

/* A schedule of the sweep: the source's (given false), or one every worksharing loop runs. */
struct schedule {
    bool given;
    enum augur_sched kind;
    uint64_t chunk;
    char name[40];
};

/* One configuration: what augur predicts for it, what --verify measured. */
struct config {
    unsigned variant, sched, threads, tile;
    unsigned effort; /* what the user must do for it: its reordering's kind, then schedule */
    double predicted;
    char bottleneck[64];
    double misses[AUGUR_WORK_MAX_LEVELS]; /* per call, requests that went past cache i */
    double busiest_share;
    double simd_util, avg_mimd; /* of the tiling schedule (a tiled kernel) */
    bool measured;
    double seconds;             /* the measured median, over every round's repetitions */
    double round_s[MAX_ROUNDS]; /* each round's median */
    double *times;              /* every round's repetitions */
    size_t ntimes;
};

/* What advise loaded and swept; freed together. */
struct job {
    struct augur_skel *skel;
    const struct augur_node *kernel;
    struct augur_dataset *ds;
    struct augur_machine *m;
    char mpath[PATH_MAX];
    struct variant var[MAX_VARIANTS];
    unsigned nvar;
    struct schedule sched[MAX_SCHEDULES]; /* sched[0]: the source's */
    unsigned nsched;
    uint32_t tiles[MAX_TILES]; /* a tiled kernel's tile sizes (ntiles 0: not a tiled kernel) */
    unsigned ntiles;
    char why_not_reordered[96]; /* the default sweep left reorderings out: why */
    unsigned nlevels;
    char level_name[AUGUR_WORK_MAX_LEVELS][16];
    struct config cfg[MAX_CONFIGS];
    unsigned n;
    unsigned counts[MAX_CONFIGS], ncounts; /* the sweep's thread counts, as given */
    unsigned current; /* index in cfg of the current configuration (after ranking) */
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

/*
 * The reorderings of list into j->var (distinct, in the order given). The
 * default list keeps what fits the data: square data, B below the rows.
 */
static int parse_reorders(const char *list, bool given, struct job *j)
{
    const struct augur_coo *c = &j->ds->coo;
    char item[64];
    const char *p = list;

    j->nvar = 0;
    if (!given && c->nrows != c->ncols) {
        snprintf(j->why_not_reordered, sizeof(j->why_not_reordered),
                 "a %u x %u matrix is not renumbered", c->nrows, c->ncols);
        list = p = "none";
    }
    while (*p) {
        size_t len = strcspn(p, ",");
        struct augur_reorder how;
        struct augur_diag diag;
        bool dup = false;

        augur_diag_init(&diag);
        if (len == 0 || len >= sizeof(item))
            return cli_usage_error("advise",
                                   "--reorder needs methods such as none,rcm,metis:512, "
                                   "not '%s'",
                                   list);
        memcpy(item, p, len);
        item[len] = '\0';
        if (augur_reorder_parse(item, &how, &diag) != 0)
            return cli_usage_error("advise", "--reorder: %s", diag.msg);
        p += len + (p[len] == ',');
        if (!given && how.method == AUGUR_REORDER_METIS && how.block >= c->nrows)
            continue;
        for (unsigned v = 0; v < j->nvar; v++)
            dup |= j->var[v].how.method == how.method && j->var[v].how.block == how.block;
        if (dup)
            continue;
        if (j->nvar == MAX_VARIANTS)
            return cli_usage_error("advise", "--reorder: at most %d methods", MAX_VARIANTS);
        j->var[j->nvar].how = how;
        augur_reorder_format(&how, j->var[j->nvar].name, sizeof(j->var[j->nvar].name));
        j->nvar++;
    }
    if (list[strlen(list) - 1] == ',')
        return cli_usage_error("advise", "--reorder: an empty method in '%s'", list);
    return CLI_OK;
}

/*
 * The schedules of list into j->sched after the source's: kinds, each with
 * the number after it as its chunk ("static,dynamic,64,guided"); "source"
 * names the source's own. A kernel without worksharing loops sweeps none.
 */
static int parse_schedules(const char *list, bool given, struct job *j)
{
    const char *p = list;

    j->nsched = 1;
    snprintf(j->sched[0].name, sizeof(j->sched[0].name), "source");
    if (augur_sched_nloops(j->kernel) == 0) {
        if (given)
            return cli_error("--schedule: kernel '%s' has no OpenMP worksharing loop",
                             j->kernel->u.kernel.name);
        return CLI_OK;
    }
    while (*p) {
        size_t len = strcspn(p, ",");
        struct schedule *sc = &j->sched[j->nsched];
        char item[48];
        struct augur_diag diag;

        augur_diag_init(&diag);
        if (len == 0 || len >= 24)
            return cli_usage_error("advise",
                                   "--schedule needs schedules such as "
                                   "static,dynamic,64,guided, not '%s'",
                                   list);
        /* a number after the kind is its chunk */
        if (p[len] == ',' && p[len + 1] >= '0' && p[len + 1] <= '9')
            len += 1 + strcspn(p + len + 1, ",");
        if (len >= sizeof(item))
            return cli_usage_error("advise", "--schedule: '%.*s' is too long", (int)len, p);
        memcpy(item, p, len);
        item[len] = '\0';
        p += len + (p[len] == ',');
        if (strcmp(item, "source") == 0)
            continue;
        if (j->nsched == MAX_SCHEDULES)
            return cli_usage_error("advise", "--schedule: at most %d schedules", MAX_SCHEDULES - 1);
        if (augur_sched_parse(item, &sc->kind, &sc->chunk, &diag) != 0)
            return cli_usage_error("advise", "--schedule: %s", diag.msg);
        sc->given = true;
        augur_sched_format(sc->kind, sc->chunk, sc->name, sizeof(sc->name));
        j->nsched++;
    }
    if (list[strlen(list) - 1] == ',')
        return cli_usage_error("advise", "--schedule: an empty item in '%s'", list);
    return CLI_OK;
}

/* One of advise's own options: CLI_OK, -1 after --help, or an exit status. */
/* "256,1024,4096" into j->tiles (distinct, in the order given); an exit status on error. */
static int parse_tiles(const char *list, struct job *j)
{
    const char *p = list;

    j->ntiles = 0;
    while (*p) {
        char item[24];
        size_t len = strcspn(p, ",");
        uint64_t v;
        bool seen = false;

        if (len == 0 || len >= sizeof(item))
            return cli_usage_error("advise", "--tile needs tile sizes such as 256,1024, not '%s'",
                                   list);
        memcpy(item, p, len);
        item[len] = '\0';
        if (cli_parse_u64("advise", "--tile", item, 1, UINT32_MAX, &v))
            return CLI_USAGE;
        for (unsigned k = 0; k < j->ntiles; k++)
            seen |= j->tiles[k] == v;
        if (!seen && j->ntiles == MAX_TILES)
            return cli_usage_error("advise", "--tile: at most %d tile sizes", MAX_TILES);
        if (!seen)
            j->tiles[j->ntiles++] = (uint32_t)v;
        p += len + (p[len] == ',');
        if (p[-1] == ',' && !*p)
            return cli_usage_error("advise", "--tile ends with a comma: '%s'", list);
    }
    return CLI_OK;
}

static int advise_option(struct opts *o, int opt, const char *arg, const char *given)
{
    uint64_t v;

    switch (opt) {
    case 't':
        o->threads = arg;
        break;
    case 's':
        if (!*arg)
            return cli_usage_error("advise",
                                   "--schedule needs schedules such as static,dynamic,64");
        o->schedule = arg;
        break;
    case 'r':
        if (!*arg)
            return cli_usage_error("advise", "--reorder needs methods such as none,rcm,metis:512");
        o->reorder = arg;
        break;
    case 'T':
        if (!*arg)
            return cli_usage_error("advise", "--tile needs tile sizes such as 256,1024,4096");
        o->tiles = arg;
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
    case 'R':
        if (cli_parse_u64("advise", "--rounds", arg, 1, MAX_ROUNDS, &v))
            return CLI_USAGE;
        o->rounds = (unsigned)v;
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
        { "reorder", required_argument, NULL, 'r' },
        { "schedule", required_argument, NULL, 's' },
        { "tile", required_argument, NULL, 'T' },
        { "verify", required_argument, NULL, 'v' },
        { "reps", required_argument, NULL, 'n' },
        { "rounds", required_argument, NULL, 'R' },
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

static int load(struct opts *o, const char *path, int nargs, char **args, struct job *j)
{
    struct cli_kernel_opts ko = { "advise",   o->k.function, o->k.bind, NULL, o->k.compile_commands,
                                  o->k.templ, o->k.no_shim };
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
    if ((rc = cli_machine_host_check(j->m, o->verify > 0)) != 0)
        return rc;
    return cli_load_dataset(o->k.data, &o->load, &j->ds);
}

/* Each reordering's copy of the data and its prediction context. */
static int prepare_variants(struct job *j)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    for (unsigned v = 0; v < j->nvar; v++) {
        struct variant *var = &j->var[v];
        const struct augur_dataset *ds = j->ds;

        if (var->how.method != AUGUR_REORDER_NONE) {
            if (augur_dataset_reorder(j->ds, &var->how, &var->ds, &var->order, &var->info, &diag) !=
                0)
                return cli_diag_error(&diag);
            ds = var->ds;
        }
        if (augur_predict_ctx_new(ds, NULL, NULL, &var->ctx, &diag) != 0)
            return cli_diag_error(&diag);
    }
    return CLI_OK;
}

static void job_free(struct job *j)
{
    for (unsigned v = 0; v < j->nvar; v++) {
        augur_predict_ctx_free(j->var[v].ctx);
        augur_dataset_free(j->var[v].ds);
        augur_free(j->var[v].order);
    }
    for (unsigned i = 0; i < j->n; i++)
        augur_free(j->cfg[i].times);
    augur_dataset_free(j->ds);
    augur_machine_free(j->m);
    augur_skel_free(j->skel);
}

/* The options of one configuration's prediction (and of its timed run). */
static int predict_opts(const struct opts *o, const struct job *j, const struct config *c,
                        struct augur_predict_opts *po)
{
    const struct variant *var = &j->var[c->variant];

    memset(po, 0, sizeof(*po));
    po->threads = c->threads;
    po->sched_given = j->sched[c->sched].given;
    po->sched = j->sched[c->sched].kind;
    po->chunk = j->sched[c->sched].chunk;
    po->bound.stored_only = o->k.stored_only;
    po->bound.ell_width = o->k.ell_width;
    po->tile_size = j->ntiles ? j->tiles[c->tile] : o->k.tile_size;
    po->on_warn = cli_interp_warning;
    po->on_progress = cli_progress_fn();
    /* a kernel with a round parameter is a level-synchronous BFS: one call is all its rounds */
    for (uint32_t i = 0; i < j->kernel->u.kernel.nsyms; i++)
        if (augur_bind_uses_round(j->kernel->u.kernel.syms[i].bind))
            po->rounds = true;
    if (o->k.source && cli_bfs_source("advise", o->k.source, &po->bound))
        return CLI_USAGE;
    /* the source the user named, under its number in the reordered graph */
    if (var->order && !po->bound.bfs_source_maxdeg)
        for (uint32_t k = 0; k < var->ds->coo.nrows; k++)
            if (var->order[k] == po->bound.bfs_source) {
                po->bound.bfs_source = k;
                break;
            }
    return CLI_OK;
}

/* Every configuration predicted on its reordering's context. */
static int sweep(const struct opts *o, struct job *j)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    for (unsigned i = 0; i < j->n; i++) {
        struct config *c = &j->cfg[i];
        struct augur_predict_opts po;
        struct augur_predict_result *r = NULL;
        const struct augur_prediction *p;
        const struct augur_workload *w;
        double calls;

        if (predict_opts(o, j, c, &po))
            return CLI_USAGE;
        if (augur_predict_run(j->var[c->variant].ctx, j->skel, j->kernel, j->m, &po, &r, &diag) !=
            0)
            return cli_diag_error(&diag);
        cli_progress_done();
        p = augur_predict_selected(r);
        w = &r->work;
        c->predicted = p->seconds;
        snprintf(c->bottleneck, sizeof(c->bottleneck), "%s", p->bottleneck ? p->bottleneck : "-");
        calls = w->calls > 0 ? w->calls : 1;
        j->nlevels = w->nlevels;
        for (unsigned l = 0; l < w->nlevels; l++) {
            snprintf(j->level_name[l], sizeof(j->level_name[l]), "%s", w->level_name[l]);
            c->misses[l] = 0;
            for (unsigned k = l + 1; k <= w->nlevels; k++)
                c->misses[l] += w->total.served[k] / calls;
        }
        c->busiest_share = w->busiest_share;
        c->simd_util = r->tiling.simd_util;
        c->avg_mimd = r->tiling.avg_mimd;
        augur_predict_result_free(r);
    }
    return CLI_OK;
}

/*
 * By predicted time; equal predictions (the model sees no difference, as
 * when every configuration's counts are the same) by the effort they ask
 * of the user, then by fewer threads: the simpler configuration first.
 */
static int by_predicted(const void *a, const void *b)
{
    const struct config *x = a, *y = b;

    if (x->predicted != y->predicted)
        return x->predicted < y->predicted ? -1 : 1;
    if (x->effort != y->effort)
        return x->effort < y->effort ? -1 : 1;
    return x->threads < y->threads ? -1 : x->threads > y->threads ? 1 : 0;
}

/* The configuration of variant v, schedule s, threads and tile, or NULL when the sweep has none. */
static const struct config *find(const struct job *j, unsigned v, unsigned s, unsigned threads,
                                 unsigned tile)
{
    for (unsigned i = 0; i < j->n; i++)
        if (j->cfg[i].variant == v && j->cfg[i].sched == s && j->cfg[i].threads == threads &&
            j->cfg[i].tile == tile)
            return &j->cfg[i];
    return NULL;
}

/* The variant that leaves the data as it is, or -1. */
static int none_variant(const struct job *j)
{
    for (unsigned v = 0; v < j->nvar; v++)
        if (j->var[v].how.method == AUGUR_REORDER_NONE)
            return (int)v;
    return -1;
}

/* The best-ranked configuration of variant v (v < 0: none), after ranking. */
static const struct config *best_of_variant(const struct job *j, int v)
{
    for (unsigned i = 0; v >= 0 && i < j->n; i++)
        if (j->cfg[i].variant == (unsigned)v)
            return &j->cfg[i];
    return NULL;
}

/* The median of v[0 .. n) (n > 0), sorting v. */
static double median_sorted(double *v, size_t n)
{
    qsort(v, n, sizeof(*v), augur_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Times configuration c once (round r): its repetitions join c->times. */
static int time_once(const struct opts *o, struct job *j, struct config *c, unsigned r, int nargs,
                     char **args, struct augur_diag *diag)
{
    struct augur_predict_opts po;
    struct augur_measure_opts mo;
    struct augur_measurement *meas = NULL;
    struct augur_bound *full = NULL;
    int rc;

    if (predict_opts(o, j, c, &po))
        return CLI_USAGE;
    memset(&mo, 0, sizeof(mo));
    mo.args = (const char *const *)args;
    mo.nargs = nargs > 0 ? (size_t)nargs : 0;
    mo.args_given = args != NULL;
    mo.compile_commands = o->k.compile_commands;
    mo.threads = c->threads;
    mo.sched_given = po.sched_given;
    mo.sched = po.sched;
    mo.chunk = po.chunk;
    mo.reps = (o->reps + o->rounds - 1) / o->rounds;
    mo.min_time = 0.2 / o->rounds;
    mo.no_counts = true;
    rc = augur_predict_bound(j->var[c->variant].ctx, &po, &full, diag);
    if (!rc)
        rc = augur_measure(j->skel, j->kernel, full, &mo, &meas, diag);
    augur_bound_free(full);
    if (rc)
        return cli_diag_error(diag);
    c->times = augur_realloc(c->times, (c->ntimes + meas->reps) * sizeof(*c->times));
    memcpy(c->times + c->ntimes, meas->times, meas->reps * sizeof(*c->times));
    c->ntimes += meas->reps;
    c->round_s[r] = meas->median;
    augur_measurement_free(meas);
    return CLI_OK;
}

/*
 * --verify: the K best and the current configuration, timed on this
 * machine in o->rounds rounds, each timing every one of them once (from a
 * different first one each round), so that a machine that slows down for
 * a minute slows every configuration's round rather than some
 * configurations' whole measurement. A configuration's time is the median
 * of all its repetitions.
 */
static int verify(const struct opts *o, struct job *j, int nargs, char **args)
{
    unsigned sel[MAX_CONFIGS], nsel = 0;
    struct augur_diag diag;
    int rc;

    augur_diag_init(&diag);
    for (unsigned i = 0; i < j->n; i++)
        if (i < o->verify || i == j->current)
            sel[nsel++] = i;
    for (unsigned r = 0; r < o->rounds; r++)
        for (unsigned k = 0; k < nsel; k++) {
            struct config *c = &j->cfg[sel[(k + r) % nsel]];

            if ((rc = time_once(o, j, c, r, nargs, args, &diag)) != CLI_OK)
                return rc;
        }
    for (unsigned k = 0; k < nsel; k++) {
        struct config *c = &j->cfg[sel[k]];

        c->measured = true;
        c->seconds = median_sorted(c->times, c->ntimes);
    }
    return CLI_OK;
}

/*
 * How well the measured order repeats: over every pair of rounds, Kendall's
 * tau of one round's order against the other's (the median over the
 * pairs), and in how many pairs the fastest of one round is within 5 % of
 * the other round's fastest. The ceiling on this host of what any
 * prediction can be shown to reach.
 */
struct repeat {
    double tau;
    unsigned within5, pairs;
};

static struct repeat repeatability(const struct opts *o, const struct job *j)
{
    struct repeat rp = { 0, 0, 0 };
    double taus[MAX_ROUNDS * MAX_ROUNDS];
    unsigned ntaus = 0;

    for (unsigned a = 0; a < o->rounds; a++)
        for (unsigned b = 0; b < o->rounds; b++) {
            const struct config *fa = NULL, *fb = NULL;
            long c = 0, d = 0;

            if (a == b)
                continue;
            for (unsigned x = 0; x < j->n; x++) {
                const struct config *p = &j->cfg[x];

                if (!p->measured)
                    continue;
                if (!fa || p->round_s[a] < fa->round_s[a])
                    fa = p;
                if (!fb || p->round_s[b] < fb->round_s[b])
                    fb = p;
                for (unsigned y = x + 1; a < b && y < j->n; y++) {
                    const struct config *q = &j->cfg[y];
                    double s;

                    if (!q->measured)
                        continue;
                    s = (p->round_s[a] - q->round_s[a]) * (p->round_s[b] - q->round_s[b]);
                    c += s > 0;
                    d += s < 0;
                }
            }
            /* ordered pairs: does a's fastest hold up in b? */
            rp.pairs++;
            rp.within5 += fa && fb && fa->round_s[b] <= 1.05 * fb->round_s[b];
            if (a < b && c + d)
                taus[ntaus++] = (double)(c - d) / (double)(c + d);
        }
    rp.tau = ntaus ? median_sorted(taus, ntaus) : 0;
    return rp;
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

/*
 * Calls after which a reordering's cost is paid back by its predicted gain
 * (or, measured, its measured gain) over the data as it is at the same
 * thread count: 0 when it does not apply (no reordering, nothing to compare
 * with), -1 when it never pays.
 */
static double payoff_calls(const struct job *j, const struct config *c, bool measured)
{
    int none = none_variant(j);
    const struct config *b =
        none >= 0 ? find(j, (unsigned)none, c->sched, c->threads, c->tile) : NULL;
    double gain;

    if (!b || !j->var[c->variant].order || (measured && !(b->measured && c->measured)))
        return 0;
    gain = measured ? b->seconds - c->seconds : b->predicted - c->predicted;
    return gain > 0 ? ceil(j->var[c->variant].info.seconds / gain) : -1;
}

/* One line of reason: the misses a reordering saves, or a team's imbalance. */
static void reason(const struct job *j, const struct config *c, char *buf, size_t size)
{
    int none = none_variant(j);
    const struct config *b =
        none >= 0 ? find(j, (unsigned)none, c->sched, c->threads, c->tile) : NULL;
    size_t len = 0;

    buf[0] = '\0';
    if (j->ntiles && (!b || b == c)) {
        snprintf(buf, size, "SIMD utilization %.2f, %.3g tiles per tile group", c->simd_util,
                 c->avg_mimd);
    } else if (b && b != c) {
        len += (size_t)snprintf(buf, size, "misses vs none:");
        for (unsigned l = 0; l < j->nlevels && len < size; l++)
            len +=
                (size_t)snprintf(buf + len, size - len, " %s %+.0f%%", j->level_name[l],
                                 b->misses[l] > 0 ? 100 * (c->misses[l] / b->misses[l] - 1) : 0.0);
    } else if (c->threads > 1 && c->busiest_share * c->threads > 1.05) {
        snprintf(buf, size, "busiest thread %.0f%% of the accesses", 100 * c->busiest_share);
    }
}

static json_t *config_json(const struct job *j, const struct config *c, const struct config *cur)
{
    json_t *e =
        json_pack("{s:s,s:s,s:i,s:f,s:f,s:s}", "reorder", j->var[c->variant].name, "schedule",
                  j->sched[c->sched].name, "threads", (int)c->threads, "predicted", c->predicted,
                  "speedup", cur->predicted / c->predicted, "bottleneck", c->bottleneck);
    json_t *misses = json_object();
    double calls = payoff_calls(j, c, false), mcalls = payoff_calls(j, c, true);
    char why[160];

    if (j->ntiles) {
        json_object_set_new(e, "tile", json_integer(j->tiles[c->tile]));
        json_object_set_new(e, "simd_util", json_real(c->simd_util));
        json_object_set_new(e, "avg_mimd", json_real(c->avg_mimd));
    }

    for (unsigned l = 0; l < j->nlevels; l++)
        json_object_set_new(misses, j->level_name[l], json_real(c->misses[l]));
    json_object_set_new(e, "misses", misses);
    if (calls != 0)
        json_object_set_new(e, "payoff_calls", calls > 0 ? json_real(calls) : json_null());
    if (mcalls != 0)
        json_object_set_new(e, "payoff_calls_measured",
                            mcalls > 0 ? json_real(mcalls) : json_null());
    reason(j, c, why, sizeof(why));
    if (why[0])
        json_object_set_new(e, "reason", json_string(why));
    if (c->measured)
        json_object_set_new(e, "measured", json_real(c->seconds));
    return e;
}

/*
 * Langguth et al.'s plateaus: the sweep's METIS block sizes at one thread
 * count and the source's schedule, ascending, each with its bottleneck.
 * Returns how many (out holds MAX_VARIANTS).
 */
static unsigned by_block(const struct job *j, unsigned threads, const struct config **out)
{
    unsigned n = 0;

    for (unsigned v = 0; v < j->nvar; v++) {
        const struct config *c;
        unsigned k = n;

        if (j->var[v].how.method != AUGUR_REORDER_METIS ||
            !(c = find(j, v, 0, threads, j->cfg[j->current].tile)))
            continue;
        for (; k > 0 && j->var[out[k - 1]->variant].how.block > j->var[v].how.block; k--)
            out[k] = out[k - 1];
        out[k] = c;
        n++;
    }
    return n;
}

/*
 * "memory latency at 64-512, issue at 4096-32768": the block sizes where
 * the predicted bottleneck stays the same, run by run.
 */
static void print_plateaus(const struct job *j)
{
    bool header = false;

    for (unsigned t = 0; t < j->ncounts; t++) {
        const struct config *b[MAX_VARIANTS];
        unsigned n = by_block(j, j->counts[t], b);

        if (n < 2)
            continue;
        if (!header)
            printf("plateaus (the bottleneck by METIS block size, the source's schedule):\n");
        header = true;
        printf("  %u thread%s:", j->counts[t], j->counts[t] == 1 ? "" : "s");
        for (unsigned i = 0, first = 0; i < n; i++) {
            if (i + 1 < n && strcmp(b[i + 1]->bottleneck, b[first]->bottleneck) == 0)
                continue;
            printf("%s %s at %u", first ? "," : "", b[first]->bottleneck,
                   j->var[b[first]->variant].how.block);
            if (i > first)
                printf("-%u", j->var[b[i]->variant].how.block);
            first = i + 1;
        }
        printf("\n");
    }
}

static json_t *plateaus_json(const struct job *j)
{
    json_t *a = json_array();

    for (unsigned t = 0; t < j->ncounts; t++) {
        const struct config *b[MAX_VARIANTS];
        unsigned n = by_block(j, j->counts[t], b);
        json_t *blocks = json_array();

        for (unsigned i = 0; i < n; i++)
            json_array_append_new(
                blocks, json_pack("{s:i,s:s,s:f}", "block", (int)j->var[b[i]->variant].how.block,
                                  "bottleneck", b[i]->bottleneck, "predicted", b[i]->predicted));
        if (n >= 2)
            json_array_append_new(
                a, json_pack("{s:i,s:o}", "threads", (int)j->counts[t], "blocks", blocks));
        else
            json_decref(blocks);
    }
    return a;
}

/* What names a configuration: its reordering, schedule, threads (and tile size). */
static json_t *config_key(const struct job *j, const struct config *c)
{
    json_t *e = json_pack("{s:s,s:s,s:i}", "reorder", j->var[c->variant].name, "schedule",
                          j->sched[c->sched].name, "threads", (int)c->threads);

    if (j->ntiles)
        json_object_set_new(e, "tile", json_integer(j->tiles[c->tile]));
    return e;
}

static int report_json(const struct opts *o, const struct job *j, const struct config *best_meas,
                       double tau, const struct repeat *rp)
{
    const struct config *cur = &j->cfg[j->current];
    json_t *doc = json_object(), *a = json_array(), *vars = json_array();

    json_object_set_new(doc, "kernel", json_string(j->kernel->u.kernel.name));
    json_object_set_new(doc, "dataset", json_string(j->ds->path));
    json_object_set_new(doc, "machine", json_string(j->m->name));
    json_object_set_new(doc, "machine_file", json_string(j->mpath));
    for (unsigned v = 0; v < j->nvar; v++) {
        const struct variant *var = &j->var[v];
        json_t *e = json_pack("{s:s}", "reorder", var->name);

        if (var->order)
            json_object_set_new(e, "seconds", json_real(var->info.seconds));
        if (var->how.method == AUGUR_REORDER_METIS)
            json_object_set_new(e, "edge_cut", json_integer((json_int_t)var->info.edge_cut));
        json_array_append_new(vars, e);
    }
    json_object_set_new(doc, "reorders", vars);
    if (j->why_not_reordered[0])
        json_object_set_new(doc, "reorders_note", json_string(j->why_not_reordered));
    for (unsigned i = 0; i < j->n; i++)
        json_array_append_new(a, config_json(j, &j->cfg[i], cur));
    json_object_set_new(doc, "ranked", a);
    json_object_set_new(doc, "plateaus", plateaus_json(j));
    json_object_set_new(doc, "pick", config_key(j, &j->cfg[0]));
    json_object_set_new(doc, "current", config_key(j, cur));
    if (o->verify) {
        json_object_set_new(doc, "kendall_tau", json_real(tau));
        json_object_set_new(doc, "pick_measured_speedup",
                            json_real(cur->seconds / j->cfg[0].seconds));
        json_object_set_new(doc, "pick_from_best_measured",
                            json_real(j->cfg[0].seconds / best_meas->seconds - 1));
        json_object_set_new(doc, "rounds", json_integer(o->rounds));
        if (rp->pairs) {
            json_object_set_new(doc, "rounds_kendall_tau", json_real(rp->tau));
            json_object_set_new(doc, "rounds_fastest_within_5",
                                json_real((double)rp->within5 / rp->pairs));
        }
    }
    return cli_print_json(doc);
}

/* "rcm, schedule dynamic,64, 2 threads" (", tile 1024") */
static void config_name(const struct job *j, const struct config *c, char *buf, size_t size)
{
    int len = snprintf(buf, size, "%s, schedule %s, %u thread%s", j->var[c->variant].name,
                       j->sched[c->sched].name, c->threads, c->threads == 1 ? "" : "s");

    if (j->ntiles && len > 0 && (size_t)len < size)
        snprintf(buf + len, size - (size_t)len, ", tile %u", j->tiles[c->tile]);
}

static void report_rows(const struct job *j)
{
    const struct config *cur = &j->cfg[j->current];

    printf("%-5s %-12s %-12s %7s", "rank", "reorder", "schedule", "threads");
    if (j->ntiles)
        printf(" %6s", "tile");
    printf(" %14s %9s %-18s %s\n", "predicted", "speed-up", "bottleneck", "why");
    for (unsigned i = 0; i < j->n; i++) {
        const struct config *c = &j->cfg[i];
        double calls = payoff_calls(j, c, false), mcalls = payoff_calls(j, c, true);
        char why[160];

        reason(j, c, why, sizeof(why));
        printf("%-5u %-12s %-12s %7u", i + 1, j->var[c->variant].name, j->sched[c->sched].name,
               c->threads);
        if (j->ntiles)
            printf(" %6u", j->tiles[c->tile]);
        printf(" %12.4g s %8.2fx %-18s %s", c->predicted, cur->predicted / c->predicted,
               c->bottleneck, why);
        if (calls > 0)
            printf("; pays off after %.0f call%s", calls, calls == 1 ? "" : "s");
        if (c->measured)
            printf("\n%-5s measured %.4g s, %.2fx", "", c->seconds, cur->seconds / c->seconds);
        if (mcalls != 0)
            printf(mcalls > 0 ? "; pays off after %.0f calls" : "; never pays off", mcalls);
        printf("\n");
    }
}

static int report(const struct opts *o, const struct job *j)
{
    const struct config *cur = &j->cfg[j->current], *best_meas = NULL;
    unsigned pairs = 0;
    double tau = kendall_tau(j, &pairs);
    char pick[96], cur_name[96], best_name[96];
    struct repeat rp = { 0, 0, 0 };

    for (unsigned i = 0; i < j->n; i++)
        if (j->cfg[i].measured && (!best_meas || j->cfg[i].seconds < best_meas->seconds))
            best_meas = &j->cfg[i];
    if (o->verify)
        rp = repeatability(o, j);
    if (cli_json)
        return report_json(o, j, best_meas, tau, &rp);
    printf("kernel %s on %s, machine %s (%s)\n", j->kernel->u.kernel.name, j->ds->path, j->m->name,
           j->mpath);
    for (unsigned v = 0; v < j->nvar; v++)
        if (j->var[v].order)
            printf("reorder %s: %.4g s once\n", j->var[v].name, j->var[v].info.seconds);
    if (j->why_not_reordered[0])
        printf("reorderings: %s\n", j->why_not_reordered);
    printf("\n");
    report_rows(j);
    config_name(j, &j->cfg[0], pick, sizeof(pick));
    config_name(j, cur, cur_name, sizeof(cur_name));
    printf("\nadvice: %s (predicted %.2fx the current %s)\n", pick,
           cur->predicted / j->cfg[0].predicted, cur_name);
    if (j->var[j->cfg[0].variant].order) {
        const struct config *plain = best_of_variant(j, none_variant(j));

        if (plain) {
            config_name(j, plain, best_name, sizeof(best_name));
            printf("without reordering: %s (%.2fx; the pick is %.1f %% faster, and its "
                   "reordering costs %.4g s once)\n",
                   best_name, cur->predicted / plain->predicted,
                   100 * (plain->predicted / j->cfg[0].predicted - 1),
                   j->var[j->cfg[0].variant].info.seconds);
        }
    }
    print_plateaus(j);
    if (o->verify) {
        config_name(j, best_meas, best_name, sizeof(best_name));
        printf("verified: the pick runs %.2fx the current time, %.1f %% from the fastest "
               "measured (%s); Kendall's tau of the rankings %.2f over %u pairs\n",
               cur->seconds / j->cfg[0].seconds, 100 * (j->cfg[0].seconds / best_meas->seconds - 1),
               best_name, tau, pairs);
        if (rp.pairs)
            printf("repeatability: %u interleaved rounds; the measured order of one round against "
                   "another's, Kendall's tau %.2f (median); the fastest of one round within 5 %% "
                   "of another's fastest in %u of %u\n",
                   o->rounds, rp.tau, rp.within5, rp.pairs);
    }
    return cli_flush_stdout();
}

/*
 * A tiled kernel's tile sizes (--tile, else the defaults), the current one
 * (--tile-size) first; a sweep of tile sizes for another kernel is a usage
 * error.
 */
static int configure_tiles(const struct opts *o, struct job *j)
{
    int rc;

    if (!augur_kernel_runs_tiling(j->kernel)) {
        if (o->tiles)
            return cli_usage_error("advise",
                                   "--tile sweeps a kernel that runs the tiled-and-grouped "
                                   "schedule (binds tiling.* targets); '%s' binds none",
                                   j->kernel->u.kernel.name);
        return CLI_OK;
    }
    if ((rc = parse_tiles(o->tiles ? o->tiles : default_tiles, j)) != 0)
        return rc;
    if (o->k.tile_size) {
        unsigned k = 0;

        while (k < j->ntiles && j->tiles[k] != o->k.tile_size)
            k++;
        if (k == j->ntiles && j->ntiles == MAX_TILES)
            return cli_usage_error("advise", "--tile: at most %d tile sizes", MAX_TILES);
        if (k == j->ntiles)
            j->ntiles++;
        memmove(j->tiles + 1, j->tiles, k * sizeof(j->tiles[0]));
        j->tiles[0] = o->k.tile_size;
    }
    return CLI_OK;
}

/*
 * The configurations: every reordering at every count (and tile size); the
 * current one is none (or the first) at the first count and the first tile
 * size.
 */
static int configure(const struct opts *o, struct job *j)
{
    unsigned hw, ntiles;
    char buf[32];
    int rc, none;
    const char *reorders = o->reorder ? o->reorder : default_reorders;

    hw = j->m->cores * (j->m->threads_per_core ? j->m->threads_per_core : 1);
    snprintf(buf, sizeof(buf), "1-%u", hw < 64 ? hw : 64);
    if ((rc = configure_tiles(o, j)) != 0)
        return rc;
    if (j->ntiles && !o->reorder) {
        reorders = "none";
        snprintf(j->why_not_reordered, sizeof(j->why_not_reordered),
                 "none: the tiling is the kernel's locality (--reorder sweeps them too)");
    }
    if ((rc = parse_threads(o->threads ? o->threads : buf, hw, j->counts, &j->ncounts)) != 0 ||
        (rc = parse_reorders(reorders, o->reorder != NULL || j->ntiles, j)) != 0 ||
        (rc = parse_schedules(o->schedule ? o->schedule : default_schedules, o->schedule != NULL,
                              j)) != 0)
        return rc;
    ntiles = j->ntiles ? j->ntiles : 1;
    if ((size_t)j->ncounts * j->nvar * j->nsched * ntiles > MAX_CONFIGS)
        return cli_usage_error("advise",
                               "%u thread counts x %u reorderings x %u schedules x %u tile "
                               "sizes: more than %d configurations",
                               j->ncounts, j->nvar, j->nsched, ntiles, MAX_CONFIGS);
    none = none_variant(j);
    j->n = 0;
    j->current = 0;
    for (unsigned v = 0; v < j->nvar; v++)
        for (unsigned t = 0; t < j->ncounts; t++)
            for (unsigned sc = 0; sc < j->nsched; sc++)
                for (unsigned ti = 0; ti < ntiles; ti++) {
                    struct config *c = &j->cfg[j->n];

                    /* one thread: a schedule deals nothing out; the source's alone */
                    if (sc > 0 && j->counts[t] == 1)
                        continue;
                    if (v == (unsigned)none && t == 0 && sc == 0 && ti == 0)
                        j->current = j->n;
                    c->variant = v;
                    c->sched = sc;
                    c->tile = ti;
                    /* none, rcm, metis; then the source's schedule before another */
                    c->effort = 2 * (unsigned)j->var[v].how.method + (sc > 0);
                    c->threads = j->counts[t];
                    j->n++;
                }
    return CLI_OK;
}

int cmd_advise(int argc, char **argv)
{
    static struct job j; /* the configurations: too large for the stack of a thread */
    struct opts o;
    const char *path = NULL;
    int nopt, rc, nargs;
    char **args;
    struct config current;

    memset(&o, 0, sizeof(o));
    memset(&j, 0, sizeof(j));
    rc = parse_args(argc, argv, &o, &nopt, &path);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if ((o.reps || o.rounds) && !o.verify)
        return cli_usage_error("advise",
                               "--reps and --rounds time configurations: give --verify K");
    o.reps = o.reps ? o.reps : 10;
    o.rounds = o.rounds ? o.rounds : 3;
    nargs = nopt < argc ? argc - nopt - 1 : 0;
    args = nopt < argc ? argv + nopt + 1 : NULL;
    if ((rc = load(&o, path, nargs, args, &j)) != 0 || (rc = configure(&o, &j)) != 0 ||
        (rc = prepare_variants(&j)) != 0 || (rc = sweep(&o, &j)) != 0)
        goto out;
    current = j.cfg[j.current];
    qsort(j.cfg, j.n, sizeof(j.cfg[0]), by_predicted);
    j.current =
        (unsigned)(find(&j, current.variant, current.sched, current.threads, current.tile) - j.cfg);
    if (o.verify && (rc = verify(&o, &j, nargs, args)) != 0)
        goto out;
    rc = report(&o, &j);
out:
    job_free(&j);
    return rc;
}
