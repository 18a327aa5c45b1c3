/*
 * report.c - the findings of a prediction (the kernel's time, the line that
 * takes most of it, the other lines whose indirect accesses cost, a thread
 * that does more than its share, vector lanes left idle) and their
 * renderings: SARIF 2.1.0, compiler-style diagnostics and the annotated
 * source. The JSON document is report_json.c's.
 */
#include "augur/report.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

void augur_report_opts_init(struct augur_report_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->min_share = 0.05;
    o->imbalance = 1.10;
    o->simd_util = 0.5;
}

int augur_report_format_parse(const char *name, enum augur_report_format *out,
                              struct augur_diag *diag)
{
    static const struct {
        const char *name;
        enum augur_report_format f;
    } names[] = {
        { "json", AUGUR_REPORT_JSON }, { "sarif", AUGUR_REPORT_SARIF },
        { "diag", AUGUR_REPORT_DIAG }, { "annotate", AUGUR_REPORT_ANNOTATE },
        { "html", AUGUR_REPORT_HTML },
    };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].f;
            return 0;
        }
    return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                          "unknown report format '%s' (json, sarif, diag, annotate or html)", name);
}

/* ---- findings ------------------------------------------------------------------------ */

const struct report_rule report_rules[NRULES] = {
    { "augur/prediction", "Prediction", "note", "The predicted time of one call of the kernel.",
      "The time of one call of the kernel on the dataset and machine, from the model augur "
      "selected, with the bottleneck it names." },
    { "augur/bottleneck-line", "BottleneckLine", "warning",
      "The source line that takes the largest share of the predicted time.",
      "The line whose accesses and operations take the largest share of the kernel's predicted "
      "time under the selected model: where a change pays most." },
    { "augur/indirect-access", "IndirectAccess", "note",
      "A line whose indirect accesses take a notable share of the time.",
      "A line with accesses through an index array (x[col[j]]) that takes a notable share of "
      "the predicted time; their locality depends on the data, so reordering the data changes "
      "their cost." },
    { "augur/load-imbalance", "LoadImbalance", "warning",
      "The busiest thread does notably more than its share of the work.",
      "The busiest OpenMP thread makes notably more accesses than the mean thread on this data: "
      "the others wait for it. A dynamic or guided schedule, or a partition by work rather than "
      "by rows, evens it out." },
    { "augur/low-simd-utilization", "LowSimdUtilization", "warning",
      "The kernel's vector accesses leave most lanes idle.",
      "The share of active lanes over the lanes of the kernel's vector accesses is low on this "
      "data: a tile size or a storage format that packs the rows better uses more of each "
      "vector." },
};

static struct report_finding *add(struct report_findings *fs, int rule, uint32_t file,
                                  uint32_t line)
{
    struct report_finding *f;

    if (fs->n == fs->cap) {
        fs->cap = fs->cap ? 2 * fs->cap : 8;
        fs->f = augur_reallocarray(fs->f, fs->cap, sizeof(*fs->f));
    }
    f = &fs->f[fs->n++];
    f->rule = rule;
    f->file = file;
    f->line = line;
    f->msg[0] = '\0';
    f->props = json_object();
    return f;
}

void report_findings_free(struct report_findings *fs)
{
    for (size_t i = 0; i < fs->n; i++)
        json_decref(fs->f[i].props);
    augur_free(fs->f);
}

const char *augur_report_time(double s, char *buf, size_t size)
{
    if (!(s > 0))
        snprintf(buf, size, "-");
    else if (s < 1e-6)
        snprintf(buf, size, "%.3g ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, size, "%.3g us", s * 1e6);
    else if (s < 1)
        snprintf(buf, size, "%.3g ms", s * 1e3);
    else
        snprintf(buf, size, "%.3g s", s);
    return buf;
}

/* The levels beyond L1 that served a line, as "L2 1300, memory 12" (only the non-zero ones). */
static void served_text(const struct augur_workload *w, const struct augur_work_line *l, char *buf,
                        size_t size)
{
    size_t at = 0;

    buf[0] = '\0';
    for (unsigned v = 1; v <= w->nlevels && at < size; v++) {
        if (!(l->served[v] > 0))
            continue;
        at += (size_t)snprintf(buf + at, size - at, "%s%s %.3g", at ? ", " : "", w->level_name[v],
                               l->served[v]);
    }
    if (!buf[0])
        snprintf(buf, size, "all from L1");
}

static void line_props(json_t *p, const struct augur_workload *w, const struct augur_work_line *l,
                       double seconds, double share)
{
    json_t *lv = json_object();

    json_object_set_new(p, "seconds", json_real(seconds));
    json_object_set_new(p, "share", json_real(share));
    json_object_set_new(p, "accesses", json_real(l->accesses));
    json_object_set_new(p, "indirect", json_boolean(l->irregular > 0));
    for (unsigned v = 0; v <= w->nlevels; v++)
        json_object_set_new(lv, w->level_name[v], json_real(l->served[v]));
    json_object_set_new(p, "served", lv);
}

static void line_findings(const struct augur_predict_result *r, const struct augur_report_opts *o,
                          struct report_findings *fs)
{
    const struct augur_workload *w = &r->work;
    const struct augur_prediction *sel = augur_predict_selected(r);
    double total = 0;
    size_t top = SIZE_MAX;
    char t[32], served[160];

    if (!sel->line_seconds)
        return;
    for (size_t i = 0; i < w->nlines; i++) {
        total += sel->line_seconds[i];
        if (top == SIZE_MAX || sel->line_seconds[i] > sel->line_seconds[top])
            top = i;
    }
    if (!(total > 0))
        return;
    for (size_t i = 0; i < w->nlines; i++) {
        const struct augur_work_line *l = &w->lines[i];
        double share = sel->line_seconds[i] / total;
        struct report_finding *f;

        if (i != top && (!(l->irregular > 0) || share < o->min_share))
            continue;
        f = add(fs, i == top ? R_BOTTLENECK : R_INDIRECT, l->file, l->line);
        served_text(w, l, served, sizeof(served));
        if (i == top && !(l->accesses > 0))
            snprintf(f->msg, sizeof(f->msg),
                     "this line takes %.1f%% of the predicted time (%s of %s per call, model %s): "
                     "its operations and branches, no memory access",
                     100 * share, augur_report_time(sel->line_seconds[i], t, sizeof(t)),
                     augur_report_time(sel->seconds, (char[32]){ 0 }, 32), sel->model);
        else if (i == top)
            snprintf(f->msg, sizeof(f->msg),
                     "this line takes %.1f%% of the predicted time (%s of %s per call, model %s); "
                     "%.3g accesses per call%s; beyond L1: %s",
                     100 * share, augur_report_time(sel->line_seconds[i], t, sizeof(t)),
                     augur_report_time(sel->seconds, (char[32]){ 0 }, 32), sel->model, l->accesses,
                     l->irregular > 0 ? ", indirect" : "", served);
        else
            snprintf(f->msg, sizeof(f->msg),
                     "indirect accesses take %.1f%% of the predicted time (%s per call); "
                     "%.3g accesses per call; beyond L1: %s",
                     100 * share, augur_report_time(sel->line_seconds[i], t, sizeof(t)),
                     l->accesses, served);
        line_props(f->props, w, l, sel->line_seconds[i], share);
    }
}

void report_collect(const struct augur_predict_result *r, const struct augur_report_opts *o,
                    struct report_findings *fs)
{
    const struct augur_workload *w = &r->work;
    const struct augur_prediction *sel = augur_predict_selected(r);
    double imbalance = w->busiest_share * w->threads;
    struct report_finding *f;
    char t[32];

    f = add(fs, R_PREDICTION, r->kernel_file, r->kernel_line);
    snprintf(f->msg, sizeof(f->msg),
             "%s: predicted %s per call on %s (%" PRIu32 " x %" PRIu32 ", %" PRIu64
             " entries), machine %s, %u thread%s (model %s, bottleneck %s)",
             r->kernel_name, augur_report_time(sel->seconds, t, sizeof(t)),
             r->dataset ? r->dataset : "-", r->rows, r->cols, r->nnz, r->machine->name, w->threads,
             w->threads == 1 ? "" : "s", sel->model, sel->bottleneck ? sel->bottleneck : "-");
    json_object_set_new(f->props, "seconds", json_real(sel->seconds));
    json_object_set_new(f->props, "model", json_string(sel->model));
    json_object_set_new(f->props, "bottleneck",
                        json_string(sel->bottleneck ? sel->bottleneck : ""));
    json_object_set_new(f->props, "threads", json_integer(w->threads));
    if (o->meas) {
        json_object_set_new(f->props, "measured", json_real(o->meas->median));
        json_object_set_new(f->props, "error",
                            json_real(augur_error_rate(o->meas->median, sel->seconds)));
    }

    line_findings(r, o, fs);

    if (w->threads > 1 && imbalance >= o->imbalance) {
        f = add(fs, R_IMBALANCE, r->kernel_file, r->kernel_line);
        snprintf(f->msg, sizeof(f->msg),
                 "the busiest of %u threads makes %.2fx the mean thread's accesses on %s; the "
                 "others wait for it",
                 w->threads, imbalance, r->dataset ? r->dataset : "the data");
        json_object_set_new(f->props, "busiest_over_mean", json_real(imbalance));
        json_object_set_new(f->props, "threads", json_integer(w->threads));
    }
    if (r->simd_kernel && w->simd_util < o->simd_util) {
        f = add(fs, R_SIMD, r->kernel_file, r->kernel_line);
        snprintf(f->msg, sizeof(f->msg), "the vector accesses use %.1f%% of their lanes on %s",
                 100 * w->simd_util, r->dataset ? r->dataset : "the data");
        json_object_set_new(f->props, "simd_utilization", json_real(w->simd_util));
    }
}

/* ---- SARIF ---------------------------------------------------------------------------- */

/* A path as a URI reference: unreserved bytes and '/' as they are, the rest %-escaped. */
static json_t *uri_of(const char *path)
{
    struct augur_buf b;
    json_t *s;

    augur_buf_init(&b);
    if (path[0] == '/')
        augur_buf_puts(&b, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            augur_buf_putc(&b, (char)*p);
        else
            augur_buf_printf(&b, "%%%02X", *p);
    }
    s = json_string(b.s ? b.s : "");
    augur_buf_release(&b);
    return s;
}

static json_t *sarif_rules(void)
{
    json_t *a = json_array();

    for (int i = 0; i < NRULES; i++)
        json_array_append_new(a, json_pack("{s:s,s:s,s:{s:s},s:{s:s},s:{s:s}}", "id",
                                           report_rules[i].id, "name", report_rules[i].name,
                                           "shortDescription", "text", report_rules[i].short_text,
                                           "fullDescription", "text", report_rules[i].full_text,
                                           "defaultConfiguration", "level", report_rules[i].level));
    return a;
}

static json_t *sarif_result(const struct augur_predict_result *r, const struct report_finding *f)
{
    const char *file = f->file < r->nfiles ? r->files[f->file] : "";
    json_t *loc;

    loc = json_pack("{s:{s:{s:o},s:{s:i}}}", "physicalLocation", "artifactLocation", "uri",
                    uri_of(file), "region", "startLine", (int)(f->line ? f->line : 1));
    return json_pack("{s:s,s:i,s:s,s:{s:s},s:[o],s:O}", "ruleId", report_rules[f->rule].id,
                     "ruleIndex", f->rule, "level", report_rules[f->rule].level, "message", "text",
                     f->msg, "locations", loc, "properties", f->props);
}

static json_t *sarif(const struct augur_predict_result *r, const struct augur_report_opts *o,
                     const struct report_findings *fs)
{
    json_t *results = json_array(), *run, *summary;

    for (size_t i = 0; i < fs->n; i++)
        json_array_append_new(results, sarif_result(r, &fs->f[i]));
    summary = augur_report_json(r, o);
    json_object_del(summary, "workload"); /* the counts stay in the JSON document */
    json_object_del(summary, "lines");
    run = json_pack("{s:{s:{s:s,s:s,s:o}},s:o,s:{s:o}}", "tool", "driver", "name", "augur",
                    "version", AUGUR_VERSION, "rules", sarif_rules(), "results", results,
                    "properties", "prediction", summary);
    return json_pack("{s:s,s:s,s:[o]}", "$schema",
                     "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                     "sarif-schema-2.1.0.json",
                     "version", "2.1.0", "runs", run);
}

/* ---- diagnostics ----------------------------------------------------------------------- */

static void diag_lines(const struct augur_predict_result *r, const struct report_findings *fs,
                       struct augur_buf *out)
{
    for (size_t i = 0; i < fs->n; i++) {
        const struct report_finding *f = &fs->f[i];

        augur_buf_printf(out, "%s:%" PRIu32 ": %s: %s [%s]\n",
                         f->file < r->nfiles ? r->files[f->file] : "?", f->line ? f->line : 1,
                         report_rules[f->rule].level, f->msg, report_rules[f->rule].id);
    }
}

/* ---- annotated source ------------------------------------------------------------------- */

/* A source line as the terminal may show it: tabs kept, other control bytes as '?'. */
static void put_source(struct augur_buf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        augur_buf_putc(out, (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c);
    }
}

/* Annotates file fi's lines lo..hi: each with its share, time and counts where it has them. */
static int annotate_file(const struct augur_predict_result *r, const struct augur_report_opts *o,
                         uint32_t fi, uint32_t lo, uint32_t hi, size_t top, struct augur_buf *out,
                         struct augur_diag *diag)
{
    const struct augur_workload *w = &r->work;
    const struct augur_prediction *sel = augur_predict_selected(r);
    struct augur_buf src;
    const char *p, *end;
    double total = 0;
    uint32_t ln = 1;
    char t[32];

    augur_buf_init(&src);
    if (augur_file_read(r->files[fi], 0, &src, NULL, diag) != 0) {
        augur_buf_release(&src);
        return diag->code;
    }
    for (size_t i = 0; i < w->nlines; i++)
        total += sel->line_seconds ? sel->line_seconds[i] : 0;
    augur_buf_printf(out, "%s (model %s, %s per call):\n\n%7s %10s %10s", r->files[fi], sel->model,
                     augur_report_time(sel->seconds, t, sizeof(t)), "share", "time", "accesses");
    for (unsigned v = 1; v <= w->nlevels; v++)
        augur_buf_printf(out, " %9s", w->level_name[v]);
    augur_buf_printf(out, " %3s %6s  source\n", "ind", "line");
    p = src.s ? src.s : "";
    end = p + src.len;
    for (; p < end && ln <= hi; ln++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        size_t at = SIZE_MAX;
        bool hot;

        for (size_t i = 0; i < w->nlines && ln >= lo; i++)
            if (w->lines[i].file == fi && w->lines[i].line == ln)
                at = i;
        if (ln >= lo) {
            double sec = at != SIZE_MAX && sel->line_seconds ? sel->line_seconds[at] : 0;

            hot = at != SIZE_MAX && total > 0 && sec / total >= o->min_share;
            if (o->color && at == top)
                augur_buf_puts(out, "\033[1;31m");
            else if (o->color && hot)
                augur_buf_puts(out, "\033[33m");
            if (at != SIZE_MAX && (w->lines[at].accesses > 0 || sec > 0)) {
                const struct augur_work_line *l = &w->lines[at];

                augur_buf_printf(out, "%6.1f%% %10s %10.4g", total > 0 ? 100 * sec / total : 0.0,
                                 augur_report_time(sec, t, sizeof(t)), l->accesses);
                for (unsigned v = 1; v <= w->nlevels; v++)
                    augur_buf_printf(out, " %9.4g", l->served[v]);
                augur_buf_printf(out, " %3s", l->irregular > 0 ? "yes" : "");
            } else {
                augur_buf_printf(out, "%7s %10s %10s", "", "", "");
                for (unsigned v = 1; v <= w->nlevels; v++)
                    augur_buf_printf(out, " %9s", "");
                augur_buf_printf(out, " %3s", "");
            }
            augur_buf_printf(out, " %5" PRIu32 "%c ", ln, at == top ? '>' : ' ');
            put_source(out, p, n);
            if (o->color && (at == top || hot))
                augur_buf_puts(out, "\033[0m");
            augur_buf_putc(out, '\n');
        }
        p = nl ? nl + 1 : end;
    }
    augur_buf_release(&src);
    return 0;
}

static int annotate(const struct augur_predict_result *r, const struct augur_report_opts *o,
                    struct augur_buf *out, struct augur_diag *diag)
{
    const struct augur_workload *w = &r->work;
    const struct augur_prediction *sel = augur_predict_selected(r);
    size_t top = SIZE_MAX;

    for (size_t i = 0; sel->line_seconds && i < w->nlines; i++)
        if (top == SIZE_MAX || sel->line_seconds[i] > sel->line_seconds[top])
            top = i;
    for (uint32_t fi = 0; fi < r->nfiles; fi++) {
        uint32_t lo, hi;

        if (!report_file_span(r, fi, &lo, &hi))
            continue;
        if (out->len)
            augur_buf_putc(out, '\n');
        /* two lines of context each side: the loop headers and the closing brace */
        if (annotate_file(r, o, fi, lo > 2 ? lo - 2 : 1, hi + 2, top, out, diag) != 0)
            return diag->code;
    }
    augur_buf_printf(out, "\n(columns after accesses: requests served by each level beyond L1, per "
                          "call; ind: indirect; >: the line with the largest share)\n");
    return 0;
}

bool report_file_span(const struct augur_predict_result *r, uint32_t fi, uint32_t *lo, uint32_t *hi)
{
    const struct augur_workload *w = &r->work;

    *lo = UINT32_MAX;
    *hi = 0;
    for (size_t i = 0; i < w->nlines; i++)
        if (w->lines[i].file == fi && w->lines[i].line > 0) {
            *lo = w->lines[i].line < *lo ? w->lines[i].line : *lo;
            *hi = w->lines[i].line > *hi ? w->lines[i].line : *hi;
        }
    if (fi == r->kernel_file && r->kernel_line > 0 && r->kernel_line < *lo)
        *lo = r->kernel_line;
    return *hi > 0;
}

/* ---- entry ------------------------------------------------------------------------------ */

int augur_report_render(const struct augur_predict_result *r, enum augur_report_format f,
                        const struct augur_report_opts *o, struct augur_buf *out,
                        struct augur_diag *diag)
{
    struct report_findings fs = { 0 };
    json_t *doc = NULL;
    char *s;
    int rc = 0;

    switch (f) {
    case AUGUR_REPORT_JSON:
        doc = augur_report_json(r, o);
        break;
    case AUGUR_REPORT_SARIF:
        report_collect(r, o, &fs);
        doc = sarif(r, o, &fs);
        break;
    case AUGUR_REPORT_DIAG:
        report_collect(r, o, &fs);
        diag_lines(r, &fs, out);
        break;
    case AUGUR_REPORT_ANNOTATE:
        rc = annotate(r, o, out, diag);
        break;
    case AUGUR_REPORT_HTML:
        rc = report_html(r, o, out, diag);
        break;
    }
    if (doc) {
        s = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        json_decref(doc);
        if (!s) {
            report_findings_free(&fs);
            return augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "cannot build the report");
        }
        augur_buf_puts(out, s);
        augur_buf_putc(out, '\n');
        free(s);
    }
    report_findings_free(&fs);
    return rc;
}
