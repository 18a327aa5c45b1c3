/*
 * report_html.c - a prediction as one self-contained HTML page (no script,
 * no network): the summary, the models side by side, the findings, charts
 * drawn as inline SVG (time per line, requests per level, work per thread,
 * the rounds of a BFS) and the annotated source.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/report.h"
#include "report_int.h"

/* Text as HTML: the five special characters escaped, control bytes as U+FFFD. */
static void esc(struct augur_buf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];

        switch (c) {
        case '&':
            augur_buf_puts(out, "&amp;");
            break;
        case '<':
            augur_buf_puts(out, "&lt;");
            break;
        case '>':
            augur_buf_puts(out, "&gt;");
            break;
        case '"':
            augur_buf_puts(out, "&quot;");
            break;
        case '\'':
            augur_buf_puts(out, "&#39;");
            break;
        default:
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                augur_buf_puts(out, "&#xFFFD;");
            else
                augur_buf_putc(out, (char)c);
        }
    }
}

static void escs(struct augur_buf *out, const char *s)
{
    esc(out, s ? s : "", SIZE_MAX);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

/* ---- charts ----------------------------------------------------------------------------- */

enum unit { U_TIME, U_COUNT };

struct bar {
    char label[64];
    double value;
    bool hot; /* drawn in the accent colour */
};

static void value_text(double v, enum unit u, char *buf, size_t size)
{
    if (u == U_TIME)
        augur_report_time(v, buf, size);
    else
        snprintf(buf, size, "%.4g", v);
}

/* A horizontal bar chart: one row per bar, its label left, its value right of the bar. */
static void hbars(struct augur_buf *out, const char *title, const struct bar *b, size_t n,
                  enum unit u)
{
    const double row = 22, label_w = 170, bar_w = 360, top = 8;
    double max = 0, h = top + row * (double)n + 8;
    char v[32];

    for (size_t i = 0; i < n; i++)
        max = b[i].value > max ? b[i].value : max;
    augur_buf_printf(out,
                     "<figure><svg role=\"img\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f "
                     "%.0f\" aria-label=\"",
                     label_w + bar_w + 110, h, label_w + bar_w + 110, h);
    escs(out, title);
    augur_buf_puts(out, "\">\n");
    for (size_t i = 0; i < n; i++) {
        double y = top + row * (double)i, w = max > 0 ? bar_w * b[i].value / max : 0;

        value_text(b[i].value, u, v, sizeof(v));
        augur_buf_printf(out, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", label_w - 8,
                         y + 15);
        escs(out, b[i].label);
        augur_buf_printf(out,
                         "</text><rect x=\"%.0f\" y=\"%.1f\" width=\"%.1f\" height=\"16\" "
                         "class=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                         label_w, y + 2, w > 0.5 || b[i].value <= 0 ? w : 0.5,
                         b[i].hot ? "hot" : "bar", label_w + w + 6, y + 15, v);
    }
    augur_buf_puts(out, "</svg><figcaption>");
    escs(out, title);
    augur_buf_puts(out, "</figcaption></figure>\n");
}

/* A column chart over a sequence (the rounds of a BFS): one column each, the axis labelled. */
static void columns(struct augur_buf *out, const char *title, const double *v, size_t n,
                    const char *xlabel)
{
    const double w = 560, h = 160, left = 60, bottom = 24;
    double max = 0, cw = n ? (w - left) / (double)n : 0;

    for (size_t i = 0; i < n; i++)
        max = v[i] > max ? v[i] : max;
    augur_buf_printf(out,
                     "<figure><svg role=\"img\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f "
                     "%.0f\" aria-label=\"",
                     w + 10, h + bottom, w + 10, h + bottom);
    escs(out, title);
    augur_buf_printf(out, "\">\n<text x=\"%.0f\" y=\"12\" text-anchor=\"end\">%.3g</text>\n",
                     left - 6, max);
    for (size_t i = 0; i < n; i++) {
        double ch = max > 0 ? (h - 16) * v[i] / max : 0;

        augur_buf_printf(out,
                         "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                         "class=\"bar\"><title>%zu: %.4g</title></rect>\n",
                         left + cw * (double)i + 1, h - ch, cw > 3 ? cw - 2 : cw, ch, i + 1, v[i]);
    }
    augur_buf_printf(out,
                     "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"axis\"/>"
                     "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%s 1 .. %zu</text>\n",
                     left, h, w, h, (left + w) / 2, h + 18, xlabel, n);
    augur_buf_puts(out, "</svg><figcaption>");
    escs(out, title);
    augur_buf_puts(out, "</figcaption></figure>\n");
}

/* ---- sections ---------------------------------------------------------------------------- */

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222}"
    "h1{font-size:22px;margin-bottom:4px}h1 small{color:#666;font-weight:normal}"
    "h2{font-size:17px;border-bottom:1px solid #ddd;margin-top:28px}"
    ".summary{font-size:16px}.summary b{color:#b3261e}"
    "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}"
    "th{border-bottom:1px solid #bbb}td.l,th.l{text-align:left}"
    "tr.sel td{font-weight:bold}"
    "table.src{display:block;overflow-x:auto}table.src td{padding:0 6px;white-space:pre;font:12px/1.5 ui-monospace,monospace}"
    "table.src tr.hot td{background:#fde2df}table.src tr.warm td{background:#fff4d6}"
    "table.src td.code{text-align:left}"
    ".share{display:inline-block;height:9px;background:#d9534f;vertical-align:middle}"
    "svg text{font:12px system-ui,sans-serif;fill:#222}rect.bar{fill:#4a79b8}"
    "rect.hot{fill:#d9534f}line.axis{stroke:#888}"
    "figure{margin:8px 0}figcaption{color:#555;font-size:12px}"
    "li.warning{color:#8a1c13}li.note{color:#333}";

static void summary(struct augur_buf *out, const struct augur_predict_result *r,
                    const struct augur_report_opts *o)
{
    const struct augur_prediction *sel = augur_predict_selected(r);
    const char *file = r->kernel_file < r->nfiles ? r->files[r->kernel_file] : "";
    char t[32];

    augur_buf_puts(out, "<h1>");
    escs(out, r->kernel_name);
    augur_buf_puts(out, " <small>");
    escs(out, file);
    augur_buf_printf(out,
                     ":%" PRIu32 "</small></h1>\n<p class=\"summary\">Predicted <b>%s</b> per call",
                     r->kernel_line, augur_report_time(sel->seconds, t, sizeof(t)));
    augur_buf_puts(out, " on ");
    escs(out, r->dataset ? r->dataset : "-");
    augur_buf_printf(out, " (%" PRIu32 " &times; %" PRIu32 ", %" PRIu64 " entries), machine ",
                     r->rows, r->cols, r->nnz);
    escs(out, r->machine->name);
    augur_buf_printf(out, ", %u thread%s; model %s, bottleneck ", r->work.threads,
                     r->work.threads == 1 ? "" : "s", sel->model);
    escs(out, sel->bottleneck ? sel->bottleneck : "-");
    augur_buf_puts(out, ".");
    if (o->meas)
        augur_buf_printf(out, " Measured %s (median of %" PRIu64 "): error %.1f%%.",
                         augur_report_time(o->meas->median, t, sizeof(t)), o->meas->reps,
                         100 * augur_error_rate(o->meas->median, sel->seconds));
    augur_buf_puts(out, "</p>\n<p>");
    if (r->sampled)
        augur_buf_printf(out,
                         "Simulated a %s sample of %.2f%% of the entries, counts scaled by "
                         "loop (a loop over a size of the data by its ratio, one whose trips "
                         "the data decide by the entries', %.4g). ",
                         augur_sampler_name(r->sample.method), 100 * r->sample.achieved, r->scale);
    else
        augur_buf_puts(out, "Simulated all of the data. ");
    augur_buf_printf(out, "One call: %.4g accesses, %.4g flops, %.4g bytes named.</p>\n",
                     r->work.total.accesses, r->work.flops, r->work.total.bytes);
}

static void models(struct augur_buf *out, const struct augur_predict_result *r)
{
    struct bar b[AUGUR_PRED_MAX_SERVERS];
    size_t n = 0;
    char t[32];

    augur_buf_puts(out,
                   "<h2>Models</h2>\n<table><tr><th class=\"l\">model</th><th>time per "
                   "call</th><th class=\"l\">bottleneck</th><th class=\"l\">source</th></tr>\n");
    for (uint32_t i = 0; i < r->nmodels; i++) {
        const struct augur_prediction *p = &r->pred[i];
        const struct augur_model_ops *ops = augur_model_at(i);

        augur_buf_printf(out, "<tr%s><td class=\"l\">%s</td><td>%s</td><td class=\"l\">",
                         i == r->selected ? " class=\"sel\"" : "", ops->name,
                         p->seconds > 0 ? augur_report_time(p->seconds, t, sizeof(t)) : "-");
        escs(out, p->seconds > 0 ? (p->bottleneck ? p->bottleneck : "-") : r->why[i]);
        augur_buf_puts(out, "</td><td class=\"l\">");
        escs(out, ops->source);
        augur_buf_puts(out, "</td></tr>\n");
        if (p->seconds > 0 && n < AUGUR_PRED_MAX_SERVERS) {
            snprintf(b[n].label, sizeof(b[n].label), "%s%s", ops->name,
                     i == r->selected ? " (selected)" : "");
            b[n].value = p->seconds;
            b[n++].hot = i == r->selected;
        }
    }
    augur_buf_puts(out, "</table>\n");
    augur_buf_printf(out, "<p>");
    escs(out, r->selected_why);
    augur_buf_puts(out, "</p>\n");
    hbars(out, "Each model's time of one call", b, n, U_TIME);
}

static void findings(struct augur_buf *out, const struct augur_predict_result *r,
                     const struct augur_report_opts *o)
{
    struct report_findings fs = { 0 };

    report_collect(r, o, &fs);
    augur_buf_puts(out, "<h2>Findings</h2>\n<ul>\n");
    for (size_t i = 0; i < fs.n; i++) {
        const struct report_finding *f = &fs.f[i];

        augur_buf_printf(out, "<li class=\"%s\"><code>", report_rules[f->rule].level);
        escs(out, f->file < r->nfiles ? base_name(r->files[f->file]) : "?");
        augur_buf_printf(out, ":%" PRIu32 "</code> %s: ", f->line, report_rules[f->rule].level);
        escs(out, f->msg);
        augur_buf_puts(out, " <small>[");
        escs(out, report_rules[f->rule].id);
        augur_buf_puts(out, "]</small></li>\n");
    }
    augur_buf_puts(out, "</ul>\n");
    report_findings_free(&fs);
}

static int cmp_desc(const void *a, const void *b)
{
    const struct bar *x = a, *y = b;

    return x->value < y->value ? 1 : x->value > y->value ? -1 : 0;
}

static void charts(struct augur_buf *out, const struct augur_predict_result *r)
{
    const struct augur_workload *w = &r->work;
    const struct augur_prediction *sel = augur_predict_selected(r);
    struct bar *b = augur_mallocarray(w->nlines + AUGUR_WORK_MAX_LEVELS + 2, sizeof(*b));
    size_t n = 0;

    augur_buf_puts(out, "<h2>Where the time goes</h2>\n");
    for (size_t i = 0; sel->line_seconds && i < w->nlines; i++) {
        const struct augur_work_line *l = &w->lines[i];

        if (!(sel->line_seconds[i] > 0))
            continue;
        snprintf(b[n].label, sizeof(b[n].label), "%s:%" PRIu32,
                 l->file < r->nfiles ? base_name(r->files[l->file]) : "?", l->line);
        b[n].value = sel->line_seconds[i];
        b[n++].hot = false;
    }
    qsort(b, n, sizeof(*b), cmp_desc);
    if (n) {
        b[0].hot = true;
        hbars(out, "Time per call by source line (selected model), largest first", b,
              n < 12 ? n : 12, U_TIME);
    }
    n = 0;
    for (unsigned v = 0; v <= w->nlevels; v++) {
        snprintf(b[n].label, sizeof(b[n].label), "%s", w->level_name[v]);
        b[n].value = w->total.served[v];
        b[n++].hot = v == w->nlevels;
    }
    hbars(out, "Requests per call by the level that served them", b, n, U_COUNT);
    if (w->threads > 1) {
        snprintf(b[0].label, sizeof(b[0].label), "busiest thread");
        b[0].value = w->busiest_share * w->total.accesses;
        b[0].hot = true;
        snprintf(b[1].label, sizeof(b[1].label), "mean of %u threads", w->threads);
        b[1].value = w->total.accesses / w->threads;
        b[1].hot = false;
        hbars(out, "Accesses per call: the busiest thread against the mean", b, 2, U_COUNT);
    }
    augur_free(b);
    if (w->nrounds) {
        double *acc = augur_mallocarray(w->nrounds, sizeof(*acc));

        for (uint32_t i = 0; i < w->nrounds; i++)
            acc[i] = w->rounds[i].accesses;
        columns(out, "Accesses per BFS round", acc, w->nrounds, "round");
        augur_free(acc);
    }
}

/* The annotated source: every line of each file the counts name, from the kernel to its end. */
static int source(struct augur_buf *out, const struct augur_predict_result *r,
                  const struct augur_report_opts *o, struct augur_diag *diag)
{
    const struct augur_workload *w = &r->work;
    const struct augur_prediction *sel = augur_predict_selected(r);
    double total = 0, top = 0;

    for (size_t i = 0; sel->line_seconds && i < w->nlines; i++) {
        total += sel->line_seconds[i];
        top = sel->line_seconds[i] > top ? sel->line_seconds[i] : top;
    }
    for (uint32_t fi = 0; fi < r->nfiles; fi++) {
        struct augur_buf src;
        uint32_t lo, hi, ln = 1;
        const char *p, *end;

        if (!report_file_span(r, fi, &lo, &hi))
            continue;
        augur_buf_init(&src);
        if (augur_file_read(r->files[fi], 0, &src, NULL, diag) != 0) {
            augur_buf_release(&src);
            return diag->code;
        }
        augur_buf_puts(out, "<h2>Source: ");
        escs(out, r->files[fi]);
        augur_buf_puts(out, "</h2>\n<table class=\"src\"><tr><th>share</th><th>time</th>"
                            "<th>accesses</th>");
        for (unsigned v = 1; v <= w->nlevels; v++)
            augur_buf_printf(out, "<th>%s</th>", w->level_name[v]);
        augur_buf_puts(out, "<th>ind</th><th>line</th><th class=\"l\">source</th></tr>\n");
        p = src.s ? src.s : "";
        end = p + src.len;
        lo = lo > 2 ? lo - 2 : 1;
        for (; p < end && ln <= hi + 2; ln++) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p), at = SIZE_MAX;
            double sec = 0;
            char t[32];

            for (size_t i = 0; ln >= lo && i < w->nlines; i++)
                if (w->lines[i].file == fi && w->lines[i].line == ln)
                    at = i;
            if (at != SIZE_MAX && sel->line_seconds)
                sec = sel->line_seconds[at];
            if (ln >= lo) {
                bool hot = sec > 0 && sec == top, warm = total > 0 && sec / total >= o->min_share;

                augur_buf_printf(out, "<tr%s>",
                                 hot    ? " class=\"hot\""
                                 : warm ? " class=\"warm\""
                                        : "");
                if (at != SIZE_MAX && (sec > 0 || w->lines[at].accesses > 0)) {
                    const struct augur_work_line *l = &w->lines[at];
                    double share = total > 0 ? sec / total : 0;

                    augur_buf_printf(out,
                                     "<td><span class=\"share\" style=\"width:%.0fpx\"></span> "
                                     "%.1f%%</td><td>%s</td><td>%.4g</td>",
                                     40 * share, 100 * share, augur_report_time(sec, t, sizeof(t)),
                                     l->accesses);
                    for (unsigned v = 1; v <= w->nlevels; v++)
                        augur_buf_printf(out, "<td>%.4g</td>", l->served[v]);
                    augur_buf_printf(out, "<td>%s</td>", l->irregular > 0 ? "yes" : "");
                } else {
                    augur_buf_puts(out, "<td></td><td></td><td></td>");
                    for (unsigned v = 1; v <= w->nlevels; v++)
                        augur_buf_puts(out, "<td></td>");
                    augur_buf_puts(out, "<td></td>");
                }
                augur_buf_printf(out, "<td>%" PRIu32 "</td><td class=\"code\">", ln);
                esc(out, p, n);
                augur_buf_puts(out, "</td></tr>\n");
            }
            p = nl ? nl + 1 : end;
        }
        augur_buf_puts(out, "</table>\n");
        augur_buf_release(&src);
    }
    return 0;
}

int report_html(const struct augur_predict_result *r, const struct augur_report_opts *o,
                struct augur_buf *out, struct augur_diag *diag)
{
    augur_buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                        "<title>augur: ");
    escs(out, r->kernel_name);
    augur_buf_puts(out, " on ");
    escs(out, r->dataset ? base_name(r->dataset) : "-");
    augur_buf_printf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
    summary(out, r, o);
    findings(out, r, o);
    models(out, r);
    charts(out, r);
    if (source(out, r, o, diag) != 0)
        return diag->code;
    augur_buf_printf(out, "<p><small>augur %s</small></p>\n</body>\n</html>\n", AUGUR_VERSION);
    return 0;
}
