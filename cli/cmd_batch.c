/*
 * cmd_batch.c - "augur batch": many predictions from a manifest, run by make
 * here (-j N) or written as a Makefile or a Slurm job array for elsewhere;
 * the rows' documents joined as JSON lines (module: cli).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

void cmd_batch_help(FILE *fp)
{
    fprintf(fp, "usage: augur batch MANIFEST [-j N] [-o OUT.jsonl] [--rows DIR]\n"
                "       augur batch MANIFEST --emit make|slurm [-o OUT.jsonl] [--rows DIR]\n"
                "       augur batch --collect OUT.jsonl ROW.json...\n"
                "\n"
                "Runs one 'augur predict ... --json' per row of MANIFEST (a line: KERNEL DATASET\n"
                "MACHINE THREADS [OPTIONS...]; MACHINE a file, 'auto' or '-'; THREADS 4, 1,2,4\n"
                "or 1-8, a row each; OPTIONS predict's, such as --function NAME) through make,\n"
                "N at a time, and joins the rows' documents into OUT as JSON lines, each with\n"
                "its row number; a row that failed holds its error. --emit writes the same work\n"
                "for an engine instead of running it: a Makefile (make -k -j N -f FILE) or a\n"
                "Slurm job-array script (sbatch FILE), on standard output. --collect joins\n"
                "rows written by either.\n"
                "\n"
                "options:\n"
                "  -j, --jobs N      rows run at once (default 1)\n"
                "  -o, --output F    the joined rows (default: MANIFEST's name with .jsonl)\n"
                "  --rows DIR        each row's document, DIR/N.json (default: OUT without\n"
                "                    .jsonl, then .rows)\n"
                "  --emit ENGINE     make or slurm: write the batch for it, run nothing\n"
                "  --collect OUT     join ROW.json files (named N.json) into OUT\n"
                "  --json            the summary as JSON\n"
                "  -h, --help        print this help\n");
}

struct opts {
    const char *manifest, *output, *rows, *collect;
    bool emit_given;
    enum augur_batch_engine engine;
    uint64_t jobs;
    char out_buf[PATH_MAX], rows_buf[PATH_MAX];
};

static int parse_args(int argc, char **argv, struct opts *o, int *first)
{
    static const struct option longopts[] = {
        { "jobs", required_argument, NULL, 'j' },    { "output", required_argument, NULL, 'o' },
        { "rows", required_argument, NULL, 'r' },    { "emit", required_argument, NULL, 'e' },
        { "collect", required_argument, NULL, 'c' }, { "json", no_argument, NULL, 'J' },
        { "help", no_argument, NULL, 'h' },          { NULL, 0, NULL, 0 },
    };
    int opt;

    o->jobs = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "hj:o:", longopts, NULL)) != -1) {
        switch (opt) {
        case 'j':
            if (cli_parse_u64("batch", "--jobs", optarg, 1, 4096, &o->jobs))
                return CLI_USAGE;
            break;
        case 'o':
            o->output = optarg;
            break;
        case 'r':
            o->rows = optarg;
            break;
        case 'e':
            o->emit_given = true;
            if (strcmp(optarg, "make") == 0)
                o->engine = AUGUR_BATCH_MAKE;
            else if (strcmp(optarg, "slurm") == 0)
                o->engine = AUGUR_BATCH_SLURM;
            else
                return cli_usage_error("batch", "--emit needs make or slurm, not '%s'", optarg);
            break;
        case 'c':
            o->collect = optarg;
            break;
        case 'J':
            cli_json = true;
            break;
        case 'h':
            cmd_batch_help(stdout);
            return -1;
        default:
            return cli_usage_error("batch", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    *first = optind;
    if (o->collect)
        return optind < argc ? CLI_OK
                             : cli_usage_error("batch", "--collect OUT needs the ROW.json files");
    if (optind != argc - 1)
        return cli_usage_error("batch",
                               optind == argc ? "missing the MANIFEST" : "one MANIFEST at a time");
    o->manifest = argv[optind];
    return CLI_OK;
}

/* The defaults beside the manifest: NAME.jsonl and NAME.rows/. */
static void default_paths(struct opts *o)
{
    if (!o->output) {
        const char *dot = strrchr(o->manifest, '.'), *slash = strrchr(o->manifest, '/');
        int stem =
            dot && (!slash || dot > slash) ? (int)(dot - o->manifest) : (int)strlen(o->manifest);

        snprintf(o->out_buf, sizeof(o->out_buf), "%.*s.jsonl", stem, o->manifest);
        o->output = o->out_buf;
    }
    if (!o->rows) {
        size_t n = strlen(o->output);

        if (augur_str_ends_with(o->output, ".jsonl"))
            n -= strlen(".jsonl");
        snprintf(o->rows_buf, sizeof(o->rows_buf), "%.*s.rows", (int)n, o->output);
        o->rows = o->rows_buf;
    }
}

/* ---- --collect ---------------------------------------------------------------------- */

/* The row number a row file's name carries (DIR/N.json), or -1. */
static long row_number(const char *path)
{
    const char *base = strrchr(path, '/');
    char *end;
    long v;

    base = base ? base + 1 : path;
    errno = 0;
    v = strtol(base, &end, 10);
    return errno || end == base || strcmp(end, ".json") != 0 || v < 0 ? -1 : v;
}

/* One row's document with its number; a missing or broken one as an error naming it. */
static json_t *row_doc(const char *path)
{
    struct augur_buf text, err;
    struct augur_diag diag;
    json_t *doc = NULL;
    json_error_t jerr;
    char errpath[PATH_MAX + 8];

    augur_buf_init(&text);
    augur_buf_init(&err);
    augur_diag_init(&diag);
    if (augur_file_read(path, (size_t)64 << 20, &text, NULL, &diag) == 0)
        doc = json_loadb(text.s ? text.s : "", text.len, 0, &jerr);
    if (!json_is_object(doc)) {
        json_decref(doc);
        snprintf(errpath, sizeof(errpath), "%s.err", path);
        augur_diag_init(&diag);
        if (augur_file_read(errpath, (size_t)1 << 20, &err, NULL, &diag) == 0 && err.len) {
            while (err.len && err.s[err.len - 1] == '\n')
                err.s[--err.len] = '\0';
            doc = json_pack("{s:s}", "error",
                            strrchr(err.s, '\n') ? strrchr(err.s, '\n') + 1 : err.s);
        } else {
            doc = json_pack("{s:s+}", "error", "no result in ", path);
        }
    }
    json_object_set_new(doc, "row", json_integer(row_number(path)));
    augur_buf_release(&text);
    augur_buf_release(&err);
    return doc;
}

/* Joins row files into JSON lines, ordered by row number; *failed counts the errors. */
static int collect(const char *out, char **paths, int n, size_t *failed)
{
    struct augur_buf lines;
    struct augur_diag diag;
    int rc = CLI_OK;

    augur_buf_init(&lines);
    augur_diag_init(&diag);
    *failed = 0;
    for (int i = 0; i < n; i++) {
        json_t *doc = row_doc(paths[i]);
        char *s = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(10));

        *failed += json_is_string(json_object_get(doc, "error"));
        json_decref(doc);
        if (!s) {
            rc = cli_error("cannot build the row of %s", paths[i]);
            break;
        }
        augur_buf_puts(&lines, s);
        augur_buf_putc(&lines, '\n');
        free(s);
    }
    if (rc == CLI_OK && augur_file_write(out, lines.s ? lines.s : "", lines.len, &diag) != 0)
        rc = cli_diag_error(&diag);
    augur_buf_release(&lines);
    return rc;
}

static int cmp_rows(const void *a, const void *b)
{
    long x = row_number(*(char *const *)a), y = row_number(*(char *const *)b);

    return x < y ? -1 : x > y;
}

/* ---- running -------------------------------------------------------------------------- */

static int self_path(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);

    if (n <= 0)
        return cli_error("cannot find the augur binary (/proc/self/exe)");
    buf[n] = '\0';
    return CLI_OK;
}

/* The batch as a Makefile in the rows' folder, run by make -k -j N. */
static int run(const struct opts *o, const struct augur_batch *b, const char *augur)
{
    struct augur_batch_emit e = { augur, o->rows, o->output };
    struct augur_buf mk, out, err;
    struct augur_child child;
    struct augur_diag diag;
    char makefile[PATH_MAX + 16], jobs[24];
    char make[] = "make", silent[] = "-s", keep_going[] = "-k", j[] = "-j", f[] = "-f";
    char *argv[] = { make, silent, keep_going, j, jobs, f, makefile, NULL };
    int rc;

    augur_buf_init(&mk);
    augur_diag_init(&diag);
    if (augur_batch_write(b, AUGUR_BATCH_MAKE, &e, &mk, &diag) != 0) {
        augur_buf_release(&mk);
        return cli_diag_error(&diag);
    }
    if (mkdir(o->rows, 0777) != 0 && errno != EEXIST) {
        augur_buf_release(&mk);
        return cli_error("%s: cannot make the folder: %s", o->rows, strerror(errno));
    }
    snprintf(makefile, sizeof(makefile), "%s/Makefile", o->rows);
    snprintf(jobs, sizeof(jobs), "%" PRIu64, o->jobs);
    rc = augur_file_write(makefile, mk.s, mk.len, &diag);
    augur_buf_release(&mk);
    if (rc != 0)
        return cli_diag_error(&diag);
    augur_buf_init(&out);
    augur_buf_init(&err);
    rc = augur_run_child(argv, NULL, NULL, 1e9, (size_t)1 << 20, &out, &err, &child, &diag);
    if (rc != 0)
        rc = cli_diag_error(&diag);
    else if (!WIFEXITED(child.status) || WEXITSTATUS(child.status) != 0)
        rc = cli_error("make -f %s failed: %s", makefile, err.s ? err.s : "");
    augur_buf_release(&out);
    augur_buf_release(&err);
    return rc;
}

/* The summary: rows, failures and where the results are. */
static int summary(const struct opts *o, size_t rows, size_t failed)
{
    if (cli_json)
        return cli_print_json(json_pack("{s:s,s:s,s:I,s:I}", "output", o->output, "rows", o->rows,
                                        "predicted", (json_int_t)(rows - failed), "failed",
                                        (json_int_t)failed));
    printf("%zu rows: %zu predicted, %zu failed; JSON lines in %s (each row's files in %s)\n", rows,
           rows - failed, failed, o->output, o->rows);
    return cli_flush_stdout();
}

/* Rows and failures (a row whose "error" is a message, not --measure's number) of the output. */
static int count_failed(const char *path, size_t *rows, size_t *failed)
{
    struct augur_buf text;
    struct augur_diag diag;

    augur_buf_init(&text);
    augur_diag_init(&diag);
    if (augur_file_read(path, 0, &text, NULL, &diag) != 0) {
        augur_buf_release(&text);
        return cli_diag_error(&diag);
    }
    *rows = *failed = 0;
    for (const char *p = text.s; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        json_t *doc = json_loadb(p, n, 0, NULL);

        (*rows)++;
        *failed += !doc || json_is_string(json_object_get(doc, "error"));
        json_decref(doc);
        p += n + (nl != NULL);
    }
    augur_buf_release(&text);
    return CLI_OK;
}

int cmd_batch(int argc, char **argv)
{
    struct opts o;
    struct augur_batch *b = NULL;
    struct augur_buf text;
    struct augur_diag diag;
    char augur[PATH_MAX];
    size_t rows = 0, failed = 0;
    int first = 0, rc;

    memset(&o, 0, sizeof(o));
    rc = parse_args(argc, argv, &o, &first);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (o.collect) {
        qsort(argv + first, (size_t)(argc - first), sizeof(*argv), cmp_rows);
        rc = collect(o.collect, argv + first, argc - first, &failed);
        return rc != CLI_OK ? rc
               : failed     ? cli_error("%zu of %d rows failed", failed, argc - first)
                            : CLI_OK;
    }
    default_paths(&o);
    augur_buf_init(&text);
    augur_diag_init(&diag);
    if (augur_file_read(o.manifest, (size_t)64 << 20, &text, NULL, &diag) != 0 ||
        augur_batch_parse(text.s ? text.s : "", text.len, o.manifest, &b, &diag) != 0) {
        augur_buf_release(&text);
        return cli_diag_error(&diag);
    }
    augur_buf_release(&text);
    if ((rc = self_path(augur, sizeof(augur))) != CLI_OK) {
        augur_batch_free(b);
        return rc;
    }
    if (o.emit_given) {
        struct augur_batch_emit e = { augur, o.rows, o.output };
        struct augur_buf script;

        augur_buf_init(&script);
        rc = augur_batch_write(b, o.engine, &e, &script, &diag) != 0 ? cli_diag_error(&diag)
             : fwrite(script.s, 1, script.len, stdout) != script.len
                 ? cli_error("cannot write the script")
                 : cli_flush_stdout();
        augur_buf_release(&script);
        augur_batch_free(b);
        return rc;
    }
    rc = run(&o, b, augur);
    augur_batch_free(b);
    if (rc == CLI_OK)
        rc = count_failed(o.output, &rows, &failed);
    if (rc == CLI_OK)
        rc = summary(&o, rows, failed);
    return rc == CLI_OK && failed ? CLI_FAILED : rc;
}
