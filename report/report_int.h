/*
 * report_int.h - what the report room's renderings share: the findings of
 * a prediction and their rules, and times as people read them.
 */
#ifndef AUGUR_REPORT_INT_H
#define AUGUR_REPORT_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "augur/report.h"

struct report_rule {
    const char *id, *name, *level, *short_text, *full_text;
};

enum { R_PREDICTION, R_BOTTLENECK, R_INDIRECT, R_IMBALANCE, R_SIMD, NRULES };

struct report_finding {
    int rule;
    uint32_t file, line;
    char msg[512];
    json_t *props; /* the figures behind the message */
};

struct report_findings {
    struct report_finding *f;
    size_t n, cap;
};

extern const struct report_rule report_rules[NRULES];

/* The findings of r: the prediction, the bottleneck line, costly indirect lines, imbalance, SIMD.
 */
void report_collect(const struct augur_predict_result *r, const struct augur_report_opts *o,
                    struct report_findings *fs);
void report_findings_free(struct report_findings *fs);

/* The whole HTML page (report_html.c). */
int report_html(const struct augur_predict_result *r, const struct augur_report_opts *o,
                struct augur_buf *out, struct augur_diag *diag);

/* The lines of file fi the counts name, from the kernel's first: false when none. */
bool report_file_span(const struct augur_predict_result *r, uint32_t fi, uint32_t *lo,
                      uint32_t *hi);

#endif
