/*
 * profile.c - the profile stage file: a result's counts as versioned JSON,
 * written by `augur simulate -o` and `augur predict --save-profile`, read
 * by `augur predict --profile` to price them on a machine without
 * simulating again (module: predict).
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "predict_int.h"

#define PROFILE_FORMAT    "augur-profile"
#define PROFILE_MAX_BYTES ((size_t)256 << 20) /* a workload of a few thousand lines */

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *caches_json(const struct augur_predict_result *r)
{
    json_t *a = json_array();

    for (uint32_t i = 0; i < r->ncaches; i++) {
        const struct augur_predict_cache *c = &r->caches[i];

        json_array_append_new(
            a,
            json_pack("{s:s,s:I,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "name", c->name, "size",
                      (json_int_t)c->size, "line", (int)c->line, "sector", (int)c->sector, "ways",
                      (int)c->ways, "shared_by", (int)c->shared_by, "inclusive", (int)c->inclusive,
                      "write_allocate", (int)c->write_alloc, "write_policy", (int)c->write_policy,
                      "prefetch", (int)c->prefetch, "replacement", (int)c->replacement));
    }
    return a;
}

json_t *augur_occupancy_to_json(const struct augur_gpu_occupancy *occ)
{
    return json_pack("{s:i,s:i,s:i,s:f,s:s,s:i,s:I}", "blocks_per_sm", (int)occ->blocks_per_sm,
                     "warps_per_block", (int)occ->warps_per_block, "warps_per_sm",
                     (int)occ->warps_per_sm, "occupancy", occ->occupancy, "limit",
                     occ->limit ? occ->limit : "", "registers", (int)occ->use.regs, "shared_bytes",
                     (json_int_t)occ->use.shared_bytes);
}

json_t *augur_schedule_to_json(const struct augur_predict_result *r)
{
    char text[48];

    return r->sched_given ? json_string(augur_sched_format(r->sched, r->chunk, text, sizeof(text)))
                          : json_null();
}

int augur_profile_save(const struct augur_predict_result *r, const char *path,
                       struct augur_diag *diag)
{
    json_t *doc = json_object(), *files = json_array();
    struct augur_out out;
    int rc;

    for (uint32_t i = 0; i < r->nfiles; i++)
        json_array_append_new(files, json_string(r->files[i]));
    json_object_set_new(doc, "format", json_string(PROFILE_FORMAT));
    json_object_set_new(doc, "version", json_integer(AUGUR_PROFILE_VERSION));
    json_object_set_new(doc, "augur", json_string(augur_version()));
    json_object_set_new(doc, "kernel", json_string(r->kernel_name));
    json_object_set_new(doc, "files", files);
    json_object_set_new(doc, "kernel_file", json_integer(r->kernel_file));
    json_object_set_new(doc, "kernel_line", json_integer(r->kernel_line));
    json_object_set_new(doc, "cuda", json_boolean(r->cuda));
    json_object_set_new(doc, "dataset", str_or_null(r->dataset));
    json_object_set_new(doc, "rows", json_integer(r->rows));
    json_object_set_new(doc, "cols", json_integer(r->cols));
    json_object_set_new(doc, "nnz", json_integer((json_int_t)r->nnz));
    json_object_set_new(doc, "machine", str_or_null(r->machine ? r->machine->name : NULL));
    json_object_set_new(doc, "caches", caches_json(r));
    json_object_set_new(doc, "row_buffer_bytes", json_integer(r->row_buffer_bytes));
    json_object_set_new(doc, "banks", json_integer(r->banks));
    json_object_set_new(doc, "threads", json_integer(r->threads));
    json_object_set_new(doc, "schedule", augur_schedule_to_json(r));
    json_object_set_new(doc, "sampled", json_boolean(r->sampled));
    if (r->sampled)
        json_object_set_new(doc, "sample",
                            json_pack("{s:s,s:f,s:f,s:I,s:I,s:I,s:s}", "method",
                                      augur_sampler_name(r->sample.method), "rate", r->sample.rate,
                                      "achieved", r->sample.achieved, "seed",
                                      (json_int_t)r->sample.seed, "nnz", (json_int_t)r->sample.nnz,
                                      "nnz_full", (json_int_t)r->sample.nnz_full, "chosen",
                                      r->sampler_why));
    json_object_set_new(doc, "scale", json_real(r->scale));
    json_object_set_new(doc, "simulated_accesses", json_integer((json_int_t)r->sim_events));
    json_object_set_new(doc, "simulation_seconds", json_real(r->sim_seconds));
    json_object_set_new(doc, "rounds", json_integer(r->rounds));
    json_object_set_new(doc, "cold_caches", json_boolean(r->cold_caches));
    json_object_set_new(doc, "simd_kernel", json_boolean(r->simd_kernel));
    json_object_set_new(doc, "tiling_run", json_boolean(r->tiling_run));
    json_object_set_new(doc, "workload", augur_workload_to_json(&r->work));
    rc = augur_out_open(&out, path, diag);
    if (!rc) {
        if (json_dumpf(doc, out.fp, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0 ||
            fputc('\n', out.fp) == EOF) {
            augur_out_abort(&out);
            rc = augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot write the profile");
        } else {
            rc = augur_out_commit(&out, diag);
        }
    }
    json_decref(doc);
    return rc;
}

/* ---- reading ------------------------------------------------------------------------------ */

struct reader {
    const char *path;
    json_t *doc;
    struct augur_predict_result *r;
    struct augur_diag *diag;
};

/* A value out of place: "profile: 'key' what". */
static int bad(struct reader *rd, const char *key, const char *what)
{
    return augur_diag_set(rd->diag, AUGUR_EFORMAT, rd->path, 0, 0, "profile: '%s' %s", key, what);
}

/* An integer field in [lo, hi]. */
static int get_int(struct reader *rd, json_t *o, const char *key, int64_t lo, int64_t hi,
                   int64_t *out)
{
    json_t *v = json_object_get(o, key);

    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return bad(rd, key, "is missing or out of range");
    *out = json_integer_value(v);
    return 0;
}

/* Does s hold a control character, which a name printed back must not send to a terminal? */
static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

static int get_str(struct reader *rd, json_t *o, const char *key, bool null_ok, const char **out)
{
    json_t *v = json_object_get(o, key);

    if (null_ok && json_is_null(v)) {
        *out = NULL;
        return 0;
    }
    if (!json_is_string(v))
        return bad(rd, key, "is missing or not a string");
    if (has_control(json_string_value(v)))
        return bad(rd, key, "holds a control character");
    *out = augur_arena_strdup(&rd->r->strings, json_string_value(v));
    return 0;
}

static int get_bool(struct reader *rd, json_t *o, const char *key, bool *out)
{
    json_t *v = json_object_get(o, key);

    if (!json_is_boolean(v))
        return bad(rd, key, "is missing or not true or false");
    *out = json_is_true(v);
    return 0;
}

static int read_caches(struct reader *rd)
{
    json_t *a = json_object_get(rd->doc, "caches");
    struct augur_predict_result *r = rd->r;

    if (!json_is_array(a) || json_array_size(a) > AUGUR_WORK_MAX_LEVELS - 1)
        return bad(rd, "caches", "must list at most 4 cache levels");
    r->ncaches = (uint32_t)json_array_size(a);
    for (uint32_t i = 0; i < r->ncaches; i++) {
        json_t *c = json_array_get(a, i);
        struct augur_predict_cache *p = &r->caches[i];
        const char *name;
        int64_t v[10] = { 0 };
        static const char *const keys[] = { "size",           "line",         "sector",
                                            "ways",           "shared_by",    "inclusive",
                                            "write_allocate", "write_policy", "prefetch",
                                            "replacement" };
        static const int64_t lo[] = { 1, 0, 0, -1, 0, -1, -1, 0, 0, 0 };
        static const int64_t hi[] = {
            INT64_C(1) << 40, 1 << 20, 1 << 20, 1 << 24, 1 << 20, 1, 1, 255, 255, 255
        };
        int rc;

        if (get_str(rd, c, "name", false, &name))
            return -1;
        for (int k = 0; k < 10; k++)
            if ((rc = get_int(rd, c, keys[k], lo[k], hi[k], &v[k])) != 0)
                return rc;
        snprintf(p->name, sizeof(p->name), "%s", name);
        p->size = (uint64_t)v[0];
        p->line = (uint32_t)v[1];
        p->sector = (uint32_t)v[2];
        p->ways = (int32_t)v[3];
        p->shared_by = (uint32_t)v[4];
        p->inclusive = (int8_t)v[5];
        p->write_alloc = (int8_t)v[6];
        p->write_policy = (uint8_t)v[7];
        p->prefetch = (uint8_t)v[8];
        p->replacement = (uint8_t)v[9];
    }
    return 0;
}

static int read_files(struct reader *rd)
{
    json_t *a = json_object_get(rd->doc, "files");
    struct augur_predict_result *r = rd->r;
    const char **files;

    if (!json_is_array(a) || json_array_size(a) > UINT16_MAX)
        return bad(rd, "files", "must be a list of source files");
    r->nfiles = (uint32_t)json_array_size(a);
    files = augur_arena_alloc(&r->strings, (r->nfiles + 1) * sizeof(*files));
    for (uint32_t i = 0; i < r->nfiles; i++) {
        const char *s = json_string_value(json_array_get(a, i));

        if (!s)
            return bad(rd, "files", "must be a list of source files");
        if (has_control(s))
            return bad(rd, "files", "holds a control character");
        files[i] = augur_arena_strdup(&r->strings, s);
    }
    r->files = files;
    return 0;
}

static int read_sample(struct reader *rd)
{
    struct augur_predict_result *r = rd->r;
    json_t *s = json_object_get(rd->doc, "sample");
    json_t *rate = json_object_get(s, "rate"), *ach = json_object_get(s, "achieved");
    const char *method, *chosen;
    int64_t seed = 0, nnz = 0, full = 0;

    if (!r->sampled)
        return 0;
    if (get_str(rd, s, "method", false, &method) || get_str(rd, s, "chosen", false, &chosen) ||
        get_int(rd, s, "seed", 0, INT64_MAX, &seed) || get_int(rd, s, "nnz", 1, INT64_MAX, &nnz) ||
        get_int(rd, s, "nnz_full", 1, INT64_MAX, &full))
        return -1;
    if (!json_is_number(rate) || !json_is_number(ach))
        return bad(rd, "sample", "needs a rate and the share achieved");
    if (augur_sampler_parse(method, &r->sample.method) != 0)
        return bad(rd, "sample", "names no sampler augur knows");
    r->sample.rate = json_number_value(rate);
    r->sample.achieved = json_number_value(ach);
    r->sample.seed = (uint64_t)seed;
    r->sample.nnz = (uint64_t)nnz;
    r->sample.nnz_full = (uint64_t)full;
    snprintf(r->sampler_why, sizeof(r->sampler_why), "%s", chosen);
    return 0;
}

/* "schedule": the override the counts were simulated with; absent (older files) or null: none. */
static int read_schedule(struct reader *rd)
{
    json_t *v = json_object_get(rd->doc, "schedule");
    struct augur_diag d;

    if (!v || json_is_null(v))
        return 0;
    augur_diag_init(&d);
    if (!json_is_string(v) ||
        augur_sched_parse(json_string_value(v), &rd->r->sched, &rd->r->chunk, &d) != 0)
        return bad(rd, "schedule", "is not a schedule such as \"dynamic,64\" (or null)");
    rd->r->sched_given = true;
    return 0;
}

static int read_profile(struct reader *rd)
{
    struct augur_predict_result *r = rd->r;
    json_t *doc = rd->doc, *scale = json_object_get(doc, "scale"),
           *secs = json_object_get(doc, "simulation_seconds");
    const char *fmt = json_string_value(json_object_get(doc, "format"));
    int64_t v[9] = { 0 };

    if (!fmt || strcmp(fmt, PROFILE_FORMAT) != 0)
        return augur_diag_set(rd->diag, AUGUR_EPARSE, rd->path, 0, 0,
                              "not an augur profile (no \"format\": \"%s\"; augur simulate -o "
                              "writes one)",
                              PROFILE_FORMAT);
    if (!json_is_integer(json_object_get(doc, "version")) ||
        json_integer_value(json_object_get(doc, "version")) != AUGUR_PROFILE_VERSION)
        return augur_diag_set(rd->diag, AUGUR_EPARSE, rd->path, 0, 0,
                              "a profile of another version; this augur reads version %d: "
                              "simulate again",
                              AUGUR_PROFILE_VERSION);
    if (get_str(rd, doc, "kernel", false, &r->kernel_name) || read_files(rd) ||
        get_int(rd, doc, "kernel_file", 0, r->nfiles ? r->nfiles - 1 : 0, &v[0]) ||
        get_int(rd, doc, "kernel_line", 0, UINT32_MAX, &v[1]) ||
        get_bool(rd, doc, "cuda", &r->cuda) || get_str(rd, doc, "dataset", true, &r->dataset) ||
        get_int(rd, doc, "rows", 0, UINT32_MAX, &v[2]) ||
        get_int(rd, doc, "cols", 0, UINT32_MAX, &v[3]) ||
        get_int(rd, doc, "nnz", 0, INT64_MAX, &v[4]) || read_caches(rd) ||
        get_int(rd, doc, "row_buffer_bytes", 0, UINT32_MAX, &v[5]) ||
        get_int(rd, doc, "banks", 0, UINT32_MAX, &v[6]) ||
        get_int(rd, doc, "threads", 1, AUGUR_INTERP_MAX_THREADS, &v[7]) || read_schedule(rd) ||
        get_bool(rd, doc, "sampled", &r->sampled) || read_sample(rd) ||
        get_int(rd, doc, "simulated_accesses", 0, INT64_MAX, &v[8]) ||
        get_bool(rd, doc, "cold_caches", &r->cold_caches) ||
        get_bool(rd, doc, "simd_kernel", &r->simd_kernel))
        return -1;
    r->tiling_run = json_is_true(json_object_get(doc, "tiling_run"));
    if (!json_is_number(scale) || !(json_number_value(scale) >= 1) || !json_is_number(secs))
        return bad(rd, "scale", "must be a number of at least 1");
    if (!json_is_integer(json_object_get(doc, "rounds")) ||
        json_integer_value(json_object_get(doc, "rounds")) < 0 ||
        json_integer_value(json_object_get(doc, "rounds")) > UINT32_MAX)
        return bad(rd, "rounds", "is missing or out of range");
    r->kernel_file = (uint32_t)v[0];
    r->kernel_line = (uint32_t)v[1];
    r->rows = (uint32_t)v[2];
    r->cols = (uint32_t)v[3];
    r->nnz = (uint64_t)v[4];
    r->row_buffer_bytes = (uint32_t)v[5];
    r->banks = (uint32_t)v[6];
    r->threads = (unsigned)v[7];
    r->sim_events = (uint64_t)v[8];
    r->scale = json_number_value(scale);
    r->sim_seconds = json_number_value(secs);
    r->rounds = (uint32_t)json_integer_value(json_object_get(doc, "rounds"));
    if (augur_workload_from_json(json_object_get(doc, "workload"), &r->work, rd->diag)) {
        char msg[sizeof(rd->diag->msg)];

        snprintf(msg, sizeof(msg), "%s", rd->diag->msg);
        return augur_diag_set(rd->diag, AUGUR_EFORMAT, rd->path, 0, 0, "%s", msg);
    }
    if (r->work.threads != r->threads)
        return bad(rd, "threads", "differs from the workload's");
    for (size_t i = 0; i < r->work.nlines; i++)
        if (r->work.lines[i].file >= r->nfiles && r->nfiles)
            return bad(rd, "files", "lacks a file a workload line names");
    return 0;
}

int augur_profile_load(const char *path, struct augur_predict_result **out, struct augur_diag *diag)
{
    struct augur_buf text;
    struct reader rd;
    json_error_t je;
    int rc;

    augur_buf_init(&text);
    rc = augur_file_read(path, PROFILE_MAX_BYTES, &text, NULL, diag);
    if (rc) {
        augur_buf_release(&text);
        return rc;
    }
    memset(&rd, 0, sizeof(rd));
    rd.path = path;
    rd.diag = diag;
    rd.doc = json_loadb(text.s, text.len, 0, &je);
    augur_buf_release(&text);
    if (!rd.doc)
        return augur_diag_set(diag, AUGUR_EPARSE, path, je.line > 0 ? (uint32_t)je.line : 0,
                              je.line > 0 && je.column > 0 ? (uint32_t)je.column : 0, "JSON: %s",
                              je.text);
    rd.r = augur_calloc(1, sizeof(*rd.r));
    augur_arena_init(&rd.r->strings, 0);
    rc = read_profile(&rd);
    json_decref(rd.doc);
    if (rc) {
        augur_predict_result_free(rd.r);
        return diag && diag->code ? diag->code : AUGUR_EFORMAT;
    }
    *out = rd.r;
    return 0;
}
