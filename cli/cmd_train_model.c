/*
 * cmd_train_model.c - "augur train model": fits a machine file's core rates
 * to measured `augur predict --measure --json` runs on some datasets and
 * reports the error on the others (module: cli).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void train_model_help(FILE *fp)
{
    fprintf(fp, "usage: augur train model --machine M.yml [-o OUT.yml] [--holdout K] RUN.json...\n"
                "\n"
                "Fits the core section of a machine file (issue rates as one scale, misses in\n"
                "flight, mispredicted-branch cycles, OpenMP region cost), and the a of T_MIMD\n"
                "(Zhu et al. eq. 4) when runs of a tiled kernel (--tile-size) at two threads\n"
                "or more are among them, so that the aggregate model best predicts measured\n"
                "runs. Each RUN.json is the output of 'augur predict --measure --json' on that\n"
                "machine. The datasets are sorted by name and every K-th is held out: the fit\n"
                "uses the others, and the error (seed 002 eq. 7) is reported on both. OUT.yml\n"
                "is the machine file with the fitted core (and model) section.\n"
                "\n"
                "options:\n"
                "  --machine FILE    the machine the runs were predicted on (required)\n"
                "  -o, --output FILE write the fitted machine file here\n"
                "  --holdout K       hold out every K-th dataset, K >= 2 (default 2: half)\n"
                "  --json            print the result as JSON\n"
                "  -h, --help        print this help\n");
}

struct run {
    char *path;
    char dataset[256];
    struct augur_workload work;
    double measured, predicted_before, predicted_after;
    bool test;
};

/* A saved run is one prediction's JSON: a few KiB. */
#define RUN_MAX_BYTES ((size_t)16 << 20)

static int load_run(const char *path, struct run *r)
{
    struct augur_saved_run saved;
    struct augur_diag diag;
    struct augur_buf text;
    int rc;

    augur_diag_init(&diag);
    augur_buf_init(&text);
    rc = augur_file_read(path, RUN_MAX_BYTES, &text, NULL, &diag);
    if (rc == 0)
        rc = augur_saved_run_parse(text.s, text.len, path, &saved, &diag);
    augur_buf_release(&text);
    if (rc)
        return cli_diag_error(&diag);
    r->measured = saved.measured;
    snprintf(r->dataset, sizeof(r->dataset), "%s", saved.dataset);
    r->work = saved.work;
    return CLI_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Median and 90th percentile of the errors of one split (test: which). */
static void summary(const struct run *runs, size_t n, bool test, bool after, double *med,
                    double *p90, size_t *count)
{
    double *e = augur_mallocarray(n ? n : 1, sizeof(double));
    size_t k = 0;

    for (size_t i = 0; i < n; i++)
        if (runs[i].test == test)
            e[k++] = augur_error_rate(runs[i].measured,
                                      after ? runs[i].predicted_after : runs[i].predicted_before);
    qsort(e, k, sizeof(double), augur_cmp_double);
    *count = k;
    *med = k ? (k % 2 ? e[k / 2] : (e[k / 2 - 1] + e[k / 2]) / 2) : NAN;
    *p90 = k ? e[(size_t)lround(0.9 * (double)(k - 1))] : NAN;
    augur_free(e);
}

static double predict_one(const struct augur_machine *m, const struct augur_workload *w)
{
    struct augur_model_input in;
    struct augur_prediction p;

    memset(&in, 0, sizeof(in));
    memset(&p, 0, sizeof(p));
    in.work = w;
    in.machine = m;
    if (augur_model_find("skope")->predict(&in, &p, NULL) < 0)
        return NAN;
    return p.seconds;
}

/* The options of train model. */
struct model_args {
    const char *machine, *output;
    unsigned long holdout; /* every holdout-th dataset is held out */
    int first;             /* argv[first]: the first RUN.json */
};

/* The runs and their fit, freed together (model_fit_free). */
struct model_fit {
    struct augur_machine *m, fitted; /* the machine the runs were predicted on, and fitted */
    struct run *runs;
    size_t n;           /* runs loaded */
    const char **names; /* the datasets, sorted */
    size_t nnames;
    struct augur_fit_run *fr; /* the runs fitted, ntrain of them */
    size_t ntrain;
    struct augur_fit_result res;
};

static void model_fit_free(struct model_fit *f)
{
    for (size_t i = 0; i < f->n; i++)
        augur_workload_release(&f->runs[i].work);
    augur_free(f->runs);
    augur_free(f->names);
    augur_free(f->fr);
    augur_machine_free(f->m);
}

/* The options: CLI_OK, -1 after --help, or an exit status. */
static int parse_model_args(int argc, char **argv, struct model_args *a)
{
    static const struct option longopts[] = {
        { "machine", required_argument, NULL, 'm' }, { "output", required_argument, NULL, 'o' },
        { "holdout", required_argument, NULL, 'k' }, { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },          { NULL, 0, NULL, 0 },
    };
    int opt;

    memset(a, 0, sizeof(*a));
    a->holdout = 2;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        char *end;

        switch (opt) {
        case 'm':
            a->machine = optarg;
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'k':
            errno = 0;
            a->holdout = strtoul(optarg, &end, 10);
            if (errno || end == optarg || *end || optarg[0] == '-' || a->holdout < 2 ||
                a->holdout > 1000)
                return cli_usage_error("train model", "--holdout needs 2 to 1000, not '%s'",
                                       optarg);
            break;
        case 'j':
            cli_json = true;
            break;
        case 'h':
            train_model_help(stdout);
            return -1;
        default:
            return cli_usage_error("train model", "unknown or incomplete option '%s'",
                                   argv[optind - 1]);
        }
    }
    if (!a->machine)
        return cli_usage_error("train model", "missing --machine FILE");
    if (optind >= argc)
        return cli_usage_error("train model", "no runs: give RUN.json files");
    a->first = optind;
    return CLI_OK;
}

/* The runs paths[0 .. n-1]; f->n counts those loaded. */
static int load_runs(struct model_fit *f, size_t n, char **paths)
{
    int rc;

    f->runs = augur_calloc(n, sizeof(*f->runs));
    f->names = augur_calloc(n, sizeof(*f->names));
    for (size_t i = 0; i < n; i++) {
        f->runs[i].path = paths[i];
        if ((rc = load_run(f->runs[i].path, &f->runs[i])) != CLI_OK)
            return rc;
        f->n++;
    }
    return CLI_OK;
}

/* The position of a run's dataset in f->names. */
static size_t dataset_index(const struct model_fit *f, const struct run *r)
{
    size_t j;

    for (j = 0; j < f->nnames && strcmp(f->names[j], r->dataset); j++)
        ;
    return j;
}

/* The held-out datasets, every holdout-th name in sorted order; the others' runs to fit. */
static void hold_out(struct model_fit *f, unsigned long holdout)
{
    for (size_t i = 0; i < f->n; i++)
        if (dataset_index(f, &f->runs[i]) == f->nnames)
            f->names[f->nnames++] = f->runs[i].dataset;
    qsort(f->names, f->nnames, sizeof(*f->names), cmp_str);
    f->fr = augur_calloc(f->n, sizeof(*f->fr));
    for (size_t i = 0; i < f->n; i++) {
        struct run *r = &f->runs[i];

        r->test = dataset_index(f, r) % holdout == holdout - 1;
        r->predicted_before = predict_one(f->m, &r->work);
        if (!r->test) {
            f->fr[f->ntrain].work = &r->work;
            f->fr[f->ntrain].measured = r->measured;
            f->ntrain++;
        }
    }
}

/* The core section fitted to the runs not held out; every run predicted again with it. */
static int fit(const struct model_args *a, struct model_fit *f)
{
    struct augur_diag diag;

    hold_out(f, a->holdout);
    if (f->ntrain == 0)
        return cli_error("every run is held out: give runs on more datasets or a larger --holdout");
    augur_diag_init(&diag);
    if (augur_fit_core(f->m, f->fr, f->ntrain, &f->res, &diag) != 0)
        return cli_diag_error(&diag);
    f->fitted = *f->m;
    f->fitted.core = f->res.core;
    if (f->res.mimd_fitted) {
        f->fitted.model.given = true;
        f->fitted.model.mimd_a = f->res.mimd_a;
    }
    for (size_t i = 0; i < f->n; i++)
        f->runs[i].predicted_after = predict_one(&f->fitted, &f->runs[i].work);
    return CLI_OK;
}

/* -o: the machine file with the fitted core section, under a comment saying how. */
static int write_fitted(const struct model_args *a, const struct model_fit *f)
{
    struct augur_buf buf;
    struct augur_diag wd;
    int rc = CLI_OK;

    augur_buf_init(&buf);
    augur_diag_init(&wd);
    augur_buf_printf(&buf,
                     "# %s with its core section fitted by 'augur train model' to %zu measured\n"
                     "# runs on %zu of %zu datasets (1 in %lu held out); mean |ln(pred /\n"
                     "# measured)| %.4f before, %.4f after.\n",
                     a->machine, f->ntrain, f->nnames - f->nnames / a->holdout, f->nnames,
                     a->holdout, f->res.before, f->res.after);
    augur_machine_dump_buf(&buf, &f->fitted);
    if (augur_file_write(a->output, buf.s, buf.len, &wd) != 0)
        rc = cli_diag_error(&wd);
    augur_buf_release(&buf);
    return rc;
}

/* The errors of the fitted [0] and held-out [1] runs, before [.][0] and after [.][1] the fit. */
struct model_errors {
    double med[2][2], p90[2][2];
    size_t cnt[2];
};

static int model_json(const struct model_args *a, const struct model_fit *f,
                      const struct model_errors *e)
{
    const struct augur_fit_result *res = &f->res;

    return cli_print_json(
        json_pack("{s:s,s:I,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:o}",
                  "machine", a->machine, "train_runs", (json_int_t)e->cnt[0], "test_runs",
                  (json_int_t)e->cnt[1], "train_median_before", e->med[0][0], "train_median_after",
                  e->med[0][1], "test_median_before", e->med[1][0], "test_median_after",
                  e->med[1][1], "test_p90_before", e->p90[1][0], "test_p90_after", e->p90[1][1],
                  "issue_scale", res->issue_scale, "mlp", res->core.mlp, "branch_miss_cycles",
                  res->core.branch_miss_cycles, "region_ns", res->core.region_ns, "loads_per_cycle",
                  res->core.loads_per_cycle, "objective_before", res->before, "objective_after",
                  res->after, "mimd_a", res->mimd_fitted ? json_real(res->mimd_a) : json_null()));
}

static int model_text(const struct model_args *a, const struct model_fit *f,
                      const struct model_errors *e)
{
    const struct augur_fit_result *res = &f->res;

    printf("fitted on %zu runs, held out %zu (1 in %lu of %zu datasets)\n", e->cnt[0], e->cnt[1],
           a->holdout, f->nnames);
    printf("core: issue rates x %.3f (loads %.3g, stores %.3g, fp %.3g, int %.3g, width "
           "%.3g per cycle), mlp %.3g, branch miss %.3g cycles, region %.4g ns\n",
           res->issue_scale, res->core.loads_per_cycle, res->core.stores_per_cycle,
           res->core.fp_ops_per_cycle, res->core.int_ops_per_cycle, res->core.issue_width,
           res->core.mlp, res->core.branch_miss_cycles, res->core.region_ns);
    if (res->mimd_fitted)
        printf("model: mimd_a %.4g s (T_MIMD = a threads / avg_MIMD, Zhu et al. eq. 4)\n",
               res->mimd_a);
    else
        printf("model: mimd_a not fitted (no tiled run of two threads or more)\n");
    printf("%-10s %6s %15s %15s %12s %12s\n", "runs", "count", "median before", "median after",
           "p90 before", "p90 after");
    for (int t = 0; t < 2; t++)
        printf("%-10s %6zu %14.1f%% %14.1f%% %11.1f%% %11.1f%%\n", t ? "held out" : "fitted",
               e->cnt[t], 100 * e->med[t][0], 100 * e->med[t][1], 100 * e->p90[t][0],
               100 * e->p90[t][1]);
    printf("\n%-30s %-22s %3s %12s %12s %12s %6s\n", "dataset", "run", "T", "measured", "before",
           "after", "set");
    for (size_t i = 0; i < f->n; i++) {
        const struct run *r = &f->runs[i];
        const char *slash = strrchr(r->path, '/');

        printf("%-30s %-22s %3u %12.4g %12.4g %12.4g %6s\n", r->dataset,
               slash ? slash + 1 : r->path, r->work.threads, r->measured, r->predicted_before,
               r->predicted_after, r->test ? "test" : "fit");
    }
    return cli_flush_stdout();
}

int train_model(int argc, char **argv)
{
    struct model_args a;
    struct model_fit f;
    struct model_errors e;
    struct augur_diag diag;
    int rc;

    memset(&f, 0, sizeof(f));
    rc = parse_model_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    augur_diag_init(&diag);
    if (augur_machine_load(a.machine, &f.m, &diag) != 0)
        return cli_diag_error(&diag);
    rc = load_runs(&f, (size_t)(argc - a.first), argv + a.first);
    if (rc == CLI_OK)
        rc = fit(&a, &f);
    if (rc == CLI_OK && a.output)
        rc = write_fitted(&a, &f);
    if (rc == CLI_OK) {
        for (int t = 0; t < 2; t++)
            for (int b = 0; b < 2; b++)
                summary(f.runs, f.n, t, b, &e.med[t][b], &e.p90[t][b], &e.cnt[t]);
        rc = cli_json ? model_json(&a, &f, &e) : model_text(&a, &f, &e);
    }
    model_fit_free(&f);
    return rc;
}
