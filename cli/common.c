/*
 * common.c - error reporting, dispatch, dataset options, the machine file and
 * the kernel's skeleton, shared by the subcommands (module: cli).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static int report(int status, const char *kind, const char *fmt, va_list ap) AUGUR_PRINTF(3, 0);

static int report(int status, const char *kind, const char *fmt, va_list ap)
{
    char msg[2048];

    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (cli_json) {
        json_t *doc = json_pack("{s:s}", "error", msg);

        json_dumpf(doc, stdout, JSON_COMPACT);
        fputc('\n', stdout);
        fflush(stdout);
        json_decref(doc);
    } else {
        fprintf(stderr, "augur: %s: %s\n", kind, msg);
    }
    return status;
}

int cli_error(const char *fmt, ...)
{
    va_list ap;
    int rc;

    cli_progress_done(); /* the message on a line of its own */
    va_start(ap, fmt);
    rc = report(CLI_FAILED, "error", fmt, ap);
    va_end(ap);
    return rc;
}

int cli_diag_error(const struct augur_diag *diag)
{
    char msg[1200];

    augur_diag_format(diag, msg, sizeof(msg));
    return cli_error("%s", msg);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cli_error("%s", msg);
    if (!cli_json)
        fprintf(stderr, "see 'augur %s%s--help'\n", cmd ? cmd : "", cmd ? " " : "");
    return CLI_USAGE;
}

void cli_warning(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "augur: warning: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_dispatch(const struct cli_cmd *table, int argc, char **argv, const char *prefix,
                 void (*help)(FILE *fp))
{
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        help(argc < 1 ? stderr : stdout);
        return argc < 1 ? CLI_USAGE : CLI_OK;
    }
    for (const struct cli_cmd *c = table; c->name; c++) {
        if (strcmp(argv[0], c->name) != 0)
            continue;
        if (argc > 1 && c->help && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
            c->help(stdout);
            return CLI_OK;
        }
        optind = 0; /* glibc: restart getopt for this argv */
        return c->run(argc, argv);
    }
    return cli_usage_error(strcmp(prefix, "augur") == 0 ? NULL : prefix + 6,
                           "'%s' is not a command of '%s'", argv[0], prefix);
}

int cli_print_json(json_t *doc)
{
    int rc;

    if (!doc)
        return cli_error("cannot build the JSON result");
    rc = json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    fputc('\n', stdout);
    json_decref(doc);
    if (rc != 0 || fflush(stdout) != 0)
        return cli_error("cannot write the result to standard output");
    return CLI_OK;
}

int cli_flush_stdout(void)
{
    return fflush(stdout) == 0 ? CLI_OK : cli_error("cannot write to standard output");
}

int cli_kernel_option(const char *cmd, int opt, const char *arg, struct cli_kernel_args *k)
{
    uint64_t v = 0;

    switch (opt) {
    case 0x110:
        k->data = arg;
        return 1;
    case 0x111:
        k->function = arg;
        return 1;
    case 0x112:
        k->bind = arg;
        return 1;
    case CLI_OPT_MACHINE:
        k->machine = arg;
        return 1;
    case 0x114:
        k->source = arg;
        return 1;
    case 0x115:
    case 'p': /* -p BUILD_DIR, as clang's tools take it */
        k->compile_commands = arg;
        return 1;
    case 0x116:
        if (cli_parse_u64(cmd, "--ell-width", arg, 1, UINT32_MAX, &v))
            return CLI_USAGE;
        k->ell_width = (uint32_t)v;
        return 1;
    case 0x117:
        k->stored_only = true;
        return 1;
    case 0x119:
        k->templ = arg;
        return 1;
    case 0x11A:
        k->no_shim = true;
        return 1;
    case 0x11B:
        if (cli_parse_u64(cmd, "--tile-size", arg, 1, UINT32_MAX, &v))
            return CLI_USAGE;
        k->tile_size = (uint32_t)v;
        return 1;
    case CLI_OPT_QUIET:
        cli_quiet = true;
        return 1;
    }
    return 0;
}

int cli_load_option(const char *cmd, int opt, const char *arg, struct augur_load_opts *opts)
{
    char *end;

    switch (opt) {
    case 0x100:
        if (augur_format_parse(arg, &opts->format) != 0)
            return cli_usage_error(cmd, "unknown format '%s'", arg);
        return 1;
    case 0x101:
        opts->undirected = true;
        return 1;
    case 0x102:
        if (strcmp(arg, "0") != 0 && strcmp(arg, "1") != 0)
            return cli_usage_error(cmd, "--base must be 0 or 1, not '%s'", arg);
        opts->index_base = arg[0] - '0';
        opts->base_given = true;
        return 1;
    case 0x103: {
        unsigned long long v;

        errno = 0;
        v = strtoull(arg, &end, 10);
        if (errno || end == arg || *end || arg[0] == '-')
            return cli_usage_error(cmd, "--max-bytes needs a byte count, not '%s'", arg);
        opts->max_bytes = (size_t)v;
        return 1;
    }
    }
    return 0;
}

int cli_load_dataset(const char *path, const struct augur_load_opts *opts,
                     struct augur_dataset **out)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (augur_dataset_load(path, opts, out, &diag) != 0)
        return cli_diag_error(&diag);
    return CLI_OK;
}

/*
 * --machine auto: this machine, calibrated once (augur calibrate --quick)
 * and kept in $XDG_CACHE_HOME/augur/machine-ID.yml (else ~/.cache/augur/),
 * ID naming the host's processor (augur_calib_host_id): a VM moved to
 * another host type, or nodes of several types sharing a home folder, each
 * get their own calibration.
 */
bool cli_auto_machine_path(char *path, size_t size, bool make_dir)
{
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char id[32], dir[PATH_MAX];
    int len;

    if (cache && *cache)
        len = snprintf(dir, sizeof(dir), "%s/augur", cache);
    else if (home && *home)
        len = snprintf(dir, sizeof(dir), "%s/.cache/augur", home);
    else {
        cli_error("--machine auto: neither XDG_CACHE_HOME nor HOME is set; give --machine FILE");
        return false;
    }
    augur_calib_host_id(id, sizeof(id));
    if (len <= 0 || (size_t)len >= sizeof(dir) ||
        (size_t)snprintf(path, size, "%s/machine-%s.yml", dir, id) >= size) {
        cli_error("--machine auto: the cache folder's path is too long");
        return false;
    }
    if (!make_dir)
        return true;
    /* make the folder and its parents (~/.cache may not exist yet) */
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(dir, 0755);
            *s = '/';
        }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        cli_error("cannot create %s: %s", dir, strerror(errno));
        return false;
    }
    return true;
}

/*
 * Whether the cached calibration at path was made by this augur's method
 * (its first line names it): an older one is measured again.
 */
static bool current_method(const char *path)
{
    char line[512], want[32];
    FILE *f = fopen(path, "r");
    bool ok;

    if (!f)
        return false;
    ok = fgets(line, sizeof(line), f) != NULL;
    fclose(f);
    snprintf(want, sizeof(want), ", method %d)", AUGUR_CALIB_METHOD);
    return ok && strstr(line, want) != NULL;
}

static bool auto_machine(char *path, size_t size)
{
    struct augur_calib_opts co;
    struct augur_calib_result *res = NULL;
    struct augur_diag diag;
    struct augur_buf buf;
    bool ok;

    if (!cli_auto_machine_path(path, size, false))
        return false;
    if (access(path, R_OK) == 0 && current_method(path))
        return true;
    if (!cli_auto_machine_path(path, size, true))
        return false;
    fprintf(stderr, "augur: calibrating this machine %s (augur calibrate --quick) into %s\n",
            access(path, R_OK) == 0 ? "again, its cached calibration made the old way" : "once",
            path);
    memset(&co, 0, sizeof(co));
    co.quick = true;
    augur_diag_init(&diag);
    if (augur_calibrate(&co, &res, &diag) != 0) {
        cli_diag_error(&diag);
        return false;
    }
    augur_buf_init(&buf);
    augur_calib_yaml(res, &buf);
    ok = augur_file_write(path, buf.s, buf.len, &diag) == 0;
    if (!ok)
        cli_diag_error(&diag);
    augur_buf_release(&buf);
    augur_calib_free(res);
    return ok;
}

bool cli_find_shipped(const char *given, const char *envvar, const char *name, char *path,
                      size_t size)
{
    static const char *const dirs[] = { "../samples", "../share/augur", "../../samples" };
    const char *env = envvar ? getenv(envvar) : NULL;
    char exe[PATH_MAX];
    ssize_t n;

    if (given || (env && *env)) {
        snprintf(path, size, "%s", given ? given : env);
        return true;
    }
    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return false;
    exe[n] = '\0';
    if (strrchr(exe, '/'))
        *strrchr(exe, '/') = '\0';
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        int len = snprintf(path, size, "%s/%s/%s", exe, dirs[i], name);

        if (len > 0 && (size_t)len < size && access(path, R_OK) == 0)
            return true;
    }
    return false;
}

bool cli_find_machine(const char *given, char *path, size_t size)
{
    const char *env = getenv("AUGUR_MACHINE");
    const char *want = given ? given : env && *env ? env : "auto";

    if (strcmp(want, "auto") == 0)
        return auto_machine(path, size);
    snprintf(path, size, "%s", want);
    return true;
}

int cli_machine_host_check(const struct augur_machine *m, bool measuring)
{
    char id[32];

    if (m->kind != AUGUR_MACHINE_CPU)
        return CLI_OK;
    augur_calib_host_id(id, sizeof(id));
    if (m->host_id && strcmp(m->host_id, id) != 0) {
        if (measuring)
            return cli_error("%s was measured on another host (%s; this one is %s): a time "
                             "measured here says nothing of its prediction; use --machine auto "
                             "or a file calibrated here",
                             m->path, m->host_id, id);
        cli_warning("%s was measured on another host (%s; this one is %s): the prediction is for "
                    "that host",
                    m->path, m->host_id, id);
    } else if (!m->host_id && measuring) {
        cli_warning("%s does not say which host it was measured on: the error compares its "
                    "machine with this host (--machine auto calibrates this one)",
                    m->path);
    }
    return CLI_OK;
}

/* A front-end diagnostic goes to stderr as the compiler's would; errors are counted. */
static void on_fe_diag(void *ud, const struct augur_diag *d, bool error)
{
    unsigned *errors = ud;
    char msg[1200];

    augur_diag_format(d, msg, sizeof(msg));
    fprintf(stderr, "%s\n", msg);
    if (error)
        (*errors)++;
}

const char *cli_compdb_dir(const char *path, char *dir, size_t size)
{
    const char *base;

    if (!path)
        return NULL;
    base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(dir, size, "%s", path);
    if (!strcmp(base, "compile_commands.json")) {
        dir[base - path] = '\0';
        if (base - path > 1)
            dir[base - path - 1] = '\0'; /* "d/" -> "d", "/" stays */
        if (!dir[0])
            snprintf(dir, size, ".");
        return dir;
    }
    return augur_str_ends_with(base, ".json") ? NULL : dir;
}

int cli_fe_parse(const char *path, struct augur_fe_opts *fo, struct augur_skel **skel)
{
    struct augur_diag diag;
    struct augur_fe *fe = NULL;
    unsigned errors = 0;
    int rc = CLI_OK;

    augur_diag_init(&diag);
    fo->on_diag = on_fe_diag;
    fo->ud = &errors;
    if (augur_fe_new(&fe, &diag) != 0)
        return cli_diag_error(&diag);
    if (augur_fe_parse(fe, path, fo, skel, &diag) != 0) {
        if (diag.code == AUGUR_EPARSE && errors)
            rc = cli_error("'%s' does not compile (%u error%s)", path, errors,
                           errors == 1 ? "" : "s");
        else
            rc = cli_diag_error(&diag);
    }
    augur_fe_free(fe);
    return rc;
}

static int build_skeleton(const struct cli_kernel_opts *ko, const char *path, int nargs,
                          char **args, struct augur_skel **skel)
{
    char dir[PATH_MAX];
    struct augur_diag diag;
    struct augur_fe_opts fo;

    augur_diag_init(&diag);
    if (augur_str_ends_with(path, ".skel")) {
        if (nargs)
            return cli_usage_error(ko->cmd, "compiler arguments need a source file");
        if (augur_skel_load(path, skel, &diag) != 0)
            return cli_diag_error(&diag);
        if ((ko->bind && augur_skel_bind(*skel, NULL, ko->bind, AUGUR_BIND_CLI, &diag) != 0) ||
            augur_skel_infer_bindings(*skel, &diag) != 0) {
            augur_skel_free(*skel);
            *skel = NULL;
            return cli_diag_error(&diag);
        }
        return CLI_OK;
    }
    memset(&fo, 0, sizeof(fo));
    fo.args = (const char *const *)args;
    fo.nargs = (size_t)nargs;
    fo.function = ko->function;
    fo.bind = ko->bind;
    fo.templ = ko->templ;
    fo.no_shim = ko->no_shim;
    fo.launch = ko->launch;
    fo.build_dir = cli_compdb_dir(ko->compile_commands, dir, sizeof(dir));
    return cli_fe_parse(path, &fo, skel);
}

int cli_load_kernel(const struct cli_kernel_opts *ko, const char *path, int nargs, char **args,
                    struct augur_skel **skel, const struct augur_node **kernel)
{
    int rc = build_skeleton(ko, path, nargs, args, skel);

    if (rc)
        return rc;
    if (ko->function) {
        *kernel = augur_skel_find_kernel(*skel, ko->function);
        if (!*kernel)
            rc = cli_error("no kernel '%s' in '%s'", ko->function, path);
    } else if ((*skel)->nkernels == 0) {
        rc = cli_error("'%s' holds no kernel", path);
    } else if ((*skel)->nkernels != 1) {
        struct augur_buf names;

        augur_buf_init(&names);
        for (uint32_t i = 0; i < (*skel)->nkernels; i++)
            augur_buf_printf(&names, "%s%s", i ? ", " : "", (*skel)->kernels[i]->u.kernel.name);
        rc = cli_usage_error(ko->cmd, "'%s' has %u kernels (%s): pick one with --function", path,
                             (unsigned)(*skel)->nkernels, names.s);
        augur_buf_release(&names);
    } else {
        *kernel = (*skel)->kernels[0];
    }
    if (rc) {
        augur_skel_free(*skel);
        *skel = NULL;
    }
    return rc;
}

int cli_parse_u64(const char *cmd, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
                  uint64_t *out)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(arg, &end, 10);
    if (errno || end == arg || *end || arg[0] == '-' || v < lo || v > hi)
        return cli_usage_error(cmd,
                               "%s needs a whole number in [%" PRIu64 ", %" PRIu64 "], not '%s'",
                               opt, lo, hi, arg);
    *out = v;
    return 0;
}

int cli_parse_seconds(const char *cmd, const char *opt, const char *arg, double *out)
{
    static const struct {
        const char *unit;
        double scale;
    } units[] = { { "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 } };
    char *end;
    double v;

    errno = 0;
    v = strtod(arg, &end);
    while (*end == ' ')
        end++;
    if (!errno && end != arg && isfinite(v) && v > 0)
        for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
            if (strcmp(end, units[i].unit) == 0) {
                *out = v * units[i].scale;
                return 0;
            }
    return cli_usage_error(cmd, "%s needs a positive time (seconds, or 250us, 1.5ms, 2s), not '%s'",
                           opt, arg);
}

int cli_parse_stream_kernel(const char *cmd, const char *arg, int *k)
{
    enum augur_stream_kernel v;

    if (strcmp(arg, "all") == 0) {
        *k = -1;
        return 0;
    }
    if (augur_stream_kernel_parse(arg, &v) != 0)
        return cli_usage_error(cmd, "--kernel needs spmv, fv, ireduce or all, not '%s'", arg);
    *k = (int)v;
    return 0;
}

int cli_parse_scaling(const char *cmd, const char *arg, enum augur_scaling *out)
{
    if (augur_scaling_parse(arg, out) != 0)
        return cli_usage_error(cmd, "--scaling needs auto, reuse, footprint or none, not '%s'",
                               arg);
    return 0;
}

int cli_parse_fraction(const char *cmd, const char *opt, const char *arg, bool one, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(arg, &end);
    if (errno || end == arg || *end || !(v > 0.0 && (one ? v <= 1.0 : v < 1.0)))
        return cli_usage_error(cmd, "%s needs a fraction in (0, 1%s, not '%s'", opt,
                               one ? "]" : ")", arg);
    *out = v;
    return 0;
}

int cli_parse_schedule(const char *cmd, const char *opt, const char *arg, enum augur_sched *kind,
                       uint64_t *chunk)
{
    struct augur_diag d;

    augur_diag_init(&d);
    if (augur_sched_parse(arg, kind, chunk, &d) != 0)
        return cli_usage_error(cmd, "%s: %s", opt, d.msg);
    return 0;
}

bool cli_quiet;

static struct {
    uint64_t events, next_check;
    double start, last;
    bool shown;
} progress;

static void progress_line(void *ud, uint64_t events)
{
    double now;

    (void)ud;
    progress.events += events;
    if (progress.events < progress.next_check)
        return;
    progress.next_check = progress.events + (1u << 20); /* a clock read per million events */
    now = augur_now();
    if (progress.start == 0)
        progress.start = now;
    if (now - progress.start < 1 || now - progress.last < 0.5)
        return;
    progress.last = now;
    progress.shown = true;
    fprintf(stderr, "\raugur: simulating: %.1f M accesses, %.0f s", progress.events / 1e6,
            now - progress.start);
    fflush(stderr);
}

augur_interp_progress_fn *cli_progress_fn(void)
{
    if (cli_quiet || cli_json || !isatty(STDERR_FILENO))
        return NULL;
    memset(&progress, 0, sizeof(progress));
    progress.start = augur_now();
    return progress_line;
}

void cli_progress_done(void)
{
    if (progress.shown)
        fputs("\r\033[K", stderr);
    progress.shown = false;
}

void cli_interp_warning(void *ud, const struct augur_diag *d)
{
    (void)ud;
    if (d->file[0] && d->line)
        fprintf(stderr, "%s:%u:%u: warning: %s\n", d->file, d->line, d->col, d->msg);
    else
        fprintf(stderr, "augur: warning: %s\n", d->msg);
}

int cli_bfs_source(const char *cmd, const char *arg, struct augur_bound_opts *bo)
{
    uint64_t v = 0;

    if (strcmp(arg, "maxdeg") == 0) {
        bo->bfs_source_maxdeg = true;
        return 0;
    }
    if (cli_parse_u64(cmd, "--source", arg, 0, UINT32_MAX, &v))
        return CLI_USAGE;
    bo->bfs_source = (uint32_t)v;
    return 0;
}

/*
 * Runs the categorizer on csr (the full pattern). Without a tree, or for a
 * matrix that is not square, there is no category: an error when required,
 * else cat->why says why. A tree that does not load is always an error.
 */
int cli_categorize(const struct augur_dataset *ds, const struct augur_csr *csr,
                   const char *tree_opt, bool required, struct cli_category *cat,
                   struct augur_diag *diag)
{
    struct augur_tree *tree = NULL;
    int rc;

    memset(cat, 0, sizeof(*cat));
    if (!cli_find_shipped(tree_opt, "AUGUR_TREE", "categorizer.tree", cat->tree,
                          sizeof(cat->tree))) {
        snprintf(cat->why, sizeof(cat->why),
                 "no categorizer tree found (give --tree FILE or set AUGUR_TREE)");
        return required ? augur_diag_set(diag, AUGUR_ENOENT, NULL, 0, 0, "%s", cat->why) : 0;
    }
    if (csr->nrows != csr->ncols) {
        snprintf(cat->why, sizeof(cat->why), "the matrix is not square");
        return required ? augur_diag_set(diag, AUGUR_EINVAL, ds->path, 0, 0,
                                         "the categorizer needs a square matrix, not %u x %u",
                                         csr->nrows, csr->ncols)
                        : 0;
    }
    if (csr->nrows == 0) {
        snprintf(cat->why, sizeof(cat->why), "the matrix has no rows");
        return required ? augur_diag_set(diag, AUGUR_EINVAL, ds->path, 0, 0,
                                         "the categorizer needs a matrix with rows, not 0 x 0")
                        : 0;
    }
    rc = augur_tree_load(cat->tree, &tree, diag);
    if (rc)
        return rc;
    rc = augur_cat_features(csr, ds->symmetry != AUGUR_SYM_GENERAL, augur_tree_feature_opts(tree),
                            cat->x, diag);
    if (!rc) {
        cat->sampler = augur_tree_classify(tree, cat->x, &cat->leaf);
        cat->have = true;
    }
    augur_tree_free(tree);
    return rc;
}

int cli_gpu_use_option(const char *cmd, int opt, const char *arg, struct cli_gpu_use *u)
{
    uint64_t v = 0;

    switch (opt) {
    case 0x132:
        /* 255: the most registers a thread of any CUDA GPU gets */
        if (cli_parse_u64(cmd, "--regs", arg, 1, 255, &v))
            return CLI_USAGE;
        u->use.regs = (uint32_t)v;
        u->regs_given = true;
        return 1;
    case 0x133:
        if (cli_parse_u64(cmd, "--smem", arg, 0, UINT32_MAX, &v))
            return CLI_USAGE;
        u->use.shared_bytes = v;
        u->smem_given = true;
        return 1;
    default:
        return 0;
    }
}

void cli_print_occupancy(const struct augur_gpu_occupancy *occ, const char *regs_from)
{
    if (!occ->warps_per_block)
        return;
    printf("occupancy: %u block%s of %u warp%s per SM, %u warps (%.0f %%), limited by %s; ",
           occ->blocks_per_sm, occ->blocks_per_sm == 1 ? "" : "s", occ->warps_per_block,
           occ->warps_per_block == 1 ? "" : "s", occ->warps_per_sm, 100 * occ->occupancy,
           occ->limit);
    if (occ->use.regs)
        printf("%u registers per thread%s%s, ", occ->use.regs, regs_from ? " from " : "",
               regs_from ? regs_from : "");
    else
        printf("registers not given (--regs N), ");
    printf("%llu bytes of shared memory per block\n", (unsigned long long)occ->use.shared_bytes);
}
