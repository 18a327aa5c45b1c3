/*
 * measure_ncu.c - Nsight Compute's CSV read back (module: measure): the raw
 * page (a launch a row, a row of units under the header) and the details
 * page (a metric a row), the metrics augur simulates converted to base
 * units, a kernel's launches picked out, and augur's value of each beside
 * the measured one. docs/cli/predict.md, "Nsight Compute", describes it.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/measure.h"

#define MAX_FIELDS   100000 /* columns of a row: ncu's raw page has a few thousand at most */
#define MAX_LAUNCHES 10000000

/* What augur reads: ncu's metric name, a section's label of it on the details page, what it is. */
static const struct {
    const char *metric, *label, *what;
} quantities[AUGUR_NCU_NQUANTITIES] = {
    [AUGUR_NCU_SECONDS] = { "gpu__time_duration.sum", "Duration", "time (s)" },
    [AUGUR_NCU_WARP_LOADS] = { "smsp__inst_executed_op_global_ld.sum", NULL,
                               "warp global load instructions" },
    [AUGUR_NCU_L1_REQUESTS] = { "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", NULL,
                                "L1 load requests" },
    [AUGUR_NCU_L1_SECTORS] = { "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", NULL,
                               "L1 sectors loaded" },
    [AUGUR_NCU_L1_HITS] = { "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", NULL,
                            "L1 sectors hit" },
    [AUGUR_NCU_L2_SECTORS] = { "lts__t_sectors_srcunit_tex_op_read.sum", NULL,
                               "L2 sectors read by L1" },
    [AUGUR_NCU_L2_HITS] = { "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", NULL,
                            "L2 sectors hit" },
    [AUGUR_NCU_DRAM_READ] = { "dram__bytes_read.sum", NULL, "DRAM bytes read" },
    [AUGUR_NCU_DRAM_WRITE] = { "dram__bytes_write.sum", NULL, "DRAM bytes written" },
    [AUGUR_NCU_DIVERGENT] = { "smsp__sass_branch_targets_threads_divergent.sum", NULL,
                              "divergent warp branches" },
    [AUGUR_NCU_BRANCH_EFF] = { "sm__sass_average_branch_targets_threads_uniform.pct",
                               "Branch Efficiency", "branch efficiency (%)" },
    [AUGUR_NCU_REGISTERS] = { "launch__registers_per_thread", "Registers Per Thread",
                              "registers per thread" },
    [AUGUR_NCU_SHARED_STATIC] = { "launch__shared_mem_per_block_static",
                                  "Static Shared Memory Per Block",
                                  "static shared memory per block (bytes)" },
    [AUGUR_NCU_SHARED_DYNAMIC] = { "launch__shared_mem_per_block_dynamic",
                                   "Dynamic Shared Memory Per Block",
                                   "dynamic shared memory per block (bytes)" },
    [AUGUR_NCU_OCCUPANCY] = { "sm__maximum_warps_per_active_cycle_pct", "Theoretical Occupancy",
                              "theoretical occupancy (%)" },
};

const char *augur_ncu_metric(enum augur_ncu_quantity q)
{
    return (unsigned)q < AUGUR_NCU_NQUANTITIES ? quantities[q].metric : "?";
}

const char *augur_ncu_label(enum augur_ncu_quantity q)
{
    return (unsigned)q < AUGUR_NCU_NQUANTITIES ? quantities[q].what : "?";
}

/* The quantity a column or a details row names (the metric, or its section label), or -1. */
static int quantity_of(const char *name)
{
    for (int q = 0; q < AUGUR_NCU_NQUANTITIES; q++)
        if (strcmp(name, quantities[q].metric) == 0 ||
            (quantities[q].label && strcmp(name, quantities[q].label) == 0))
            return q;
    return -1;
}

/* ---- CSV ------------------------------------------------------------------------------------ */

/* A reader of RFC 4180 records: quoted fields, "" inside quotes, CR LF or LF. */
struct csv {
    const char *text;
    size_t len, pos;
    uint32_t line; /* of the next record */
    const char *path;
    struct augur_buf buf; /* the current record's fields, each NUL-terminated */
    size_t *off;          /* field i starts at buf.s + off[i] */
    size_t cap, n;
};

/* The next record into c->off/c->n; 1 at the end, 0, or an error. */
static int csv_next(struct csv *c, uint32_t *line, struct augur_diag *diag)
{
    if (c->pos >= c->len)
        return 1;
    *line = c->line;
    augur_buf_reset(&c->buf);
    c->n = 0;
    for (;;) {
        bool quoted = false;

        if (c->n == MAX_FIELDS)
            return augur_diag_set(diag, AUGUR_ELIMIT, c->path, *line, 0,
                                  "a row of more than %d fields", MAX_FIELDS);
        if (c->n == c->cap) {
            c->cap = c->cap ? 2 * c->cap : 64;
            c->off = augur_reallocarray(c->off, c->cap, sizeof(*c->off));
        }
        c->off[c->n++] = c->buf.len;
        if (c->pos < c->len && c->text[c->pos] == '"') {
            quoted = true;
            c->pos++;
            for (;;) {
                if (c->pos >= c->len)
                    return augur_diag_set(diag, AUGUR_EPARSE, c->path, *line, 0,
                                          "a quoted field is not closed");
                if (c->text[c->pos] == '"') {
                    if (c->pos + 1 < c->len && c->text[c->pos + 1] == '"') {
                        augur_buf_putc(&c->buf, '"');
                        c->pos += 2;
                        continue;
                    }
                    c->pos++;
                    break;
                }
                if (c->text[c->pos] == '\n')
                    c->line++;
                augur_buf_putc(&c->buf, c->text[c->pos++]);
            }
        }
        while (c->pos < c->len && c->text[c->pos] != ',' && c->text[c->pos] != '\n') {
            if (c->text[c->pos] == '\r' && (c->pos + 1 == c->len || c->text[c->pos + 1] == '\n')) {
                c->pos++;
                continue;
            }
            if (quoted)
                return augur_diag_set(diag, AUGUR_EPARSE, c->path, *line, 0,
                                      "text after a quoted field's closing quote");
            augur_buf_putc(&c->buf, c->text[c->pos++]);
        }
        augur_buf_putc(&c->buf, '\0');
        if (c->pos >= c->len || c->text[c->pos] == '\n') {
            c->pos++;
            c->line++;
            return 0;
        }
        c->pos++; /* the comma */
    }
}

static const char *field(const struct csv *c, size_t i)
{
    return i < c->n ? c->buf.s + c->off[i] : "";
}

/* The column named name in the current record (the header), or -1. */
static long column(const struct csv *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(field(c, i), name) == 0)
            return (long)i;
    return -1;
}

/* ---- values --------------------------------------------------------------------------------- */

/*
 * The factor from unit to base units (seconds, bytes, counts, %), or < 0
 * when it is not one ncu prints. A unit per thing ("register/thread",
 * "byte/block") counts the thing; a rate's denominator is a time.
 */
static double unit_scale(const char *unit)
{
    static const struct {
        const char *name;
        double scale;
    } times[] = { { "nsecond", 1e-9 }, { "usecond", 1e-6 }, { "msecond", 1e-3 }, { "second", 1 },
                  { "ns", 1e-9 },      { "us", 1e-6 },      { "ms", 1e-3 },      { "s", 1 } };
    static const char *const bases[] = { "byte",  "sector", "request", "inst",     "warp",
                                         "cycle", "block",  "thread",  "register", "" };
    static const struct {
        const char *name;
        double scale;
    } prefixes[] = { { "Ki", 1024.0 }, { "Mi", 1048576.0 }, { "Gi", 1073741824.0 },
                     { "K", 1e3 },     { "k", 1e3 },        { "M", 1e6 },
                     { "G", 1e9 },     { "T", 1e12 },       { "", 1 } };
    const char *slash = strchr(unit, '/');
    char num[32];
    size_t n = slash ? (size_t)(slash - unit) : strlen(unit);
    double den = 1;

    if (n >= sizeof(num))
        return -1;
    memcpy(num, unit, n);
    num[n] = '\0';
    if (slash) {
        bool per_thing = false;

        den = -1;
        for (size_t t = 0; t < sizeof(times) / sizeof(times[0]); t++)
            if (strcmp(slash + 1, times[t].name) == 0)
                den = times[t].scale;
        for (size_t b = 0; b + 1 < sizeof(bases) / sizeof(bases[0]); b++)
            per_thing |= strcmp(slash + 1, bases[b]) == 0;
        if (per_thing)
            den = 1;
        if (den < 0)
            return -1;
    }
    if (strcmp(num, "%") == 0)
        return 1 / den;
    for (size_t t = 0; t < sizeof(times) / sizeof(times[0]); t++)
        if (strcmp(num, times[t].name) == 0)
            return times[t].scale / den;
    for (size_t p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]); p++) {
        size_t pl = strlen(prefixes[p].name);

        if (strncmp(num, prefixes[p].name, pl) != 0)
            continue;
        for (size_t b = 0; b < sizeof(bases) / sizeof(bases[0]); b++)
            if (strcmp(num + pl, bases[b]) == 0 && (pl == 0 || bases[b][0]))
                return prefixes[p].scale / den;
    }
    return -1;
}

/*
 * A value as ncu prints it ("1,501,140", "6.14", "n/a", ""): NaN for none;
 * false when it is no number. Commas group thousands.
 */
static bool value_of(const char *text, double *v)
{
    char digits[128];
    size_t n = 0;
    char *end;

    while (isspace((unsigned char)*text))
        text++;
    if (!*text || strcmp(text, "n/a") == 0 || strcmp(text, "N/A") == 0) {
        *v = NAN;
        return true;
    }
    for (const char *p = text; *p; p++) {
        if (*p == ',') {
            /* a thousands separator: digits before it, three after it */
            if (p == text || !isdigit((unsigned char)p[-1]) || !isdigit((unsigned char)p[1]) ||
                !isdigit((unsigned char)p[2]) || !isdigit((unsigned char)p[3]) ||
                isdigit((unsigned char)p[4]))
                return false;
            continue;
        }
        if (n + 1 == sizeof(digits))
            return false;
        digits[n++] = *p;
    }
    digits[n] = '\0';
    errno = 0;
    *v = strtod(digits, &end);
    while (isspace((unsigned char)*end))
        end++;
    return end != digits && !*end && errno != ERANGE && isfinite(*v);
}

/* "(256, 1, 1)" into d; zeros when it does not read. */
static void dims_of(const char *text, uint64_t d[3])
{
    unsigned long long x, y, z;

    d[0] = d[1] = d[2] = 0;
    if (sscanf(text, " ( %llu , %llu , %llu )", &x, &y, &z) == 3) {
        d[0] = x;
        d[1] = y;
        d[2] = z;
    }
}

/*
 * The function's own name in ncu's name of a kernel: "void ns::spmv<float>(int, float *)"
 * gives "spmv"; a mangled "_Z4spmvPf" gives "spmv".
 */
static void base_name(const char *kernel, char *out, size_t size)
{
    const char *s = kernel, *end, *colon;
    size_t n;

    while (isspace((unsigned char)*s))
        s++;
    if (strncmp(s, "_Z", 2) == 0) {
        unsigned long len = 0;
        const char *p = s + 2;

        if (*p == 'N') { /* nested: the last component before 'E' */
            const char *last = NULL;
            unsigned long last_len = 0;

            for (p++; isdigit((unsigned char)*p);) {
                len = strtoul(p, (char **)&p, 10);
                if (len > strlen(p))
                    break;
                last = p;
                last_len = len;
                p += len;
            }
            if (last) {
                snprintf(out, size, "%.*s", (int)last_len, last);
                return;
            }
        } else if (isdigit((unsigned char)*p)) {
            len = strtoul(p, (char **)&p, 10);
            if (len <= strlen(p)) {
                snprintf(out, size, "%.*s", (int)len, p);
                return;
            }
        }
    }
    if (strncmp(s, "void ", 5) == 0)
        s += 5;
    end = s + strcspn(s, "(<");
    for (colon = s; (colon = strstr(colon, "::")) && colon < end; colon += 2)
        s = colon + 2;
    n = (size_t)(end - s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), s);
}

/* ---- the two pages ---------------------------------------------------------------------- */

struct reader {
    struct csv c;
    struct augur_vec launches; /* struct augur_ncu_launch */
    struct augur_ncu *n;
    long id, kernel, block, grid; /* columns of the header */
};

/* A new launch from the current row's identity columns. */
static struct augur_ncu_launch *new_launch(struct reader *r, uint32_t line, struct augur_diag *diag)
{
    struct augur_ncu_launch *l;
    double id;

    if (r->launches.len == MAX_LAUNCHES) {
        augur_diag_set(diag, AUGUR_ELIMIT, r->c.path, line, 0, "more than %d kernel launches",
                       MAX_LAUNCHES);
        return NULL;
    }
    if (!value_of(field(&r->c, (size_t)r->id), &id) || !(id >= 0) || id > 1e15 || id != floor(id)) {
        augur_diag_set(diag, AUGUR_EPARSE, r->c.path, line, 0,
                       "the launch's ID '%.40s' is no whole number", field(&r->c, (size_t)r->id));
        return NULL;
    }
    l = augur_vec_push(&r->launches);
    memset(l, 0, sizeof(*l));
    l->id = (uint64_t)id;
    l->line = line;
    l->kernel = augur_arena_strdup(&r->n->strings, field(&r->c, (size_t)r->kernel));
    base_name(l->kernel, l->name, sizeof(l->name));
    if (r->block >= 0)
        dims_of(field(&r->c, (size_t)r->block), l->block);
    if (r->grid >= 0)
        dims_of(field(&r->c, (size_t)r->grid), l->grid);
    for (int q = 0; q < AUGUR_NCU_NQUANTITIES; q++)
        l->value[q] = NAN;
    return l;
}

/* One metric's value of launch l, converted by its unit. */
static int set_value(struct reader *r, struct augur_ncu_launch *l, int q, const char *text,
                     const char *unit, uint32_t line, struct augur_diag *diag)
{
    double v, scale;

    if (!value_of(text, &v))
        return augur_diag_set(diag, AUGUR_EPARSE, r->c.path, line, 0, "%s: '%.40s' is no number",
                              quantities[q].metric, text);
    if (isnan(v))
        return 0;
    if ((scale = unit_scale(unit)) < 0)
        return augur_diag_set(diag, AUGUR_EPARSE, r->c.path, line, 0, "%s: unknown unit '%.40s'",
                              quantities[q].metric, unit);
    if (v < 0)
        return augur_diag_set(diag, AUGUR_EPARSE, r->c.path, line, 0, "%s is negative (%g)",
                              quantities[q].metric, v);
    l->value[q] = v * scale;
    return 0;
}

/* The raw page: the header, a row of units, a launch a row. */
static int read_raw(struct reader *r, struct augur_diag *diag)
{
    long col[AUGUR_NCU_NQUANTITIES];
    char **units;
    size_t ncols = r->c.n;
    uint32_t line;
    int rc;

    for (int q = 0; q < AUGUR_NCU_NQUANTITIES; q++)
        col[q] = column(&r->c, quantities[q].metric);
    units = augur_calloc(ncols, sizeof(*units));
    line = r->c.line; /* where a missing row of units would be */
    rc = csv_next(&r->c, &line, diag);
    if (rc == 1)
        rc = augur_diag_set(diag, AUGUR_ETRUNC, r->c.path, line, 0,
                            "the raw page ends before its row of units");
    for (size_t i = 0; rc == 0 && i < ncols; i++)
        units[i] = augur_arena_strdup(&r->n->strings, field(&r->c, i));
    while (rc == 0 && (rc = csv_next(&r->c, &line, diag)) == 0) {
        struct augur_ncu_launch *l;

        if (r->c.n == 1 && !field(&r->c, 0)[0])
            continue; /* an empty line */
        if (r->c.n != ncols) {
            rc = augur_diag_set(diag, AUGUR_EPARSE, r->c.path, line, 0,
                                "%zu fields where the header has %zu", r->c.n, ncols);
            break;
        }
        if (!(l = new_launch(r, line, diag))) {
            rc = diag ? diag->code : AUGUR_EPARSE;
            break;
        }
        for (int q = 0; rc == 0 && q < AUGUR_NCU_NQUANTITIES; q++)
            if (col[q] >= 0)
                rc = set_value(r, l, q, field(&r->c, (size_t)col[q]), units[col[q]], line, diag);
    }
    augur_free(units);
    return rc == 1 ? 0 : rc;
}

/* The details page: a metric a row; a launch's rows share its ID. */
static int read_details(struct reader *r, long name, long unit, long value, struct augur_diag *diag)
{
    size_t ncols = r->c.n;
    uint32_t line = r->c.line;
    int rc;

    while ((rc = csv_next(&r->c, &line, diag)) == 0) {
        struct augur_ncu_launch *l = NULL;
        double id;
        int q;

        if (r->c.n == 1 && !field(&r->c, 0)[0])
            continue;
        if (r->c.n != ncols)
            return augur_diag_set(diag, AUGUR_EPARSE, r->c.path, line, 0,
                                  "%zu fields where the header has %zu", r->c.n, ncols);
        /* the launch: the last one when this row has its ID, else a new one */
        if (r->launches.len && value_of(field(&r->c, (size_t)r->id), &id) &&
            id == (double)((struct augur_ncu_launch *)r->launches.data)[r->launches.len - 1].id)
            l = (struct augur_ncu_launch *)r->launches.data + r->launches.len - 1;
        if (!l && !(l = new_launch(r, line, diag)))
            return diag ? diag->code : AUGUR_EPARSE;
        if ((q = quantity_of(field(&r->c, (size_t)name))) >= 0 &&
            (rc = set_value(r, l, q, field(&r->c, (size_t)value), field(&r->c, (size_t)unit), line,
                            diag)) != 0)
            return rc;
    }
    return rc == 1 ? 0 : rc;
}

int augur_ncu_parse(const char *text, size_t len, const char *path, struct augur_ncu **out,
                    struct augur_diag *diag)
{
    struct reader r;
    uint32_t line = 0;
    int rc;

    *out = NULL;
    memset(&r, 0, sizeof(r));
    r.c.text = text;
    r.c.len = len;
    r.c.line = 1;
    r.c.path = path;
    augur_buf_init(&r.c.buf);
    augur_vec_init(&r.launches, sizeof(struct augur_ncu_launch));
    r.n = augur_calloc(1, sizeof(*r.n));
    augur_arena_init(&r.n->strings, 0);
    /* the header: the first row whose first field is "ID" and that names the kernel */
    while ((rc = csv_next(&r.c, &line, diag)) == 0)
        if (strcmp(field(&r.c, 0), "ID") == 0 && column(&r.c, "Kernel Name") >= 0)
            break;
    if (rc == 1)
        rc = augur_diag_set(diag, AUGUR_EFORMAT, path, 0, 0,
                            "no Nsight Compute table: no header row starting \"ID\" with a "
                            "\"Kernel Name\" column (ncu --csv --page raw, or --csv)");
    if (rc == 0) {
        long name = column(&r.c, "Metric Name"), unit = column(&r.c, "Metric Unit"),
             value = column(&r.c, "Metric Value");

        r.id = 0;
        r.kernel = column(&r.c, "Kernel Name");
        r.block = column(&r.c, "Block Size");
        r.grid = column(&r.c, "Grid Size");
        r.n->details = name >= 0 && unit >= 0 && value >= 0;
        rc = r.n->details ? read_details(&r, name, unit, value, diag) : read_raw(&r, diag);
    }
    if (rc == 0 && !r.launches.len)
        rc = augur_diag_set(diag, AUGUR_EFORMAT, path, line, 0,
                            "the Nsight Compute table holds no kernel launch");
    augur_buf_release(&r.c.buf);
    augur_free(r.c.off);
    if (rc != 0) {
        augur_vec_release(&r.launches);
        augur_ncu_free(r.n);
        return rc;
    }
    r.n->launches = augur_vec_take(&r.launches, &r.n->nlaunches);
    *out = r.n;
    return 0;
}

int augur_ncu_load(const char *path, struct augur_ncu **out, struct augur_diag *diag)
{
    struct augur_buf buf;
    int rc;

    *out = NULL;
    augur_buf_init(&buf);
    rc = augur_file_read(path, 0, &buf, NULL, diag);
    if (rc == 0)
        rc = augur_ncu_parse(buf.s ? buf.s : "", buf.len, path, out, diag);
    augur_buf_release(&buf);
    return rc;
}

void augur_ncu_free(struct augur_ncu *n)
{
    if (!n)
        return;
    augur_free(n->launches);
    augur_arena_release(&n->strings);
    augur_free(n);
}

/* ---- a kernel's launches, and augur beside them ---------------------------------------- */

/* Whether l is a launch of kernel (and the one numbered id, when id >= 0). */
static bool matches(const struct augur_ncu_launch *l, const char *kernel, int64_t id)
{
    return strcmp(l->name, kernel) == 0 && (id < 0 || l->id == (uint64_t)id);
}

int augur_ncu_select(const struct augur_ncu *n, const char *kernel, int64_t id,
                     struct augur_ncu_launch *out, uint32_t *count, struct augur_diag *diag)
{
    struct augur_buf names;
    double *v;
    size_t k = 0;

    *count = 0;
    for (size_t i = 0; i < n->nlaunches; i++)
        if (matches(&n->launches[i], kernel, id) && !k++)
            *out = n->launches[i];
    if (!k) {
        augur_buf_init(&names);
        for (size_t i = 0; i < n->nlaunches && names.len < 200; i++) {
            char quoted[sizeof(n->launches[i].name) + 2];

            snprintf(quoted, sizeof(quoted), "'%s'", n->launches[i].name);
            if (!names.s || !strstr(names.s, quoted))
                augur_buf_printf(&names, "%s%s", names.len ? ", " : "", quoted);
        }
        if (id >= 0)
            augur_diag_set(diag, AUGUR_ENOENT, NULL, 0, 0,
                           "the Nsight Compute file has no launch %lld of kernel '%s' "
                           "(its kernels: %s)",
                           (long long)id, kernel, names.s ? names.s : "");
        else
            augur_diag_set(diag, AUGUR_ENOENT, NULL, 0, 0,
                           "the Nsight Compute file has no launch of kernel '%s' (its kernels: "
                           "%s)",
                           kernel, names.s ? names.s : "");
        augur_buf_release(&names);
        return AUGUR_ENOENT;
    }
    *count = (uint32_t)(k < UINT32_MAX ? k : UINT32_MAX);
    if (k == 1)
        return 0;
    /* each metric's median over the launches that have it */
    v = augur_mallocarray(k, sizeof(*v));
    for (int q = 0; q < AUGUR_NCU_NQUANTITIES; q++) {
        size_t m = 0;

        for (size_t i = 0; i < n->nlaunches; i++) {
            const struct augur_ncu_launch *l = &n->launches[i];

            if (matches(l, kernel, id) && !isnan(l->value[q]))
                v[m++] = l->value[q];
        }
        qsort(v, m, sizeof(*v), augur_cmp_double);
        out->value[q] = !m ? NAN : m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
    }
    augur_free(v);
    return 0;
}

/* The cache level named name, else fallback. */
static unsigned level_named(const struct augur_workload *w, const char *name, unsigned fallback)
{
    for (unsigned l = 0; l < w->nlevels; l++)
        if (strcmp(w->level_name[l], name) == 0)
            return l;
    return fallback;
}

size_t augur_ncu_compare(const struct augur_ncu_launch *launch, const struct augur_workload *w,
                         double kernel_seconds, struct augur_ncu_row *rows)
{
    const struct augur_work_gpu *g = &w->gpu;
    double mine[AUGUR_NCU_NQUANTITIES];
    unsigned l2 = level_named(w, "L2", w->nlevels ? w->nlevels - 1 : 0);
    size_t n = 0;

    for (int q = 0; q < AUGUR_NCU_NQUANTITIES; q++)
        mine[q] = NAN;
    if (kernel_seconds > 0)
        mine[AUGUR_NCU_SECONDS] = kernel_seconds;
    if (w->gpu_given) {
        mine[AUGUR_NCU_WARP_LOADS] = mine[AUGUR_NCU_L1_REQUESTS] = g->jobs;
        if (w->nlevels > 1 && g->read_sectors[0] > 0) {
            mine[AUGUR_NCU_L1_SECTORS] = g->read_sectors[0];
            mine[AUGUR_NCU_L1_HITS] = g->sector_hits[0];
            mine[AUGUR_NCU_L2_SECTORS] = g->read_sectors[l2];
            mine[AUGUR_NCU_L2_HITS] = g->sector_hits[l2];
        }
        mine[AUGUR_NCU_DRAM_READ] = g->sector_hits[w->nlevels] * 32;
        mine[AUGUR_NCU_DRAM_WRITE] = g->dram_write_bytes;
        if (g->branches > 0) {
            mine[AUGUR_NCU_DIVERGENT] = g->divergent_branches;
            mine[AUGUR_NCU_BRANCH_EFF] = 100 * (1 - g->divergent_branches / g->branches);
        }
    }
    for (int q = 0; q < AUGUR_NCU_NQUANTITIES; q++)
        if (!isnan(launch->value[q]) && !isnan(mine[q]))
            rows[n++] =
                (struct augur_ncu_row){ (enum augur_ncu_quantity)q, launch->value[q], mine[q] };
    return n;
}
