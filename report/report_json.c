/*
 * report_json.c - the "augur-prediction" JSON document: what ran on what,
 * every model's answer, the selected one, each source line's share and
 * counts, the measurement when there is one, and the workload the models
 * priced. Wall-clock times sit in one "timing" object, so two runs of the
 * same inputs differ nowhere else.
 */
#include <jansson.h>

#include "augur/report.h"

static const char *file_at(const struct augur_predict_result *r, uint32_t f)
{
    return f < r->nfiles ? r->files[f] : "";
}

/* Each source line: its seconds under the selected model, its counts, the levels that served it. */
static json_t *lines_json(const struct augur_predict_result *r)
{
    const struct augur_workload *w = &r->work;
    const struct augur_prediction *sel = augur_predict_selected(r);
    json_t *a = json_array();

    for (size_t i = 0; i < w->nlines; i++) {
        const struct augur_work_line *l = &w->lines[i];
        json_t *g = json_object(), *lv = json_array();

        json_object_set_new(g, "file", json_string(file_at(r, l->file)));
        json_object_set_new(g, "line", json_integer(l->line));
        json_object_set_new(g, "seconds",
                            json_real(sel->line_seconds ? sel->line_seconds[i] : 0.0));
        json_object_set_new(g, "accesses", json_real(l->accesses));
        json_object_set_new(g, "bytes", json_real(l->bytes));
        json_object_set_new(g, "indirect", json_boolean(l->irregular > 0));
        for (unsigned v = 0; v <= w->nlevels; v++)
            json_array_append_new(
                lv, json_pack("{s:s,s:f}", "level", w->level_name[v], "served", l->served[v]));
        json_object_set_new(g, "served", lv);
        json_array_append_new(a, g);
    }
    return a;
}

static json_t *sample_json(const struct augur_predict_result *r)
{
    if (!r->sampled)
        return json_null();
    return json_pack(
        "{s:s,s:s*,s:f,s:f,s:I,s:I,s:I,s:f}", "method", augur_sampler_name(r->sample.method),
        "chosen", r->sampler_why[0] ? r->sampler_why : NULL, "rate", r->sample.rate, "achieved",
        r->sample.achieved, "seed", (json_int_t)r->sample.seed, "nnz", (json_int_t)r->sample.nnz,
        "nnz_full", (json_int_t)r->sample.nnz_full, "scale", r->scale);
}

static json_t *interval_json(const struct augur_predict_result *r)
{
    const struct augur_predict_interval *iv = &r->interval;
    json_t *secs, *methods, *seeds;

    if (!iv->samples)
        return json_null();
    secs = json_array();
    methods = json_array();
    seeds = json_array();
    for (uint32_t i = 0; i < iv->samples; i++) {
        json_array_append_new(secs, json_real(iv->seconds[i]));
        json_array_append_new(methods, json_string(augur_sampler_name(iv->method[i])));
        json_array_append_new(seeds, json_integer((json_int_t)iv->seed[i]));
    }
    return json_pack("{s:f,s:f,s:f,s:f,s:I,s:I,s:o,s:o,s:o}", "level", iv->level, "lo", iv->lo,
                     "hi", iv->hi, "log_sd", iv->log_sd, "samples", (json_int_t)iv->samples,
                     "failed", (json_int_t)iv->failed, "seconds", secs, "methods", methods, "seeds",
                     seeds);
}

static json_t *tiling_json(const struct augur_predict_result *r)
{
    const struct augur_tiling_stats *t = &r->tiling;

    if (!t->tile_size)
        return json_null();
    return json_pack("{s:I,s:f,s:b,s:f,s:I,s:I,s:I,s:I}", "tile_size", (json_int_t)t->tile_size,
                     "simd_util", t->simd_util, "applied", r->simd_kernel, "avg_mimd", t->avg_mimd,
                     "tiles", (json_int_t)t->ntiles, "tile_groups", (json_int_t)t->ntgroups,
                     "groups", (json_int_t)t->ngroups, "edges", (json_int_t)t->nedges);
}

static json_t *models_json(const struct augur_predict_result *r)
{
    json_t *a = json_array();

    for (uint32_t i = 0; i < r->nmodels; i++) {
        const struct augur_prediction *p = &r->pred[i];
        const struct augur_model_ops *ops = augur_model_at(i);
        json_t *m = json_object();

        json_object_set_new(m, "name", json_string(ops->name));
        json_object_set_new(m, "source", json_string(ops->source));
        if (p->seconds > 0) {
            json_object_set_new(m, "seconds", json_real(p->seconds));
            json_object_set_new(m, "rate", json_real(p->rate));
            json_object_set_new(m, "rate_unit", json_string(p->rate_unit));
            json_object_set_new(m, "bottleneck", json_string(p->bottleneck ? p->bottleneck : ""));
            json_object_set_new(m, "unlearned_seconds",
                                p->unlearned_seconds > 0 ? json_real(p->unlearned_seconds)
                                                         : json_null());
        } else {
            json_object_set_new(m, "seconds", json_null());
            json_object_set_new(m, "error", json_string(r->why[i]));
        }
        json_array_append_new(a, m);
    }
    return a;
}

json_t *augur_report_json(const struct augur_predict_result *r, const struct augur_report_opts *o)
{
    const struct augur_workload *w = &r->work;
    const struct augur_prediction *sel = augur_predict_selected(r);
    json_t *doc = json_object();

    json_object_set_new(doc, "format", json_string("augur-prediction"));
    json_object_set_new(doc, "version", json_integer(AUGUR_PREDICTION_VERSION));
    json_object_set_new(doc, "kernel", json_string(r->kernel_name));
    json_object_set_new(doc, "file", json_string(file_at(r, r->kernel_file)));
    json_object_set_new(doc, "line", json_integer(r->kernel_line));
    json_object_set_new(doc, "dataset", r->dataset ? json_string(r->dataset) : json_null());
    json_object_set_new(doc, "rows", json_integer(r->rows));
    json_object_set_new(doc, "cols", json_integer(r->cols));
    json_object_set_new(doc, "nnz", json_integer((json_int_t)r->nnz));
    json_object_set_new(doc, "machine", json_string(r->machine->name));
    json_object_set_new(doc, "machine_file",
                        json_string(o->machine_file ? o->machine_file : r->machine->name));
    json_object_set_new(doc, "threads", json_integer(w->threads));
    json_object_set_new(doc, "schedule", augur_schedule_to_json(r));
    json_object_set_new(doc, "sample", sample_json(r));
    if (r->sample_note[0])
        json_object_set_new(doc, "sample_declined", json_string(r->sample_note));
    if (r->sample_auto[0])
        json_object_set_new(doc, "sample_auto", json_string(r->sample_auto));
    json_object_set_new(doc, "tiling", tiling_json(r));
    if (r->occupancy.warps_per_block)
        json_object_set_new(doc, "occupancy", augur_occupancy_to_json(&r->occupancy));
    json_object_set_new(doc, "simulated_accesses", json_integer((json_int_t)r->sim_events));
    json_object_set_new(doc, "rounds", json_integer(r->rounds));
    json_object_set_new(doc, "accesses_per_call", json_real(w->total.accesses));
    json_object_set_new(doc, "flops_per_call", json_real(w->flops));
    json_object_set_new(doc, "bytes_per_call", json_real(w->total.bytes));
    json_object_set_new(doc, "models", models_json(r));
    json_object_set_new(doc, "selected", json_string(sel->model));
    json_object_set_new(doc, "selected_why", json_string(r->selected_why));
    json_object_set_new(doc, "seconds", json_real(sel->seconds));
    json_object_set_new(doc, "interval", interval_json(r));
    if (r->interval.why[0])
        json_object_set_new(doc, "interval_declined", json_string(r->interval.why));
    json_object_set_new(doc, "unlearned_seconds",
                        sel->unlearned_seconds > 0 ? json_real(sel->unlearned_seconds)
                                                   : json_null());
    json_object_set_new(doc, "bottleneck", json_string(sel->bottleneck ? sel->bottleneck : ""));
    json_object_set_new(doc, "lines", lines_json(r));
    if (o->meas) {
        json_object_set_new(doc, "measured",
                            json_pack("{s:f,s:f,s:f,s:I,s:s}", "median", o->meas->median, "min",
                                      o->meas->min, "max", o->meas->max, "reps",
                                      (json_int_t)o->meas->reps, "clock", o->meas->clock));
        json_object_set_new(doc, "error",
                            json_real(augur_error_rate(o->meas->median, sel->seconds)));
    } else if (o->measure_error && o->measure_error[0]) {
        json_object_set_new(doc, "measure_error", json_string(o->measure_error));
    }
    json_object_set_new(
        doc, "timing",
        json_pack("{s:f,s:f}", "total", o->total_seconds, "simulation", r->sim_seconds));
    json_object_set_new(doc, "workload", augur_workload_to_json(w));
    return doc;
}
