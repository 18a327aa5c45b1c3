/*
 * batch.c - many predictions from one manifest (kernel x dataset x machine x
 * threads rows), handed to an engine that already schedules jobs well: a
 * Makefile for make -j, or a Slurm job array for a cluster. Each row is one
 * `augur predict ... --json` writing rows/N.json; `augur batch --collect`
 * joins them into JSON lines.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/predict.h"

/* The most rows a manifest may expand to: far beyond a cluster's day, far below a memory problem.
 */
#define BATCH_MAX_ROWS    1000000u
#define BATCH_MAX_THREADS 4096u

struct batch_parse {
    const char *path;
    char *dir; /* the manifest's folder: relative paths are its */
    struct augur_batch *b;
    size_t cap;
};

/* A field's path: as written when absolute (or "auto"), else under the manifest's folder. */
static char *resolve(struct batch_parse *p, const char *field, size_t n)
{
    if (field[0] == '/' || !p->dir[0])
        return augur_arena_strndup(&p->b->arena, field, n);
    return augur_arena_strfmt(&p->b->arena, "%s/%.*s", p->dir, (int)n, field);
}

/* "4", "1,2,4" or "1-8": the thread counts of a row, each in [1, BATCH_MAX_THREADS]. */
static int parse_threads(const char *s, size_t n, unsigned *out, size_t *nout, size_t max)
{
    size_t i = 0;

    *nout = 0;
    while (i < n) {
        unsigned long lo = 0, hi;
        size_t start = i;

        while (i < n && s[i] >= '0' && s[i] <= '9' && lo <= BATCH_MAX_THREADS)
            lo = lo * 10 + (unsigned long)(s[i++] - '0');
        if (i == start)
            return -1;
        hi = lo;
        if (i < n && s[i] == '-') {
            start = ++i;
            hi = 0;
            while (i < n && s[i] >= '0' && s[i] <= '9' && hi <= BATCH_MAX_THREADS)
                hi = hi * 10 + (unsigned long)(s[i++] - '0');
            if (i == start)
                return -1;
        }
        if (lo < 1 || hi < lo || hi > BATCH_MAX_THREADS)
            return -1;
        for (unsigned long t = lo; t <= hi; t++) {
            if (*nout == max)
                return -1;
            out[(*nout)++] = (unsigned)t;
        }
        if (i < n && s[i] != ',')
            return -1;
        i += i < n;
    }
    return *nout ? 0 : -1;
}

struct field {
    const char *s;
    size_t n;
    uint32_t col;
};

static int add_rows(struct batch_parse *p, uint32_t line, const struct field *f, size_t nf,
                    struct augur_diag *diag)
{
    struct augur_batch *b = p->b;
    unsigned *threads = augur_mallocarray(BATCH_MAX_THREADS, sizeof(*threads));
    size_t nthreads;
    char *kernel, *dataset, *machine = NULL;
    char **args = NULL;

    if (parse_threads(f[3].s, f[3].n, threads, &nthreads, BATCH_MAX_THREADS) != 0) {
        augur_free(threads);
        return augur_diag_set(diag, AUGUR_EPARSE, p->path, line, f[3].col,
                              "threads '%.*s': a count, a list (1,2,4) or a range (1-8), each in "
                              "[1, %u]",
                              (int)(f[3].n > 40 ? 40 : f[3].n), f[3].s, BATCH_MAX_THREADS);
    }
    if (b->nrows + nthreads > BATCH_MAX_ROWS) {
        augur_free(threads);
        return augur_diag_set(diag, AUGUR_ELIMIT, p->path, line, 1,
                              "the manifest expands to more than %u rows", BATCH_MAX_ROWS);
    }
    kernel = resolve(p, f[0].s, f[0].n);
    dataset = resolve(p, f[1].s, f[1].n);
    if (!(f[2].n == 1 && f[2].s[0] == '-'))
        machine = f[2].n == 4 && memcmp(f[2].s, "auto", 4) == 0
                      ? augur_arena_strdup(&b->arena, "auto")
                      : resolve(p, f[2].s, f[2].n);
    if (nf > 4) {
        args = augur_arena_alloc(&b->arena, (nf - 4 + 1) * sizeof(*args));
        for (size_t i = 4; i < nf; i++)
            args[i - 4] = augur_arena_strndup(&b->arena, f[i].s, f[i].n);
        args[nf - 4] = NULL;
    }
    for (size_t t = 0; t < nthreads; t++) {
        struct augur_batch_row *r;

        if (b->nrows == p->cap) {
            p->cap = p->cap ? 2 * p->cap : 16;
            b->rows = augur_reallocarray(b->rows, p->cap, sizeof(*b->rows));
        }
        r = &b->rows[b->nrows++];
        r->line = line;
        r->kernel = kernel;
        r->dataset = dataset;
        r->machine = machine;
        r->threads = threads[t];
        r->args = args;
        r->nargs = nf - 4;
    }
    augur_free(threads);
    return 0;
}

/* Splits a line at blanks into fields; an option field must start with '-'. */
static int parse_line(struct batch_parse *p, const char *s, size_t n, uint32_t line,
                      struct augur_diag *diag)
{
    struct field f[64];
    size_t nf = 0, i = 0;

    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        if (i == n || s[i] == '#')
            break;
        if (nf == sizeof(f) / sizeof(f[0]))
            return augur_diag_set(diag, AUGUR_EPARSE, p->path, line, (uint32_t)i + 1,
                                  "more than %zu fields on a line", sizeof(f) / sizeof(f[0]));
        f[nf].s = s + i;
        f[nf].col = (uint32_t)i + 1;
        while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            i++;
        f[nf].n = (size_t)(s + i - f[nf].s);
        nf++;
    }
    if (nf == 0)
        return 0;
    for (size_t k = 0; k < n; k++)
        if ((unsigned char)s[k] < 0x20 && s[k] != '\t' && s[k] != '\r')
            return augur_diag_set(diag, AUGUR_EPARSE, p->path, line, (uint32_t)k + 1,
                                  "a control character (0x%02x)", (unsigned char)s[k]);
    if (nf < 4)
        return augur_diag_set(diag, AUGUR_EPARSE, p->path, line, f[nf - 1].col,
                              "a row needs KERNEL DATASET MACHINE THREADS [OPTIONS...] (%zu "
                              "field%s here)",
                              nf, nf == 1 ? "" : "s");
    if (nf > 4 && f[4].s[0] != '-')
        return augur_diag_set(diag, AUGUR_EPARSE, p->path, line, f[4].col,
                              "'%.*s': after THREADS only predict's options (--function NAME, "
                              "--bind LIST, ...)",
                              (int)(f[4].n > 40 ? 40 : f[4].n), f[4].s);
    return add_rows(p, line, f, nf, diag);
}

int augur_batch_parse(const char *text, size_t len, const char *path, struct augur_batch **out,
                      struct augur_diag *diag)
{
    struct batch_parse p = { path, NULL, NULL, 0 };
    const char *slash = strrchr(path, '/');
    const char *s = text, *end = text + len;
    uint32_t line = 1;
    int rc = 0;

    *out = NULL;
    p.b = augur_calloc(1, sizeof(*p.b));
    augur_arena_init(&p.b->arena, 0);
    p.dir = slash ? augur_arena_strndup(&p.b->arena, path, (size_t)(slash - path))
                  : augur_arena_strdup(&p.b->arena, "");
    if (slash == path)
        p.dir = augur_arena_strdup(&p.b->arena, "/");
    while (s < end && rc == 0) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

        if (memchr(s, '\0', n))
            rc = augur_diag_set(diag, AUGUR_EFORMAT, path, line, 1, "binary data (a NUL byte)");
        else
            rc = parse_line(&p, s, n, line, diag);
        s = nl ? nl + 1 : end;
        line++;
    }
    if (rc == 0 && p.b->nrows == 0)
        rc = augur_diag_set(diag, AUGUR_EPARSE, path, 0, 0,
                            "no rows (each line: KERNEL DATASET MACHINE THREADS [OPTIONS...])");
    if (rc != 0) {
        augur_batch_free(p.b);
        return rc;
    }
    *out = p.b;
    return 0;
}

void augur_batch_free(struct augur_batch *b)
{
    if (!b)
        return;
    augur_free(b->rows);
    augur_arena_release(&b->arena);
    augur_free(b);
}

/* ---- the engines -------------------------------------------------------------------------- */

char **augur_batch_argv(const struct augur_batch *b, size_t i, const char *augur)
{
    const struct augur_batch_row *r = &b->rows[i];
    char **argv = augur_mallocarray(r->nargs + 12, sizeof(*argv));
    size_t n = 0;
    char t[16];

    snprintf(t, sizeof(t), "%u", r->threads);
    argv[n++] = augur_strdup(augur);
    argv[n++] = augur_strdup("predict");
    argv[n++] = augur_strdup(r->kernel);
    argv[n++] = augur_strdup("--data");
    argv[n++] = augur_strdup(r->dataset);
    if (r->machine) {
        argv[n++] = augur_strdup("--machine");
        argv[n++] = augur_strdup(r->machine);
    }
    argv[n++] = augur_strdup("--threads");
    argv[n++] = augur_strdup(t);
    for (size_t k = 0; k < r->nargs; k++)
        argv[n++] = augur_strdup(r->args[k]);
    argv[n++] = augur_strdup("--json");
    argv[n] = NULL;
    return argv;
}

/* Row i's command as a shell line; for make, every '$' doubled. */
static void command(struct augur_buf *out, const struct augur_batch *b, size_t i, const char *augur,
                    bool make)
{
    char **argv = augur_batch_argv(b, i, augur);
    struct augur_buf cmd;

    augur_buf_init(&cmd);
    augur_shell_join(&cmd, argv);
    for (size_t k = 0; k < cmd.len; k++) {
        if (make && cmd.s[k] == '$')
            augur_buf_putc(out, '$');
        augur_buf_putc(out, cmd.s[k]);
    }
    augur_buf_release(&cmd);
    augur_argv_free(argv);
}

static void quoted(struct augur_buf *out, const char *s, bool make)
{
    char *argv[] = { (char *)s, NULL };
    struct augur_buf q;

    augur_buf_init(&q);
    augur_shell_join(&q, argv);
    for (size_t k = 0; k < q.len; k++) {
        if (make && q.s[k] == '$')
            augur_buf_putc(out, '$');
        augur_buf_putc(out, q.s[k]);
    }
    augur_buf_release(&q);
}

static void emit_make(const struct augur_batch *b, const struct augur_batch_emit *o,
                      struct augur_buf *out)
{
    augur_buf_printf(out, "# %zu predictions: make -k -j N -f THIS (rows in ", b->nrows);
    augur_buf_puts(out, o->rows_dir);
    augur_buf_puts(out, ", all of them joined as JSON lines in ");
    augur_buf_puts(out, o->output);
    augur_buf_puts(out, ")\n# a failed row leaves its error in its file; the others go on\n");
    augur_buf_printf(out, ".DELETE_ON_ERROR:\nROWDIR := %s\nROWS :=", o->rows_dir);
    for (size_t i = 0; i < b->nrows; i++)
        augur_buf_printf(out, " \\\n  $(ROWDIR)/%zu.json", i);
    augur_buf_printf(out, "\n\nall: %s\n\n%s: $(ROWS)\n\t-", o->output, o->output);
    quoted(out, o->augur, true);
    augur_buf_puts(out, " batch --collect $@ $(ROWS)\n");
    for (size_t i = 0; i < b->nrows; i++) {
        augur_buf_printf(out, "\n$(ROWDIR)/%zu.json:\n\t@mkdir -p $(ROWDIR)\n\t", i);
        command(out, b, i, o->augur, true);
        augur_buf_puts(out, " >$@.part 2>$@.err; mv $@.part $@\n");
    }
}

static void emit_slurm(const struct augur_batch *b, const struct augur_batch_emit *o,
                       struct augur_buf *out)
{
    augur_buf_printf(out,
                     "#!/bin/bash\n"
                     "# %zu predictions as a Slurm job array: sbatch THIS; when it is done,\n"
                     "# join the rows: ",
                     b->nrows);
    quoted(out, o->augur, false);
    augur_buf_puts(out, " batch --collect ");
    quoted(out, o->output, false);
    augur_buf_puts(out, " ");
    quoted(out, o->rows_dir, false);
    augur_buf_printf(out,
                     "/*.json\n"
                     "# (or submit that with --dependency=afterany:JOBID)\n"
                     "#SBATCH --job-name=augur-batch\n"
                     "#SBATCH --array=0-%zu\n"
                     "#SBATCH --ntasks=1\n",
                     b->nrows - 1);
    augur_buf_puts(out, "set -u\nrows=");
    quoted(out, o->rows_dir, false);
    augur_buf_puts(out, "\nmkdir -p \"$rows\"\ncase ${SLURM_ARRAY_TASK_ID:?run with sbatch} in\n");
    for (size_t i = 0; i < b->nrows; i++) {
        augur_buf_printf(out, "%zu) ", i);
        command(out, b, i, o->augur, false);
        augur_buf_printf(out, " >\"$rows/%zu.json.part\" 2>\"$rows/%zu.json.err\" ;;\n", i, i);
    }
    augur_buf_puts(out, "esac\nmv \"$rows/$SLURM_ARRAY_TASK_ID.json.part\" "
                        "\"$rows/$SLURM_ARRAY_TASK_ID.json\"\n");
}

/* Whether make can name path in a rule (no blanks, no quoting, no variables). */
static bool make_safe(const char *path)
{
    for (const char *p = path; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              strchr("-_./+,@%=", *p)))
            return false;
    return path[0] != '\0';
}

int augur_batch_write(const struct augur_batch *b, enum augur_batch_engine e,
                      const struct augur_batch_emit *o, struct augur_buf *out,
                      struct augur_diag *diag)
{
    if (e == AUGUR_BATCH_SLURM) {
        emit_slurm(b, o, out);
        return 0;
    }
    if (!make_safe(o->rows_dir) || !make_safe(o->output))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "make cannot name '%s' or '%s' in a rule: give paths of letters, "
                              "digits and -_./+,@%%=",
                              o->rows_dir, o->output);
    emit_make(b, o, out);
    return 0;
}
