/*
 * cmd_calibrate.c - "augur calibrate": measures this machine and writes its
 * machine file (module: cli).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/calibrate.h"
#include "augur/machine.h"
#include "cli.h"

void cmd_calibrate_help(FILE *fp)
{
    fprintf(fp, "usage: augur calibrate [-o FILE|auto] [--quick] [--threads LIST] [--json]\n"
                "       augur calibrate --check FILE [--quick] [--json]\n"
                "       augur calibrate --auto-path\n"
                "\n"
                "Measures this machine with microbenchmarks and writes a machine file\n"
                "(docs/machine.md) that `augur predict --machine FILE` reads: the clock,\n"
                "load/copy/triad bandwidth of each cache level and of memory per thread\n"
                "count, load-to-use latency per level by pointer chasing, the service time\n"
                "versus loads in flight (MLP) curve, and gather/scatter cost. Cache sizes,\n"
                "lines and associativity come from the OS (hwloc); the last level's size\n"
                "is checked against the latency curve, and where they disagree it is the\n"
                "largest working set a load streams nearer the level's rate than memory's\n"
                "(a full run: the passes' best sweep; docs/cli/calibrate.md). The run\n"
                "measures everything in three passes, one after the other, and gives each\n"
                "value's best pass; a value a prediction reads whose passes differ by more\n"
                "than 10 %% is measured in up to two more, and flagged UNSTABLE in the file\n"
                "and on standard error when they still do. The file's comments name the\n"
                "benchmark and the spreads. A full run takes a few minutes on 2 cores.\n"
                "It also asks the C compiler that `augur measure` uses ($CC, else cc)\n"
                "whether it keeps a loop-carried multiply-add fused (core.fused_chains).\n"
                "\n"
                "options:\n"
                "  -o, --output FILE  write the machine file there (default: standard output);\n"
                "                     'auto': the file `--machine auto` reads on this host\n"
                "  --auto-path        print that file's path and exit: it is named after the\n"
                "                     processor (vendor, model, stepping, CPUs, caches), so a\n"
                "                     host of another type gets its own calibration\n"
                "  --quick            fewer sizes and repetitions: a few seconds, rougher\n"
                "  --threads LIST     thread counts to measure, e.g. 1,2,4 (default: 1 to the\n"
                "                     number of cores)\n"
                "  --check FILE       measure this host and compare: which values of FILE\n"
                "                     drifted by more than 10 %% (exit 1 when some did, or\n"
                "                     when FILE was measured on another host)\n"
                "  --json             print every measurement, curves included, as JSON on\n"
                "                     standard output (the file is still written with -o)\n"
                "  -h, --help         print this help\n");
}

/* "1,2,4" into opts->threads. Returns 0 or CLI_USAGE. */
static int parse_threads(const char *arg, struct augur_calib_opts *opts)
{
    const char *p = arg;

    opts->nthreads = 0;
    while (*p) {
        char *end;
        unsigned long v;

        errno = 0;
        if (*p < '0' || *p > '9')
            return cli_usage_error("calibrate",
                                   "--threads: expected a list such as 1,2,4, got '%s'", arg);
        v = strtoul(p, &end, 10);
        if (errno || v == 0 || v > 1024)
            return cli_usage_error("calibrate", "--threads: %.*s is out of range [1, 1024]",
                                   (int)(end - p), p);
        if (opts->nthreads == AUGUR_CALIB_MAX_THREADS)
            return cli_usage_error("calibrate", "--threads: at most %d thread counts",
                                   AUGUR_CALIB_MAX_THREADS);
        opts->threads[opts->nthreads++] = (uint32_t)v;
        if (*end == ',' && end[1])
            end++;
        else if (*end)
            return cli_usage_error("calibrate",
                                   "--threads: expected a list such as 1,2,4, got '%s'", arg);
        p = end;
    }
    if (opts->nthreads == 0)
        return cli_usage_error("calibrate", "--threads: empty list");
    return 0;
}

static void show_progress(void *ud, const char *stage, int done, int total)
{
    int *width = ud;
    int n = fprintf(stderr, "\rcalibrating: %3d%%  %s", total ? 100 * done / total : 0, stage);

    /* Blank out what a longer line before left behind. */
    for (int i = n; i < *width; i++)
        fputc(' ', stderr);
    if (n > *width)
        *width = n;
    fflush(stderr);
}

static json_t *stat_json(const struct augur_calib_stat *st)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:i, s:i}", "best", st->best, "median", st->median,
                     "min", st->min, "max", st->max, "reps", (json_int_t)st->reps, "preempted",
                     (json_int_t)st->preempted);
}

static json_t *curve_json(const struct augur_calib_curve *cv, const char *x, const char *y)
{
    json_t *a = json_array();

    for (uint32_t i = 0; i < cv->n; i++) {
        json_t *p = stat_json(&cv->y[i]);

        json_object_set_new(p, x, json_real(cv->x[i]));
        json_object_set_new(p, "unit", json_string(y));
        json_array_append_new(a, p);
    }
    return a;
}

/* {"load": {"1": stat, "2": stat}, "copy": ..., "triad": ...} */
static json_t *bw_json(const struct augur_calib_result *r,
                       const struct augur_calib_stat bw[][AUGUR_CALIB_MAX_THREADS])
{
    json_t *o = json_object();

    for (int k = 0; k < AUGUR_CALIB_NKERNELS; k++) {
        json_t *byt = json_object();

        for (uint32_t t = 0; t < r->nthreads; t++) {
            char key[16];

            snprintf(key, sizeof(key), "%u", r->threads[t]);
            json_object_set_new(byt, key, stat_json(&bw[k][t]));
        }
        json_object_set_new(o, augur_calib_kernel_name(k), byt);
    }
    return o;
}

/* Each cache level: its sizes and geometry, the working sets, latency and bandwidth. */
static json_t *caches_json(const struct augur_calib_result *r)
{
    json_t *caches = json_array();

    for (uint32_t i = 0; i < r->ncaches; i++) {
        const struct augur_calib_cache *cc = &r->caches[i];
        json_t *c = json_object();

        json_object_set_new(c, "name", json_string(cc->name));
        json_object_set_new(c, "size", json_integer((json_int_t)cc->size));
        json_object_set_new(c, "os_size", json_integer((json_int_t)cc->os_size));
        json_object_set_new(c, "size_measured", json_boolean(cc->size_measured));
        if (cc->streamed_to)
            json_object_set_new(c, "streamed_to", json_integer((json_int_t)cc->streamed_to));
        json_object_set_new(c, "line", json_integer(cc->line));
        json_object_set_new(c, "ways", json_integer(cc->ways));
        json_object_set_new(c, "shared_by", json_integer(cc->shared_by));
        json_object_set_new(c, "chase_bytes", json_integer((json_int_t)cc->ws_chase));
        json_object_set_new(c, "stream_bytes_per_thread", json_integer((json_int_t)cc->ws_thread));
        json_object_set_new(c, "latency_ns", stat_json(&cc->latency_ns));
        json_object_set_new(c, "bandwidth_gbs", bw_json(r, cc->bw));
        json_array_append_new(caches, c);
    }
    return caches;
}

/* The bandwidth sweep: at each working set, each kernel's bandwidth by thread count. */
static json_t *sweep_json(const struct augur_calib_result *r)
{
    json_t *sweep = json_array();

    for (uint32_t p = 0; p < r->nsweep; p++) {
        json_t *pt = json_object();

        json_object_set_new(pt, "bytes", json_integer((json_int_t)r->sweep_bytes[p]));
        for (int k = 0; k < AUGUR_CALIB_NKERNELS; k++) {
            json_t *byt = json_object();

            for (uint32_t t = 0; t < r->nthreads; t++) {
                char key[16];

                snprintf(key, sizeof(key), "%u", r->threads[t]);
                json_object_set_new(byt, key, stat_json(&r->sweep[k][t][p]));
            }
            json_object_set_new(pt, augur_calib_kernel_name(k), byt);
        }
        json_array_append_new(sweep, pt);
    }
    return sweep;
}

static json_t *result_json(const struct augur_calib_result *r, const char *path)
{
    json_t *o = json_object(), *t = json_array();

    json_object_set_new(o, "file", path ? json_string(path) : json_null());
    json_object_set_new(o, "date", json_string(r->date));
    json_object_set_new(o, "host", json_string(r->host));
    json_object_set_new(o, "cpu_model", json_string(r->cpu_model));
    json_object_set_new(o, "cpu_vendor", json_string(r->cpu_vendor));
    json_object_set_new(o, "topology_source", json_string(r->topology_source));
    json_object_set_new(o, "cores", json_integer(r->cores));
    json_object_set_new(o, "threads_per_core", json_integer(r->threads_per_core));
    json_object_set_new(o, "avx512", json_boolean(r->avx512));
    json_object_set_new(o, "simd_bits", json_integer(r->simd_bits));
    json_object_set_new(o, "quick", json_boolean(r->quick));
    json_object_set_new(o, "reps", json_integer(r->reps));
    json_object_set_new(o, "min_rep_seconds", json_real(r->min_rep_seconds));
    json_object_set_new(o, "seconds", json_real(r->seconds));
    json_object_set_new(o, "os_mhz", json_real(r->os_mhz));
    json_object_set_new(o, "clock_ghz", stat_json(&r->clock_ghz));
    for (uint32_t i = 0; i < r->nthreads; i++)
        json_array_append_new(t, json_integer(r->threads[i]));
    json_object_set_new(o, "threads", t);
    json_object_set_new(o, "caches", caches_json(r));
    json_object_set_new(
        o, "memory",
        json_pack("{s:I, s:I, s:o, s:o, s:o}", "chase_bytes", (json_int_t)r->mem_ws_chase,
                  "stream_bytes", (json_int_t)r->mem_ws_thread, "latency_ns",
                  stat_json(&r->mem_latency_ns), "bandwidth_gbs", bw_json(r, r->mem_bw), "mlp",
                  curve_json(&r->mlp, "chains", "ns between completions")));
    json_object_set_new(o, "latency_curve", curve_json(&r->latency, "bytes", "ns"));
    json_object_set_new(o, "gather_curve", curve_json(&r->gather, "range_bytes", "ns per element"));
    json_object_set_new(o, "load_ns_per_element", stat_json(&r->load_ns_per_element));
    json_object_set_new(o, "gather_cycles_per_element", stat_json(&r->gather_cycles));
    json_object_set_new(o, "scatter_cycles_per_element", stat_json(&r->scatter_cycles));
    json_object_set_new(o, "chain_cycles", stat_json(&r->chain_cycles));
    json_object_set_new(o, "fadd_latency", stat_json(&r->fadd_cycles));
    if (r->fma_cycles.best > 0)
        json_object_set_new(o, "fma_latency", stat_json(&r->fma_cycles));
    json_object_set_new(o, "fdiv_cycles", stat_json(&r->fdiv_cycles));
    json_object_set_new(o, "fused_chains",
                        r->fused_chains < 0 ? json_null() : json_boolean(r->fused_chains));
    json_object_set_new(o, "atomic_cycles", stat_json(&r->atomic_cycles));
    json_object_set_new(o, "atomic_mlp", stat_json(&r->atomic_mlp));
    json_object_set_new(o, "branch_miss_cycles", stat_json(&r->branch_miss_cycles));
    json_object_set_new(o, "branch_run_cycles",
                        curve_json(&r->branch_run_cycles, "mean run", "cycles per rare outcome"));
    json_object_set_new(o, "branch_run_left",
                        curve_json(&r->branch_run_left, "mean run", "share left"));
    json_object_set_new(o, "chain_runs",
                        curve_json(&r->chain_runs, "run length", "cycles per update"));
    json_object_set_new(o, "first_touch", curve_json(&r->first_touch, "bytes", "ns per page"));
    json_object_set_new(o, "streams", curve_json(&r->streams, "streams", "ns per line"));
    json_object_set_new(o, "prefetch_streams",
                        json_integer(augur_calib_prefetch_streams(&r->streams)));
    json_object_set_new(o, "branch_learned",
                        curve_json(&r->branch_learned, "mispredictions per repeat", "share left"));
    if (r->region1_ns.best > 0)
        json_object_set_new(o, "region1_ns", stat_json(&r->region1_ns));
    if (r->region_threads >= 2) {
        json_object_set_new(o, "region_threads", json_integer(r->region_threads));
        json_object_set_new(o, "region_ns", stat_json(&r->region_ns));
        json_object_set_new(o, "chunk_ns", stat_json(&r->chunk_ns));
        json_object_set_new(o, "transfer", curve_json(&r->transfer, "loads in flight", "ns"));
    }
    json_object_set_new(o, "bandwidth_sweep_gbs", sweep_json(r));
    return o;
}

/* ---- --check ------------------------------------------------------------------------------ */

/* A value beyond this share of the file's has drifted. */
#define DRIFT 0.10

struct drift {
    json_t *values;
    unsigned n, drifted;
};

static void compare(struct drift *d, const char *name, double file, double now)
{
    double change = file > 0 ? now / file - 1 : 0;
    bool drifted = file > 0 && now > 0 && fabs(change) > DRIFT;

    if (!(file > 0) || !(now > 0))
        return;
    d->n++;
    d->drifted += drifted;
    if (cli_json) {
        json_array_append_new(d->values,
                              json_pack("{s:s,s:f,s:f,s:f,s:b}", "value", name, "file", file, "now",
                                        now, "change", change, "drifted", drifted));
        return;
    }
    printf("%-28s %12.4g %12.4g %+8.1f%%%s\n", name, file, now, 100 * change,
           drifted ? "  drifted" : "");
}

static double bw_at(const struct augur_bw_point *bw, uint32_t n, uint32_t threads)
{
    for (uint32_t i = 0; i < n; i++)
        if (bw[i].threads == threads)
            return bw[i].gbs;
    return 0;
}

/* Every value of file that a prediction reads, against this host's measurement now. */
static void compare_machines(struct drift *d, const struct augur_machine *f,
                             const struct augur_machine *m)
{
    const struct augur_machine_core *fc = &f->core, *mc = &m->core;
    char name[64];

    compare(d, "clock_ghz", f->clock_ghz, m->clock_ghz);
    for (uint32_t i = 0; i < f->ncaches; i++) {
        const struct augur_machine_cache *a = &f->caches[i];
        const struct augur_machine_cache *b = augur_machine_cache_find(m, a->name);

        if (!b)
            continue;
        snprintf(name, sizeof(name), "%s.size_kib", a->name);
        compare(d, name, (double)a->size / 1024, (double)b->size / 1024);
        snprintf(name, sizeof(name), "%s.latency_ns", a->name);
        compare(d, name, a->latency_ns, b->latency_ns);
        for (uint32_t k = 0; k < a->nbandwidth; k++) {
            snprintf(name, sizeof(name), "%s.bandwidth_gbs.%u", a->name, a->bandwidth[k].threads);
            compare(d, name, a->bandwidth[k].gbs,
                    bw_at(b->bandwidth, b->nbandwidth, a->bandwidth[k].threads));
        }
    }
    compare(d, "memory.latency_ns", f->memory.latency_ns, m->memory.latency_ns);
    for (uint32_t k = 0; k < f->memory.nbandwidth; k++) {
        snprintf(name, sizeof(name), "memory.bandwidth_gbs.%u", f->memory.bandwidth[k].threads);
        compare(d, name, f->memory.bandwidth[k].gbs,
                bw_at(m->memory.bandwidth, m->memory.nbandwidth, f->memory.bandwidth[k].threads));
    }
    for (uint32_t k = 0; k < f->memory.nmlp; k++)
        for (uint32_t j = 0; j < m->memory.nmlp; j++)
            if (m->memory.mlp[j].m == f->memory.mlp[k].m) {
                snprintf(name, sizeof(name), "memory.mlp.%g", f->memory.mlp[k].m);
                compare(d, name, f->memory.mlp[k].ns, m->memory.mlp[j].ns);
            }
    compare(d, "core.chain_cycles", fc->chain_cycles, mc->chain_cycles);
    compare(d, "core.branch_miss_cycles", fc->branch_miss_cycles, mc->branch_miss_cycles);
    compare(d, "core.fadd_latency", fc->fadd_latency, mc->fadd_latency);
    compare(d, "core.fma_latency", fc->fma_latency, mc->fma_latency);
    compare(d, "core.atomic_cycles", fc->atomic_cycles, mc->atomic_cycles);
    compare(d, "core.region1_ns", fc->region1_ns, mc->region1_ns);
    compare(d, "core.region_ns", fc->region_ns, mc->region_ns);
    compare(d, "simd.gather_cycles", f->simd.gather_cycles_per_element,
            m->simd.gather_cycles_per_element);
    compare(d, "simd.scatter_cycles", f->simd.scatter_cycles_per_element,
            m->simd.scatter_cycles_per_element);
}

/*
 * calibrate --check FILE: measures this host as calibrate would and says which values of FILE
 * drifted by more than DRIFT. Exit 0 when none did, 1 when some did or the file is another
 * host's.
 */
static int check(const char *file, struct augur_calib_opts *opts)
{
    struct augur_machine *f = NULL, *m = NULL;
    struct augur_calib_result *res = NULL;
    struct augur_diag diag;
    struct augur_buf text;
    struct drift d = { NULL, 0, 0 };
    char id[32];
    bool other;
    int rc;

    augur_diag_init(&diag);
    augur_buf_init(&text);
    if (augur_machine_load(file, &f, &diag) != 0)
        return cli_diag_error(&diag);
    augur_calib_host_id(id, sizeof(id));
    other = f->host_id && strcmp(f->host_id, id) != 0;
    if (f->kind != AUGUR_MACHINE_CPU) {
        rc = cli_error("%s: machine '%s' is a %s: calibrate --check compares a CPU file with this "
                       "host",
                       file, f->name, augur_machine_kind_name(f->kind));
        goto out;
    }
    if (augur_calibrate(opts, &res, &diag) != 0) {
        rc = cli_diag_error(&diag);
        goto out;
    }
    augur_calib_yaml(res, &text);
    if (augur_machine_parse(text.s, text.len, "<calibrate>", &m, &diag) != 0) {
        rc = cli_diag_error(&diag);
        goto out;
    }
    if (cli_json)
        d.values = json_array();
    else
        printf("%s (%s) against this host (%s), measured now%s:\n%-28s %12s %12s %9s\n", file,
               f->name, id, opts->quick ? " with --quick" : "", "value", "file", "now", "change");
    compare_machines(&d, f, m);
    if (cli_json) {
        json_t *doc = json_pack("{s:s,s:s*,s:s,s:b,s:o,s:i,s:i,s:f}", "file", file, "file_host_id",
                                f->host_id, "host_id", id, "same_host", !other, "values", d.values,
                                "compared", (int)d.n, "drifted", (int)d.drifted, "limit", DRIFT);

        rc = cli_print_json(doc);
    } else {
        printf("%u of %u values drifted by more than %.0f %%%s\n", d.drifted, d.n, 100 * DRIFT,
               res->nunstable ? " (some of this run's own values are unstable: the machine is "
                                "busy)"
                              : "");
        if (other)
            printf("%s was measured on another host (%s; this one is %s)\n", file, f->host_id, id);
        rc = CLI_OK;
    }
    if (rc == CLI_OK && (d.drifted || other))
        rc = CLI_FAILED;
out:
    augur_buf_release(&text);
    augur_calib_free(res);
    augur_machine_free(m);
    augur_machine_free(f);
    return rc;
}

/* Adds name to the list in ud (a struct augur_buf). */
static void add_name(void *ud, const char *name)
{
    struct augur_buf *b = ud;

    augur_buf_printf(b, "%s%s", b->len ? ", " : "", name);
}

/* Names, in one warning, the values a prediction reads that the run measured unstable. */
static void warn_unstable(const struct augur_calib_result *res)
{
    struct augur_buf names;

    augur_buf_init(&names);
    augur_calib_each_unstable(res, add_name, &names);
    if (names.len)
        cli_warning("unstable (the passes differ by more than %g %%: is the machine busy?): %s",
                    AUGUR_CALIB_UNSTABLE * 100, names.s);
    augur_buf_release(&names);
}

/* The options of calibrate. */
struct calib_args {
    struct augur_calib_opts opts;
    const char *path;       /* -o FILE, or NULL: standard output */
    const char *check_file; /* --check FILE */
    bool print_auto;        /* --auto-path */
    char auto_path[PATH_MAX];
};

/* The options: CLI_OK, -1 after --help, or an exit status. */
static int parse_args(int argc, char **argv, struct calib_args *a)
{
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },  { "quick", no_argument, NULL, 'q' },
        { "threads", required_argument, NULL, 't' }, { "json", no_argument, NULL, 'j' },
        { "auto-path", no_argument, NULL, 'a' },     { "check", required_argument, NULL, 'c' },
        { "help", no_argument, NULL, 'h' },          { NULL, 0, NULL, 0 },
    };
    int opt, rc;

    memset(a, 0, sizeof(*a));
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'o':
            a->path = optarg;
            break;
        case 'q':
            a->opts.quick = true;
            break;
        case 't':
            rc = parse_threads(optarg, &a->opts);
            if (rc)
                return rc;
            break;
        case 'j':
            cli_json = true;
            break;
        case 'a':
            a->print_auto = true;
            break;
        case 'c':
            a->check_file = optarg;
            break;
        case 'h':
            cmd_calibrate_help(stdout);
            return -1;
        default:
            return cli_usage_error("calibrate", "unknown or incomplete option '%s'",
                                   argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_usage_error("calibrate", "unexpected argument '%s'", argv[optind]);
    return CLI_OK;
}

/*
 * Where the machine file goes: -o auto is the file --machine auto reads on
 * this host (--auto-path prints its path, and that is all). Returns CLI_OK
 * with a->path set (NULL: standard output), -1 when done, or an exit status.
 */
static int output_path(struct calib_args *a)
{
    if (a->print_auto || (a->path && strcmp(a->path, "auto") == 0)) {
        if (!cli_auto_machine_path(a->auto_path, sizeof(a->auto_path), !a->print_auto))
            return CLI_FAILED;
        if (a->print_auto) {
            printf("%s\n", a->auto_path);
            return -1;
        }
        a->path = a->auto_path;
    }
    if (cli_json && (!a->path || strcmp(a->path, "-") == 0))
        return cli_usage_error("calibrate", "--json prints to standard output: give -o FILE");
    return CLI_OK;
}

/* What we write must be a machine the loader accepts. */
static int check_loads(const struct augur_buf *text, const char *path)
{
    struct augur_machine *m = NULL;
    struct augur_diag diag;
    char msg[1200];
    int rc;

    augur_diag_init(&diag);
    rc = augur_machine_parse(text->s, text->len, path ? path : "<calibrate>", &m, &diag);
    augur_machine_free(m);
    if (rc == 0)
        return CLI_OK;
    augur_diag_format(&diag, msg, sizeof(msg));
    return cli_error("the machine file written does not load (a bug): %s", msg);
}

/* The cache levels whose size the latency curve corrects. */
static void warn_cache_sizes(const struct augur_calib_result *res)
{
    for (uint32_t i = 0; i < res->ncaches; i++) {
        if (res->caches[i].size_measured && res->caches[i].streamed_to)
            cli_warning("the OS reports %s = %llu KiB, but the latency curve is as slow as "
                        "memory well before that; a load streams at the cache's rate up to "
                        "%llu KiB, which the file gives",
                        res->caches[i].name, (unsigned long long)(res->caches[i].os_size >> 10),
                        (unsigned long long)(res->caches[i].size >> 10));
        else if (res->caches[i].size_measured)
            cli_warning("the OS reports %s = %llu KiB, but working sets well inside that are as "
                        "slow as memory; the file gives %llu KiB from the latency curve",
                        res->caches[i].name, (unsigned long long)(res->caches[i].os_size >> 10),
                        (unsigned long long)(res->caches[i].size >> 10));
    }
}

/* Measures this machine (the progress on a terminal) and writes its machine file to a->path. */
static int calibrate_to(struct calib_args *a)
{
    struct augur_calib_result *res = NULL;
    struct augur_diag diag;
    struct augur_buf text;
    struct augur_out fout;
    int rc, width = 0;

    /* Open the output first: a path that cannot be written fails before the run. */
    augur_diag_init(&diag);
    memset(&fout, 0, sizeof(fout));
    if (augur_out_open(&fout, a->path ? a->path : "-", &diag))
        return cli_diag_error(&diag);
    if (isatty(STDERR_FILENO)) {
        a->opts.progress = show_progress;
        a->opts.progress_ud = &width;
    }
    augur_buf_init(&text);
    rc = augur_calibrate(&a->opts, &res, &diag);
    if (a->opts.progress)
        fprintf(stderr, "\r%*s\r", width, "");
    if (rc) {
        rc = cli_diag_error(&diag);
        goto out;
    }
    augur_calib_yaml(res, &text);
    if ((rc = check_loads(&text, a->path)) != CLI_OK)
        goto out;
    warn_unstable(res);
    warn_cache_sizes(res);
    if (fwrite(text.s, 1, text.len, fout.fp) != text.len || augur_out_commit(&fout, &diag)) {
        rc = diag.code ? cli_diag_error(&diag)
                       : cli_error("cannot write '%s'", a->path ? a->path : "standard output");
        goto out;
    }
    rc = cli_json ? cli_print_json(result_json(res, a->path)) : CLI_OK;
out:
    augur_out_abort(&fout);
    augur_buf_release(&text);
    augur_calib_free(res);
    return rc;
}

int cmd_calibrate(int argc, char **argv)
{
    struct calib_args a;
    int rc = parse_args(argc, argv, &a);

    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (a.check_file) {
        if (a.path || a.print_auto)
            return cli_usage_error("calibrate", "--check writes no file: no -o or --auto-path");
        return check(a.check_file, &a.opts);
    }
    rc = output_path(&a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    return calibrate_to(&a);
}
