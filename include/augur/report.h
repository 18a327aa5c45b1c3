/*
 * report.h - a prediction rendered where programmers read it: versioned
 * JSON, SARIF 2.1.0 for editors and code scanning, compiler-style
 * diagnostics for build logs, the kernel's source annotated with each
 * line's predicted share, and a self-contained HTML page with charts
 * (module: report).
 */
#ifndef AUGUR_REPORT_H
#define AUGUR_REPORT_H

#include <stdbool.h>

#include "augur/base.h"
#include "augur/measure.h"
#include "augur/predict.h"

enum augur_report_format {
    AUGUR_REPORT_JSON,     /* the whole result (format "augur-prediction") */
    AUGUR_REPORT_SARIF,    /* SARIF 2.1.0: one run, a result per finding */
    AUGUR_REPORT_DIAG,     /* file:line: warning: ... [augur-rule], as gcc writes them */
    AUGUR_REPORT_ANNOTATE, /* the kernel's source lines with their share, time and counts */
    AUGUR_REPORT_HTML,     /* one self-contained page: summary, models, findings, charts, source */
};

/* The version of the "augur-prediction" JSON document (docs/schema/prediction.schema.json). */
#define AUGUR_PREDICTION_VERSION 1

/*
 * What a report shows beside the result, and when a finding is worth a
 * message. Defaults (augur_report_opts_init()): findings for lines with at
 * least 5 % of the time, load imbalance when the busiest thread has 10 %
 * more accesses than the mean, SIMD utilization under one half.
 */
struct augur_report_opts {
    const char *machine_file;             /* the machine file's path, as shown */
    const struct augur_measurement *meas; /* a measurement of the same call (NULL: none) */
    const char *measure_error;            /* why a measurement asked for failed (NULL: none) */
    double total_seconds;                 /* wall time of the whole prediction (0: not shown) */
    double min_share;                     /* a line's share of the time worth a finding */
    double imbalance;                     /* busiest thread over the mean worth a finding */
    double simd_util;                     /* vector lane use under which it is a finding */
    bool color;                           /* ANSI colour in the annotated source */
};

AUGUR_API void augur_report_opts_init(struct augur_report_opts *o);

/* "json", "sarif", "diag", "annotate" or "html"; AUGUR_EINVAL naming the choices otherwise. */
AUGUR_API int augur_report_format_parse(const char *name, enum augur_report_format *out,
                                        struct augur_diag *diag);

/*
 * Appends r rendered in format f to out. The annotated source reads the
 * kernel's source files (r->files); a file that cannot be read is an
 * AUGUR_EIO naming it. r must hold the models' answers (augur_predict_run(),
 * or augur_profile_load() then augur_predict_models()).
 */
AUGUR_API int augur_report_render(const struct augur_predict_result *r, enum augur_report_format f,
                                  const struct augur_report_opts *o, struct augur_buf *out,
                                  struct augur_diag *diag);

/* "1.23 ms": a time with a unit and three significant digits; "-" for none. */
AUGUR_API const char *augur_report_time(double s, char *buf, size_t size);

/* The "augur-prediction" document as jansson's json_t (the caller owns it). */
struct json_t;
AUGUR_API struct json_t *augur_report_json(const struct augur_predict_result *r,
                                           const struct augur_report_opts *o);

#endif
