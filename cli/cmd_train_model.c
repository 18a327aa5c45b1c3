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
                "flight, mispredicted-branch cycles, OpenMP region cost) so that the aggregate\n"
                "model best predicts measured runs. Each RUN.json is the output of\n"
                "'augur predict --measure --json' on that machine. The datasets are sorted by\n"
                "name and every K-th is held out: the fit uses the others, and the error (seed\n"
                "002 eq. 7) is reported on both. OUT.yml is the machine file with the fitted\n"
                "core section.\n"
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
    json_error_t je;
    json_t *doc, *meas;
    const char *ds, *slash;
    struct augur_diag diag;
    struct augur_buf text;

    augur_diag_init(&diag);
    augur_buf_init(&text);
    if (augur_file_read(path, RUN_MAX_BYTES, &text, NULL, &diag) != 0) {
        augur_buf_release(&text);
        return cli_diag_error(&diag);
    }
    doc = json_loadb(text.s, text.len, 0, &je);
    augur_buf_release(&text);
    if (!doc && je.line > 0)
        return cli_error("%s:%d:%d: %s", path, je.line, je.column > 0 ? je.column : 1, je.text);
    if (!doc)
        return cli_error("%s: %s", path, je.text);
    meas = json_object_get(json_object_get(doc, "measured"), "median");
    ds = json_string_value(json_object_get(doc, "dataset"));
    if (!json_is_number(meas) || !(json_number_value(meas) > 0) || !ds) {
        json_decref(doc);
        return cli_error("%s: no measured time or dataset (run augur predict --measure --json)",
                         path);
    }
    r->measured = json_number_value(meas);
    slash = strrchr(ds, '/');
    snprintf(r->dataset, sizeof(r->dataset), "%s", slash ? slash + 1 : ds);
    if (augur_workload_from_json(json_object_get(doc, "workload"), &r->work, &diag)) {
        json_decref(doc);
        return cli_error("%s: %s", path, diag.msg);
    }
    json_decref(doc);
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

int train_model(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "machine", required_argument, NULL, 'm' }, { "output", required_argument, NULL, 'o' },
        { "holdout", required_argument, NULL, 'k' }, { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },          { NULL, 0, NULL, 0 },
    };
    const char *machine = NULL, *output = NULL;
    unsigned long holdout = 2;
    struct augur_machine *m = NULL, fitted;
    struct augur_diag diag;
    struct augur_fit_run *fr = NULL;
    struct augur_fit_result res;
    struct run *runs = NULL;
    const char **names = NULL;
    size_t n = 0, ntrain = 0, nnames = 0;
    int opt, rc = CLI_FAILED;

    augur_diag_init(&diag);
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        char *end;

        switch (opt) {
        case 'm':
            machine = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case 'k':
            errno = 0;
            holdout = strtoul(optarg, &end, 10);
            if (errno || end == optarg || *end || optarg[0] == '-' || holdout < 2 || holdout > 1000)
                return cli_usage_error("train model", "--holdout needs 2 to 1000, not '%s'",
                                       optarg);
            break;
        case 'j':
            cli_json = true;
            break;
        case 'h':
            train_model_help(stdout);
            return CLI_OK;
        default:
            return cli_usage_error("train model", "unknown or incomplete option '%s'",
                                   argv[optind - 1]);
        }
    }
    if (!machine)
        return cli_usage_error("train model", "missing --machine FILE");
    if (optind >= argc)
        return cli_usage_error("train model", "no runs: give RUN.json files");
    if (augur_machine_load(machine, &m, &diag) != 0)
        return cli_diag_error(&diag);
    n = (size_t)(argc - optind);
    runs = augur_calloc(n, sizeof(*runs));
    names = augur_calloc(n, sizeof(*names));
    for (size_t i = 0; i < n; i++) {
        runs[i].path = argv[optind + (int)i];
        if ((rc = load_run(runs[i].path, &runs[i])) != CLI_OK) {
            n = i;
            goto out;
        }
    }
    /* the held-out datasets: every K-th name in sorted order */
    for (size_t i = 0; i < n; i++) {
        size_t j;

        for (j = 0; j < nnames && strcmp(names[j], runs[i].dataset); j++)
            ;
        if (j == nnames)
            names[nnames++] = runs[i].dataset;
    }
    qsort(names, nnames, sizeof(*names), cmp_str);
    fr = augur_calloc(n, sizeof(*fr));
    for (size_t i = 0; i < n; i++) {
        size_t j;

        for (j = 0; j < nnames && strcmp(names[j], runs[i].dataset); j++)
            ;
        runs[i].test = j % holdout == holdout - 1;
        runs[i].predicted_before = predict_one(m, &runs[i].work);
        if (!runs[i].test) {
            fr[ntrain].work = &runs[i].work;
            fr[ntrain].measured = runs[i].measured;
            ntrain++;
        }
    }
    rc = CLI_FAILED;
    if (ntrain == 0) {
        rc = cli_error("every run is held out: give runs on more datasets or a larger --holdout");
        goto out;
    }
    if (augur_fit_core(m, fr, ntrain, &res, &diag) != 0) {
        rc = cli_diag_error(&diag);
        goto out;
    }
    fitted = *m;
    fitted.core = res.core;
    for (size_t i = 0; i < n; i++)
        runs[i].predicted_after = predict_one(&fitted, &runs[i].work);

    if (output) {
        struct augur_buf buf;
        struct augur_diag wd;

        augur_buf_init(&buf);
        augur_diag_init(&wd);
        augur_buf_printf(
            &buf,
            "# %s with its core section fitted by 'augur train model' to %zu measured\n"
            "# runs on %zu of %zu datasets (1 in %lu held out); mean |ln(pred /\n"
            "# measured)| %.4f before, %.4f after.\n",
            machine, ntrain, nnames - nnames / holdout, nnames, holdout, res.before, res.after);
        augur_machine_dump_buf(&buf, &fitted);
        if (augur_file_write(output, buf.s, buf.len, &wd) != 0) {
            augur_buf_release(&buf);
            rc = cli_diag_error(&wd);
            goto out;
        }
        augur_buf_release(&buf);
    }
    {
        double med[2][2], p90[2][2];
        size_t cnt[2];

        for (int t = 0; t < 2; t++)
            for (int a = 0; a < 2; a++)
                summary(runs, n, t, a, &med[t][a], &p90[t][a], &cnt[t]);
        if (cli_json) {
            json_t *doc = json_pack(
                "{s:s,s:I,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "machine",
                machine, "train_runs", (json_int_t)cnt[0], "test_runs", (json_int_t)cnt[1],
                "train_median_before", med[0][0], "train_median_after", med[0][1],
                "test_median_before", med[1][0], "test_median_after", med[1][1], "test_p90_before",
                p90[1][0], "test_p90_after", p90[1][1], "issue_scale", res.issue_scale, "mlp",
                res.core.mlp, "branch_miss_cycles", res.core.branch_miss_cycles, "region_ns",
                res.core.region_ns, "loads_per_cycle", res.core.loads_per_cycle, "objective_before",
                res.before, "objective_after", res.after);

            rc = cli_print_json(doc);
        } else {
            printf("fitted on %zu runs, held out %zu (1 in %lu of %zu datasets)\n", cnt[0], cnt[1],
                   holdout, nnames);
            printf("core: issue rates x %.3f (loads %.3g, stores %.3g, fp %.3g, int %.3g, width "
                   "%.3g per cycle), mlp %.3g, branch miss %.3g cycles, region %.4g ns\n",
                   res.issue_scale, res.core.loads_per_cycle, res.core.stores_per_cycle,
                   res.core.fp_ops_per_cycle, res.core.int_ops_per_cycle, res.core.issue_width,
                   res.core.mlp, res.core.branch_miss_cycles, res.core.region_ns);
            printf("%-10s %6s %15s %15s %12s %12s\n", "runs", "count", "median before",
                   "median after", "p90 before", "p90 after");
            printf("%-10s %6zu %14.1f%% %14.1f%% %11.1f%% %11.1f%%\n", "fitted", cnt[0],
                   100 * med[0][0], 100 * med[0][1], 100 * p90[0][0], 100 * p90[0][1]);
            printf("%-10s %6zu %14.1f%% %14.1f%% %11.1f%% %11.1f%%\n", "held out", cnt[1],
                   100 * med[1][0], 100 * med[1][1], 100 * p90[1][0], 100 * p90[1][1]);
            printf("\n%-30s %-22s %3s %12s %12s %12s %6s\n", "dataset", "run", "T", "measured",
                   "before", "after", "set");
            for (size_t i = 0; i < n; i++) {
                const char *slash = strrchr(runs[i].path, '/');

                printf("%-30s %-22s %3u %12.4g %12.4g %12.4g %6s\n", runs[i].dataset,
                       slash ? slash + 1 : runs[i].path, runs[i].work.threads, runs[i].measured,
                       runs[i].predicted_before, runs[i].predicted_after,
                       runs[i].test ? "test" : "fit");
            }
            rc = cli_flush_stdout();
        }
    }
out:
    for (size_t i = 0; i < n; i++)
        augur_workload_release(&runs[i].work);
    augur_free(runs);
    augur_free(names);
    augur_free(fr);
    augur_machine_free(m);
    return rc;
}
