/*
 * cmd_predict.c - "augur predict", the main job: runs a kernel's skeleton on
 * the (sampled) dataset through the cache simulator, feeds the counts to
 * every model with the machine file, and prints the time per call, the
 * selected estimate and why, the bottleneck and each line's share (module: cli).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/measure.h"
#include "cli.h"

void cmd_predict_help(FILE *fp)
{
    fprintf(
        fp,
        "usage: augur predict [OPTIONS] FILE.c|FILE.cu|FILE.skel --data DATASET [-- "
        "COMPILER_ARGS...]\n"
        "       augur predict --profile PROFILE.json [--machine FILE] [--explain] [--top N]\n"
        "\n"
        "Predicts the time of one call of a kernel on a dataset and a machine: runs the\n"
        "kernel's address and control slice on the (sampled) data through the cache\n"
        "simulator, then the three models (Langguth et al.'s per-level bandwidth, Pai et al.'s\n"
        "operational analysis, Zhu et al.'s SKOPE-style aggregate). Prints every model's\n"
        "time, the selected estimate and why, the bottleneck, and each source line's\n"
        "share of the time.\n"
        "\n"
        "options:\n"
        "  --data FILE       the dataset (Matrix Market, edge list, mesh, ...); required\n"
        "  --function NAME   the kernel (needed when the file has several)\n"
        "  --bind LIST       bindings NAME=TARGET,... (csr.rowptr, ell.idx, vec(n), n=100)\n"
        "  -p, --compile-commands PATH\n"
        "                    the file's flags from compile_commands.json (the file, or\n"
        "                    its folder), as the front end and --measure use them\n"
        "  --machine FILE    machine file, or 'auto' (the default, else $AUGUR_MACHINE):\n"
        "                    this host, calibrated once and cached\n"
        "  --threads T       OpenMP threads (default 1)\n"
        "  --schedule KIND[,CHUNK]\n"
        "                    run every OpenMP worksharing loop with this schedule\n"
        "                    (static, dynamic, guided, auto; e.g. dynamic,64) instead\n"
        "                    of its own: what the kernel would take with it\n"
        "  --sample RATE     simulate a sample of RATE (0 < RATE < 1) of the entries and\n"
        "                    scale the counts up; 'full' runs all the data; 'auto'\n"
        "                    (default): all of it up to --sample-budget entries, above\n"
        "                    it a sample of that many\n"
        "  --sample-budget N --sample auto: the entries simulated whole (default\n"
        "                    4194304)\n"
        "  --method M        the sampler: auto (default: the one the categorizer tree\n"
        "                    picks for the data, sa without a tree), sa, rt, rb or re\n"
        "                    (docs/sampling.md)\n"
        "  --seed S          seed of the sampler and of the random stand-ins (default 0)\n"
        "  --interval K      a sampled prediction's 95 %% interval from K more samples,\n"
        "                    sa, rt and rb in turn (seeds S+1 .. S+K; default 4, at\n"
        "                    most 16; 0: none)\n"
        "  --rounds          a topology-driven BFS: one call is every round until the\n"
        "                    levels stop changing (default for a kernel with a round)\n"
        "  --round R         a topology-driven BFS: one call is round R alone (the levels\n"
        "                    of rounds 1 .. R-1 as the search left them)\n"
        "  --launch G,B      CUDA launch: grid and block sizes, numbers or expressions\n"
        "                    such as '(n + 255) / 256,256' (replaces the kernel's)\n"
        "  --template LIST   a template kernel's parameters (CUDA or C++) NAME=TYPE or\n"
        "                    NAME=VALUE,... (type parameters default to float)\n"
        "  --no-shim         CUDA: parse without augur's declarations of the CUDA API\n"
        "                    (the file brings its own; docs/skeleton.md)\n"
        "  --source V        the BFS source node, or 'maxdeg' (default 0)\n"
        "  --ell-width W     ELLPACK width (default: the largest row degree)\n"
        "  --tile-size T     a tiled-and-grouped kernel at tile size T: the schedule\n"
        "                    its tiling.* bindings run, its SIMD utilization and\n"
        "                    avg_MIMD (docs/tiling.md)\n"
        "  --stored-only     symmetric data: the stored triangle only (default: both)\n"
        "  --cold            count the first call with empty caches (default: a warm\n"
        "                    call, as a timed repetition sees)\n"
        "  --allow-empty     predict even when the kernel did (almost) no work on the\n"
        "                    data (default: an error, as a guard or a loop bound that\n"
        "                    skipped the work makes a meaningless number)\n"
        "  --measure         also run the kernel (augur measure) and print the error\n"
        "  --reps N          --measure: repetitions (default 10)\n"
        "  --link FILE       --measure: also link FILE (a C source, object, archive or\n"
        "                    -lname) for functions the kernel's file only declares\n" CLI_GPU_USE_HELP
            CLI_NCU_HELP "  --explain         print each model's intermediate values\n"
        "  --top N           show the N lines with the largest share (default 10)\n"
        "  --save-profile F  also write the counts the models priced (the profile stage)\n"
        "  --profile F       price a saved profile (augur simulate -o, --save-profile) on\n"
        "                    --machine instead of simulating; the machine's caches must\n"
        "                    be the ones the counts were simulated with\n"
        "  --json            the result as JSON (format augur-prediction)\n"
        "  --report FMT      also render the result as FMT: sarif (SARIF 2.1.0), diag\n"
        "                    (file:line: warning: ... [augur/rule], on stderr), annotate\n"
        "                    (the source with each line's share), html (one page with\n"
        "                    charts) or json; on standard output in place of the text,\n"
        "                    or into -o FILE\n"
        "  -o, --output F    write the --report to F (atomically)\n"
        "  --min-share P     --report: a line's share of the time worth a finding\n"
        "                    (default 0.05)\n"
        "  --fail-above T    exit 1 when the prediction is over T per call: seconds, or\n"
        "                    with a unit (250us, 1.5ms, 2s): a budget for CI\n" CLI_LOAD_HELP
        "  --quiet           no progress line (drawn on a terminal for a long simulation)\n"
        "  -h, --help        print this help\n"
        "\n"
        "Arguments after \"--\" go to the compiler. docs/cli/predict.md has examples.\n");
}

struct opts {
    struct cli_kernel_args k;
    unsigned threads, top, reps;
    double sample;
    bool sample_auto;       /* --sample auto (the default) */
    uint64_t sample_budget; /* --sample-budget (0: the library's) */
    enum augur_sampler method;
    bool method_auto; /* the categorizer picks the sampler */
    uint64_t seed;
    int replicas;     /* --interval K: K, or -1 for 0 (none); 0: the default */
    bool sched_given; /* --schedule KIND[,CHUNK] */
    enum augur_sched sched;
    uint64_t chunk;
    bool rounds, cold, measure, explain, allow_empty;
    const char *links[16]; /* --link: what else the measured kernel needs linked */
    size_t nlinks;
    uint32_t round;     /* --round R: that round alone; 0: every round */
    const char *launch; /* --launch G,B (CUDA), or NULL */
    uint64_t grid, block;
    const char *profile;      /* --profile FILE: price saved counts, simulate nothing */
    const char *save_profile; /* --save-profile FILE: write the counts priced */
    bool report_given;        /* --report FMT */
    enum augur_report_format report;
    const char *output; /* -o FILE: where the report goes (NULL: stdout, diag: stderr) */
    double min_share;   /* --min-share */
    double fail_above;  /* --fail-above: the budget per call in seconds (0: none) */
    bool simulating;    /* an option of the simulation was given (not with --profile) */
    struct augur_load_opts load;
    struct cli_ncu ncu;     /* --ncu FILE: Nsight Compute's counts beside the prediction */
    struct cli_gpu_use gpu; /* --regs, --smem */
};

/* A prediction as the command shows it: the library's result, the machine file, the measurement. */
struct shown {
    const struct augur_predict_result *p;
    const char *mpath;
    struct augur_measurement *meas;
    bool measured;
    char measure_error[600];
    double total; /* seconds, loading the kernel and the data included */
};

static const char *file_of(const struct augur_predict_result *p, uint32_t f)
{
    const char *s = f < p->nfiles ? p->files[f] : "?";
    const char *slash = strrchr(s, '/');

    return slash ? slash + 1 : s;
}

/* ---- text ------------------------------------------------------------------------------ */

static int cmp_share(const void *a, const void *b, void *ud)
{
    const double *sec = ud;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;

    return sec[x] < sec[y] ? 1 : sec[x] > sec[y] ? -1 : 0;
}

/* Insertion sort of line indices by descending seconds (few lines). */
static void sort_lines(size_t *idx, size_t n, const double *sec)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cmp_share(&idx[j - 1], &idx[j], (void *)sec) > 0; j--) {
            size_t t = idx[j];

            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
}

/* What ran on what: the kernel, the data, the machine, the schedule, the sample. */
static void print_header(const struct opts *o, const struct shown *r)
{
    const struct augur_workload *w = &r->p->work;

    printf("kernel %s (%s:%u) on %s: %" PRIu32 " x %" PRIu32 ", %" PRIu64 " entries\n",
           r->p->kernel_name, file_of(r->p, r->p->kernel_file), r->p->kernel_line,
           r->p->dataset ? r->p->dataset : "-", r->p->rows, r->p->cols, r->p->nnz);
    if (o->profile)
        printf("counts: the profile %s\n", o->profile);
    /* a CUDA kernel runs on the GPU's SMs, one simulated L1 each */
    printf("machine %s (%s), %u %s%s\n", r->p->machine->name, r->mpath, w->threads,
           r->p->cuda ? "SM" : "thread", w->threads == 1 ? "" : "s");
    if (r->p->cuda)
        cli_print_occupancy(&r->p->occupancy, o->gpu.regs_from);
    if (r->p->cuda && w->gpu_given && w->gpu.branches > 0)
        printf("warp branches per call: %.6g, %.6g divergent (branch efficiency %.1f %%)\n",
               w->gpu.branches, w->gpu.divergent_branches,
               100 * (1 - w->gpu.divergent_branches / w->gpu.branches));
    if (r->p->sched_given) {
        char text[48];

        printf("schedule: %s for every worksharing loop, overriding the source's\n",
               augur_sched_format(r->p->sched, r->p->chunk, text, sizeof(text)));
    }
    if (r->p->sampled) {
        printf("data: %s sample of %.2f%% (%" PRIu64 " of %" PRIu64 " entries, seed %" PRIu64
               "); counts scaled by loop: a loop over a size of the data (n, nnz) by its ratio, "
               "one whose trips the data decide by the entries' (%.4g)\n",
               augur_sampler_name(r->p->sample.method), 100 * r->p->sample.achieved,
               r->p->sample.nnz, r->p->sample.nnz_full, r->p->sample.seed, r->p->scale);
        if (r->p->sample_auto[0])
            printf("sampled: %s\n", r->p->sample_auto);
        if (r->p->sampler_why[0])
            printf("sampler: %s\n", r->p->sampler_why);
    } else if (r->p->sample_note[0])
        printf("data: all of it (%s)\n", r->p->sample_note);
    else if (r->p->sample_auto[0])
        printf("data: all of it (%s)\n", r->p->sample_auto);
    else
        printf("data: all of it (no sampling)\n");
}

/* The samples behind a sampled prediction's interval, or why it has none. */
static void print_interval(const struct augur_predict_result *p)
{
    const struct augur_predict_interval *iv = &p->interval;
    char t[32];

    if (iv->why[0]) {
        printf("interval:   %s\n", iv->why);
        return;
    }
    if (!iv->samples)
        return;
    printf("interval:   where the time on all the data lies if the samplers' biases scatter "
           "around it; the samples predict");
    for (uint32_t i = 0; i < iv->samples; i++)
        printf("%s %s (%s, seed %" PRIu64 ")", i ? "," : "",
               augur_report_time(iv->seconds[i], t, sizeof(t)), augur_sampler_name(iv->method[i]),
               iv->seed[i]);
    if (iv->failed)
        printf(" (%u failed)", iv->failed);
    printf("\n");
}

/* The prediction line: the time, its interval, the model, the bottleneck, why. */
static void print_prediction(const struct augur_predict_result *p)
{
    const struct augur_prediction *sel = augur_predict_selected(p);
    const struct augur_predict_interval *iv = &p->interval;
    char t1[32], t2[32];

    printf("\nprediction: %s", augur_report_time(sel->seconds, t1, sizeof(t1)));
    if (iv->samples) {
        char *unit;

        /* 14.3 us (13.8-14.9 us, 95 %): the low end's unit only where it differs */
        augur_report_time(iv->lo, t1, sizeof(t1));
        augur_report_time(iv->hi, t2, sizeof(t2));
        unit = strchr(t1, ' ');
        if (unit && strchr(t2, ' ') && strcmp(unit, strchr(t2, ' ')) == 0)
            *unit = '\0';
        printf(" (%s-%s, %.0f %%)", t1, t2, 100 * iv->level);
    }
    printf(" per call (model %s, bottleneck %s): %s\n", sel->model,
           sel->bottleneck ? sel->bottleneck : "-", p->selected_why);
    print_interval(p);
}

static void print_text(const struct opts *o, const struct shown *r)
{
    const struct augur_workload *w = &r->p->work;
    const struct augur_prediction *sel = augur_predict_selected(r->p);
    char t1[32], t2[32];
    size_t *idx, nshow;
    double total = 0;

    print_header(o, r);
    if (r->p->tiling.tile_size)
        printf("tiling: tile size %u: SIMD utilization %.4f (%s), avg_MIMD %.4g (%" PRIu64
               " tiles in %" PRIu64 " tile groups)\n",
               r->p->tiling.tile_size, r->p->tiling.simd_util,
               r->p->simd_kernel  ? "applied"
               : r->p->tiling_run ? "simulated: the kernel runs the schedule"
                                  : "not applied: scalar kernel",
               r->p->tiling.avg_mimd, r->p->tiling.ntiles, r->p->tiling.ntgroups);
    printf("simulated %" PRIu64 " accesses%s in %.3f s; one call: %.4g accesses, %.4g flops, "
           "%.4g bytes named\n\n",
           r->p->sim_events, r->p->cold_caches ? " (cold caches)" : " (a warm call)",
           r->p->sim_seconds, w->total.accesses, w->flops, w->total.bytes);

    printf("%-6s %12s %22s %-18s %s\n", "model", "time/call", "rate", "bottleneck", "source");
    for (uint32_t i = 0; i < r->p->nmodels; i++) {
        const struct augur_prediction *p = &r->p->pred[i];
        const struct augur_model_ops *ops = augur_model_at(i);
        char rate[40];

        if (!(p->seconds > 0)) {
            printf("%-6s %12s %22s %-18s %s (%s)\n", ops->name, "-", "-", "-", ops->source,
                   r->p->why[i]);
            continue;
        }
        snprintf(rate, sizeof(rate), "%.4g %s", p->rate, p->rate_unit);
        printf("%-6s %12s %22s %-18s %s%s\n", ops->name,
               augur_report_time(p->seconds, t1, sizeof(t1)), rate,
               p->bottleneck ? p->bottleneck : "-", ops->source,
               i == r->p->selected ? "  <- selected" : "");
    }
    print_prediction(r->p);
    if (sel->unlearned_seconds > 0)
        printf("branches:   it counts on the core learning across calls the %.4g mispredictions "
               "per call a fresh predictor makes, as this machine's calibration says it can; a "
               "core that learns none of them takes %s per call\n",
               w->total.guessed + w->total.branch_misses,
               augur_report_time(sel->unlearned_seconds, t1, sizeof(t1)));
    if (r->measured)
        printf("measured:   %s per call (median of %" PRIu64
               ", min %s; %s, OMP_PROC_BIND=%s OMP_PLACES=%s); error %.1f%%\n",
               augur_report_time(r->meas->median, t1, sizeof(t1)), r->meas->reps,
               augur_report_time(r->meas->min, t2, sizeof(t2)), r->meas->clock,
               r->meas->omp_proc_bind ? r->meas->omp_proc_bind : "-",
               r->meas->omp_places ? r->meas->omp_places : "-",
               100 * augur_error_rate(r->meas->median, sel->seconds));
    else if (r->measure_error[0])
        printf("measured:   failed: %s\n", r->measure_error);
    if (r->measured && sel->unlearned_seconds > 0 && r->meas->median > sel->seconds &&
        r->meas->median <= sel->unlearned_seconds)
        printf("            between the estimate and the time with no branch replay learned: "
               "this run's core learned less of the replay than the calibration says\n");

    if (sel->line_seconds && w->nlines) {
        idx = augur_mallocarray(w->nlines, sizeof(*idx));
        for (size_t i = 0; i < w->nlines; i++) {
            idx[i] = i;
            total += sel->line_seconds[i];
        }
        sort_lines(idx, w->nlines, sel->line_seconds);
        nshow = o->top && o->top < w->nlines ? o->top : w->nlines;
        printf("\nper source line (model %s):\n%-18s %7s %11s %12s", sel->model, "line", "share",
               "time", "accesses");
        for (unsigned l = 1; l <= w->nlevels; l++)
            printf(" %9s", w->level_name[l]);
        printf(" %9s\n", "indirect");
        for (size_t k = 0; k < nshow; k++) {
            const struct augur_work_line *l = &w->lines[idx[k]];
            char where[64];

            if (!(l->accesses > 0) && !(sel->line_seconds[idx[k]] > 0))
                continue;
            snprintf(where, sizeof(where), "%s:%u", file_of(r->p, l->file), l->line);
            printf("%-18s %6.1f%% %11s %12.4g", where,
                   total > 0 ? 100 * sel->line_seconds[idx[k]] / total : 0.0,
                   augur_report_time(sel->line_seconds[idx[k]], t1, sizeof(t1)), l->accesses);
            for (unsigned v = 1; v <= w->nlevels; v++)
                printf(" %9.4g", l->served[v]);
            printf(" %9s\n", l->irregular > 0 ? "yes" : "no");
        }
        printf("(columns after accesses: requests served by each level beyond L1, per call)\n");
        augur_free(idx);
    }
    printf("\nprediction took %.3f s\n", r->total);
}

static void print_explain(const struct augur_model_input *in)
{
    for (uint32_t i = 0; i < augur_model_count(); i++) {
        const struct augur_model_ops *ops = augur_model_at(i);
        struct augur_buf buf;
        struct augur_diag d;

        augur_buf_init(&buf);
        augur_diag_init(&d);
        if (ops->explain(in, &buf, &d) == 0)
            printf("\n%s", buf.s ? buf.s : "");
        else
            printf("\n%s: %s\n", ops->name, d.msg);
        augur_buf_release(&buf);
    }
}

/* ---- the command -------------------------------------------------------------------------- */

/* --sample: a rate in (0, 1], "full" (0, as a rate of 1 is) or "auto". */
static int parse_sample(const char *arg, double *rate, bool *is_auto)
{
    char *end;

    *rate = 0;
    *is_auto = strcmp(arg, "auto") == 0;
    if (*is_auto || strcmp(arg, "full") == 0)
        return CLI_OK;
    errno = 0;
    *rate = strtod(arg, &end);
    if (errno || end == arg || *end || !(*rate > 0 && *rate <= 1))
        return cli_usage_error("predict",
                               "--sample needs a rate in (0, 1], 'full' or 'auto', not '%s'", arg);
    if (*rate == 1)
        *rate = 0;
    return CLI_OK;
}

/* The report's options: CLI_OK, an exit status, or 1 when opt is not one of them. */
static int report_option(struct opts *o, int opt, const char *arg)
{
    struct augur_diag d;

    switch (opt) {
    case 'F':
        augur_diag_init(&d);
        if (augur_report_format_parse(arg, &o->report, &d) != 0)
            return cli_usage_error("predict", "--report: %s", d.msg);
        o->report_given = true;
        return CLI_OK;
    case 'o':
        o->output = arg;
        return CLI_OK;
    case 'm':
        return cli_parse_fraction("predict", "--min-share", arg, true, &o->min_share) ? CLI_USAGE
                                                                                      : CLI_OK;
    case 'B':
        return cli_parse_seconds("predict", "--fail-above", arg, &o->fail_above) ? CLI_USAGE
                                                                                 : CLI_OK;
    default:
        return 1;
    }
}

/* One of predict's own options: CLI_OK, -1 after --help, or an exit status. */
/* The sampling options: --sample, --sample-budget, --method, --seed, --interval; 1: not one. */
static int sample_option(struct opts *o, int opt, const char *arg)
{
    uint64_t v;

    switch (opt) {
    case 'S':
        return parse_sample(arg, &o->sample, &o->sample_auto);
    case 'b':
        if (cli_parse_u64("predict", "--sample-budget", arg, AUGUR_PREDICT_MIN_SAMPLE, UINT64_MAX,
                          &o->sample_budget))
            return CLI_USAGE;
        break;
    case 'M':
        o->method_auto = strcmp(arg, "auto") == 0;
        if (!o->method_auto && augur_sampler_parse(arg, &o->method) != 0)
            return cli_usage_error("predict", "--method needs auto, sa, rt, rb or re, not '%s'",
                                   arg);
        break;
    case 'x':
        if (cli_parse_u64("predict", "--seed", arg, 0, UINT64_MAX, &o->seed))
            return CLI_USAGE;
        break;
    case 'I':
        if (cli_parse_u64("predict", "--interval", arg, 0, AUGUR_PREDICT_MAX_REPLICAS, &v))
            return CLI_USAGE;
        o->replicas = v ? (int)v : -1;
        break;
    default:
        return 1;
    }
    return CLI_OK;
}

static int predict_option(struct opts *o, int opt, const char *arg, const char *given)
{
    uint64_t v;
    int rc = report_option(o, opt, arg);

    if (rc == 1)
        rc = sample_option(o, opt, arg);
    if (rc != 1)
        return rc;

    switch (opt) {
    case 'Q':
        o->profile = arg;
        break;
    case 'P':
        o->save_profile = arg;
        break;
    case 't':
        if (cli_parse_u64("predict", "--threads", arg, 1, AUGUR_CACHESIM_MAX_THREADS, &v))
            return CLI_USAGE;
        o->threads = (unsigned)v;
        break;
    case 'D':
        if (cli_parse_schedule("predict", "--schedule", arg, &o->sched, &o->chunk))
            return CLI_USAGE;
        o->sched_given = true;
        break;
    case 'R':
        o->rounds = true;
        break;
    case 'r':
        if (cli_parse_u64("predict", "--round", arg, 1, UINT32_MAX, &v))
            return CLI_USAGE;
        o->round = (uint32_t)v;
        break;
    case 'l':
        o->launch = arg;
        if (augur_skel_launch_parse(arg, &o->grid, &o->block) < 0)
            return cli_usage_error("predict",
                                   "--launch needs GRID,BLOCK (two positive numbers, or "
                                   "expressions such as (n + 255) / 256,256), not '%s'",
                                   arg);
        break;
    case 'c':
        o->cold = true;
        break;
    case 'E':
        o->measure = true;
        break;
    case 'A':
        o->allow_empty = true;
        break;
    case 'L':
        if (o->nlinks == sizeof(o->links) / sizeof(o->links[0]))
            return cli_usage_error("predict", "--link: at most %zu items",
                                   sizeof(o->links) / sizeof(o->links[0]));
        o->links[o->nlinks++] = arg;
        break;
    case 'n':
        if (cli_parse_u64("predict", "--reps", arg, 1, 1000000, &v))
            return CLI_USAGE;
        o->reps = (unsigned)v;
        break;
    case 'X':
        o->explain = true;
        break;
    case 'k':
        if (cli_parse_u64("predict", "--top", arg, 1, UINT32_MAX, &v))
            return CLI_USAGE;
        o->top = (unsigned)v;
        break;
    case 'j':
        cli_json = true;
        break;
    case 'h':
        cmd_predict_help(stdout);
        return -1;
    default:
        return cli_usage_error("predict", "unknown or incomplete option '%s'", given);
    }
    return CLI_OK;
}

static int check_report(const struct opts *o)
{
    if (o->output && !o->report_given)
        return cli_usage_error("predict", "-o FILE writes a --report: give --report FMT");
    return CLI_OK;
}

/* Parses the options; returns CLI_OK with *path set, or an exit status. */
static int parse_args(int argc, char **argv, struct opts *o, int *nopt, const char **path)
{
    static const struct option longopts[] = {
        CLI_KERNEL_LONGOPTS,
        { "threads", required_argument, NULL, 't' },
        { "sample", required_argument, NULL, 'S' },
        { "sample-budget", required_argument, NULL, 'b' },
        { "schedule", required_argument, NULL, 'D' },
        { "method", required_argument, NULL, 'M' },
        { "seed", required_argument, NULL, 'x' },
        { "interval", required_argument, NULL, 'I' },
        { "rounds", no_argument, NULL, 'R' },
        { "round", required_argument, NULL, 'r' },
        { "launch", required_argument, NULL, 'l' },
        { "cold", no_argument, NULL, 'c' },
        { "measure", no_argument, NULL, 'E' },
        { "allow-empty", no_argument, NULL, 'A' },
        { "link", required_argument, NULL, 'L' },
        { "reps", required_argument, NULL, 'n' },
        { "explain", no_argument, NULL, 'X' },
        { "top", required_argument, NULL, 'k' },
        { "profile", required_argument, NULL, 'Q' },
        { "save-profile", required_argument, NULL, 'P' },
        { "json", no_argument, NULL, 'j' },
        { "report", required_argument, NULL, 'F' },
        { "output", required_argument, NULL, 'o' },
        { "min-share", required_argument, NULL, 'm' },
        { "fail-above", required_argument, NULL, 'B' },
        { "help", no_argument, NULL, 'h' },
        CLI_LOAD_LONGOPTS,
        CLI_NCU_LONGOPTS,
        CLI_GPU_USE_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    /* the options that only a simulation reads */
    static const char simulation_opts[] = "tSbDMxIRrlTcEALn";
    int opt, rc;

    *nopt = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            *nopt = i;
            break;
        }
    opterr = 0;
    while ((opt = getopt_long(*nopt, argv, "ho:p:", longopts, NULL)) != -1) {
        int used = cli_ncu_option("predict", opt, optarg, &o->ncu);

        if (!used && (used = cli_gpu_use_option("predict", opt, optarg, &o->gpu)) > 0)
            o->simulating = true;
        if (used) {
            if (used == CLI_USAGE)
                return CLI_USAGE;
            continue;
        }
        used = cli_load_option("predict", opt, optarg, &o->load);
        if (!used) {
            used = cli_kernel_option("predict", opt, optarg, &o->k);
            if (used && opt == CLI_OPT_MACHINE)
                used = -1; /* the one a profile takes */
        }
        if (used == CLI_USAGE)
            return CLI_USAGE;
        if (used > 0 || (opt > 0 && opt < 0x100 && strchr(simulation_opts, opt)))
            o->simulating = true;
        if (used)
            continue;
        rc = predict_option(o, opt, optarg, argv[optind - 1]);
        if (rc != CLI_OK)
            return rc;
    }
    if (o->profile) {
        if (optind < *nopt || *nopt < argc || o->simulating || o->save_profile)
            return cli_usage_error("predict",
                                   "--profile prices saved counts: it takes no kernel file, data, "
                                   "simulation option or --save-profile (only --machine, "
                                   "--explain, --top, --json and the report's options)");
        return check_report(o);
    }
    if (optind >= *nopt)
        return cli_usage_error("predict", "missing the kernel file (FILE.c, FILE.cu or FILE.skel)");
    if (optind + 1 < *nopt)
        return cli_usage_error("predict", "one kernel file at a time ('%s' is extra)",
                               argv[optind + 1]);
    if (!o->k.data)
        return cli_usage_error("predict", "missing --data DATASET");
    *path = argv[optind];
    return check_report(o);
}

/* The categorizer tree for --method auto: loaded only when a sample is asked for. */
static int load_tree(const struct opts *o, struct augur_tree **tree, char *name, size_t size)
{
    struct augur_diag diag;

    *tree = NULL;
    if (!(o->sample > 0 || o->sample_auto) || !o->method_auto ||
        !cli_find_shipped(NULL, "AUGUR_TREE", "categorizer.tree", name, size))
        return CLI_OK;
    augur_diag_init(&diag);
    return augur_tree_load(name, tree, &diag) ? cli_diag_error(&diag) : CLI_OK;
}

/* Times the kernel on the full data (--measure); a failure is reported beside the prediction. */
static void measure(const struct opts *o, struct augur_predict_ctx *ctx,
                    const struct augur_predict_opts *po, const struct augur_skel *skel,
                    const struct augur_node *kernel, int nargs, char **args, struct shown *r)
{
    struct augur_measure_opts mo;
    struct augur_bound *full = NULL;
    struct augur_diag md;

    augur_diag_init(&md);
    memset(&mo, 0, sizeof(mo));
    mo.args = (const char *const *)args;
    mo.nargs = nargs > 0 ? (size_t)nargs : 0;
    mo.args_given = args != NULL;
    mo.compile_commands = o->k.compile_commands;
    mo.threads = r->p->threads;
    mo.reps = o->reps;
    mo.no_counts = true;
    mo.allow_empty = o->allow_empty;
    mo.links = o->links;
    mo.nlinks = o->nlinks;
    mo.sched_given = po->sched_given;
    mo.sched = po->sched;
    mo.chunk = po->chunk;
    if (augur_predict_bound(ctx, po, &full, &md) == 0 &&
        augur_measure(skel, kernel, full, &mo, &r->meas, &md) == 0)
        r->measured = true;
    else
        augur_diag_format(&md, r->measure_error, sizeof(r->measure_error));
    augur_bound_free(full);
}

/* What one predict command loaded and made; freed together. */
struct job {
    struct augur_skel *skel;
    struct augur_dataset *ds;
    struct augur_machine *m;
    struct augur_tree *tree;
    struct augur_predict_ctx *ctx;
    struct augur_predict_result *res;
    struct augur_measurement *meas;
    char mpath[PATH_MAX], tree_name[PATH_MAX];
};

static void job_free(struct job *j)
{
    augur_measurement_free(j->meas);
    augur_predict_result_free(j->res);
    augur_predict_ctx_free(j->ctx);
    augur_tree_free(j->tree);
    augur_dataset_free(j->ds);
    augur_machine_free(j->m);
    augur_skel_free(j->skel);
}

/* The machine file: --machine, $AUGUR_MACHINE or this host's, checked against the host. */
static int load_machine(const struct opts *o, struct job *j)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (!cli_find_machine(o->k.machine, j->mpath, sizeof(j->mpath)))
        return cli_error("no machine file: give --machine FILE or set AUGUR_MACHINE");
    if (augur_machine_load(j->mpath, &j->m, &diag) != 0)
        return cli_diag_error(&diag);
    return cli_machine_host_check(j->m, o->measure);
}

/* The library's options from the command's. */
static void predict_opts(const struct opts *o, struct augur_predict_opts *po)
{
    po->threads = o->threads;
    po->sample = o->sample;
    po->sample_auto = o->sample_auto;
    po->sample_budget = o->sample_budget;
    po->method_given = !o->method_auto;
    po->method = o->method;
    po->seed = o->seed;
    po->replicas = o->replicas;
    po->rounds = o->rounds;
    po->round = o->round;
    po->cold = o->cold;
    po->tile_size = o->k.tile_size;
    po->allow_empty = o->allow_empty;
    po->grid = o->grid;
    po->block = o->block;
    po->sched_given = o->sched_given;
    po->sched = o->sched;
    po->chunk = o->chunk;
    po->gpu_use = o->gpu.use;
    po->on_warn = cli_interp_warning;
    po->on_progress = cli_progress_fn();
}

/* The kernel on the data: simulated (the profile stage), priced, and timed with --measure. */
static int from_source(struct opts *o, const char *path, int nargs, char **args, struct job *j,
                       struct shown *r)
{
    struct cli_kernel_opts ko = { "predict",   o->k.function,         o->k.bind,
                                  o->launch,   o->k.compile_commands, o->k.templ,
                                  o->k.no_shim };
    struct augur_predict_opts po;
    const struct augur_node *kernel = NULL;
    struct augur_diag diag;
    int rc;

    memset(&po, 0, sizeof(po));
    augur_diag_init(&diag);
    po.bound.stored_only = o->k.stored_only;
    po.bound.ell_width = o->k.ell_width;
    if (o->k.source && cli_bfs_source("predict", o->k.source, &po.bound))
        return CLI_USAGE;
    if ((rc = cli_load_kernel(&ko, path, nargs, args, &j->skel, &kernel)) != 0)
        return rc;
    if (o->round && o->rounds)
        return cli_error("--round %u and --rounds: one round, or all of them", o->round);
    /* a kernel with a round parameter is a level-synchronous BFS: one call is all its rounds */
    for (uint32_t i = 0; i < kernel->u.kernel.nsyms; i++)
        if (augur_bind_uses_round(kernel->u.kernel.syms[i].bind))
            o->rounds = !o->round;
    if (kernel->u.kernel.cuda)
        cli_ncu_block_use(&o->ncu, kernel->u.kernel.name, &o->gpu);
    if ((rc = load_machine(o, j)) != 0 ||
        (rc = cli_load_dataset(o->k.data, &o->load, &j->ds)) != 0 ||
        (rc = load_tree(o, &j->tree, j->tree_name, sizeof(j->tree_name))) != 0)
        return rc;
    predict_opts(o, &po);
    if (augur_predict_ctx_new(j->ds, j->tree, j->tree ? j->tree_name : NULL, &j->ctx, &diag) != 0 ||
        augur_predict_run(j->ctx, j->skel, kernel, j->m, &po, &j->res, &diag) != 0 ||
        (o->save_profile && augur_profile_save(j->res, o->save_profile, &diag) != 0))
        return cli_diag_error(&diag);
    cli_progress_done();
    r->p = j->res;
    if (o->measure)
        measure(o, j->ctx, &po, j->skel, kernel, nargs, args, r);
    j->meas = r->meas;
    return CLI_OK;
}

/* Saved counts priced on the machine: nothing simulated. */
static int from_profile(const struct opts *o, struct job *j, struct shown *r)
{
    struct augur_diag diag;
    int rc;

    augur_diag_init(&diag);
    if ((rc = load_machine(o, j)) != 0)
        return rc;
    if (augur_profile_load(o->profile, &j->res, &diag) != 0 ||
        augur_predict_models(j->res, j->m, &diag) != 0)
        return cli_diag_error(&diag);
    r->p = j->res;
    return CLI_OK;
}

static void report_opts(const struct opts *o, const struct shown *r, struct augur_report_opts *ro)
{
    augur_report_opts_init(ro);
    ro->machine_file = r->mpath;
    ro->meas = r->measured ? r->meas : NULL;
    ro->measure_error = r->measure_error;
    ro->total_seconds = r->total;
    if (o->min_share > 0)
        ro->min_share = o->min_share;
}

/* --report: into -o FILE, or on stdout (diag: stderr) in place of the text. */
static int write_report(const struct opts *o, const struct shown *r)
{
    struct augur_report_opts ro;
    struct augur_buf buf;
    struct augur_diag diag;
    int rc = CLI_OK;

    report_opts(o, r, &ro);
    ro.color = !o->output && o->report == AUGUR_REPORT_ANNOTATE && isatty(STDOUT_FILENO) &&
               !getenv("NO_COLOR");
    augur_buf_init(&buf);
    augur_diag_init(&diag);
    if (augur_report_render(r->p, o->report, &ro, &buf, &diag) != 0)
        rc = cli_diag_error(&diag);
    else if (o->output) {
        if (augur_file_write(o->output, buf.s ? buf.s : "", buf.len, &diag) != 0)
            rc = cli_diag_error(&diag);
    } else {
        FILE *fp = o->report == AUGUR_REPORT_DIAG ? stderr : stdout;

        if (buf.len && fwrite(buf.s, 1, buf.len, fp) != buf.len)
            rc = cli_error("cannot write the report");
    }
    augur_buf_release(&buf);
    return rc;
}

/*
 * --ncu: Nsight Compute times the kernel on the GPU, an empty one included
 * (the machine's empty_kernel_us), not the host's part of a launch; without
 * empty_kernel_us no time is compared.
 */
static int compare_ncu(struct opts *o, const struct shown *r, const struct augur_machine *m)
{
    const struct augur_workload *w = &r->p->work;
    double launches = w->gpu_given ? w->gpu.launches : 0;
    double kernel = augur_predict_selected(r->p)->seconds -
                    launches * (m->gpu.launch_us - m->gpu.empty_kernel_us) * 1e-6;

    if (w->gpu_given && !(m->gpu.empty_kernel_us > 0)) {
        cli_warning("machine '%s' gives no gpu.empty_kernel_us (Nsight Compute's time of an "
                    "empty kernel): --ncu compares no time",
                    m->name);
        kernel = 0;
    }

    return cli_ncu_compare(&o->ncu, r->p->kernel_name, w, kernel);
}

static int report(const struct opts *o, struct shown *r, const struct augur_machine *m)
{
    const struct augur_prediction *sel = augur_predict_selected(r->p);
    struct augur_report_opts ro;
    int rc = CLI_OK;

    /* the text (or --json) unless the report takes standard output's place */
    if (cli_json) {
        report_opts(o, r, &ro);
        json_t *doc = augur_report_json(r->p, &ro);

        if (o->ncu.path)
            json_object_set_new(doc, "ncu", cli_ncu_json(&o->ncu));
        rc = cli_print_json(doc);
    } else if (!o->report_given || o->output || o->report == AUGUR_REPORT_DIAG) {
        print_text(o, r);
        if (o->ncu.path)
            cli_ncu_print(&o->ncu, r->p->cold_caches);
        if (o->explain) {
            struct augur_model_input mi;

            memset(&mi, 0, sizeof(mi));
            mi.work = &r->p->work;
            mi.machine = m;
            print_explain(&mi);
        }
        rc = cli_flush_stdout();
    }
    if (rc == CLI_OK && o->report_given)
        rc = write_report(o, r);
    if (rc == CLI_OK && o->fail_above > 0 && sel->seconds > o->fail_above) {
        char t1[32], t2[32];

        return cli_error("%s: predicted %s per call, over the budget of %s (--fail-above)",
                         r->p->kernel_name, augur_report_time(sel->seconds, t1, sizeof(t1)),
                         augur_report_time(o->fail_above, t2, sizeof(t2)));
    }
    return rc == CLI_OK && o->measure && !r->measured ? CLI_FAILED : rc;
}

int cmd_predict(int argc, char **argv)
{
    struct opts o;
    struct shown r;
    struct job j;
    const char *path = NULL;
    int nopt, rc;
    double t0 = augur_now();

    memset(&o, 0, sizeof(o));
    memset(&r, 0, sizeof(r));
    memset(&j, 0, sizeof(j));
    o.method = AUGUR_SAMPLER_SA;
    o.method_auto = true;
    o.sample_auto = true;
    o.top = 10;
    o.ncu.id = -1;
    rc = parse_args(argc, argv, &o, &nopt, &path);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (o.ncu.path && (rc = cli_ncu_load(&o.ncu)) != CLI_OK)
        return rc;
    if (o.profile)
        rc = from_profile(&o, &j, &r);
    else
        rc = from_source(&o, path, nopt < argc ? argc - nopt - 1 : 0,
                         nopt < argc ? argv + nopt + 1 : NULL, &j, &r);
    if (rc == CLI_OK) {
        r.mpath = j.mpath;
        r.total = augur_now() - t0;
        if (o.ncu.path)
            rc = compare_ncu(&o, &r, j.m);
        if (rc == CLI_OK)
            rc = report(&o, &r, j.m);
    }
    job_free(&j);
    cli_ncu_release(&o.ncu);
    return rc;
}
