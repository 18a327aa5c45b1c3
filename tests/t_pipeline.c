/*
 * t_pipeline.c - tests of the pipeline calls (module: predict): a skeleton,
 * the sample dataset and a machine file through augur_predict_run() and
 * augur_simulate_run(), one context shared by several questions.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/augur.h"
#include "tap.h"

/* CSR SpMV with its bindings, as augur skeleton writes it. */
static const char spmv_skel[] = "augur-skeleton 1\n"
                                "kernel spmv @\"spmv.c\":1:1\n"
                                "  param n i32 @1:1 bind n (cli)\n"
                                "  local i i32 @2:1\n"
                                "  local k i32 @3:1\n"
                                "  array rowptr i32[] global param @1:1 bind csr.rowptr (cli)\n"
                                "  array col i32[] global param @1:1 bind csr.col (cli)\n"
                                "  array val f64[] global param @1:1 bind csr.val (cli)\n"
                                "  array x f64[] global param @1:1 bind vec(m) (cli)\n"
                                "  array y f64[] global param @1:1 bind vec(n) (cli)\n"
                                "  for i = 0; i < n; i += 1 @2:3\n"
                                "    load rowptr[i] @3:5\n"
                                "    load rowptr[i + 1] @3:5\n"
                                "    for k = rowptr[i]; k < rowptr[i + 1]; k += 1 @3:5\n"
                                "      load val[k] @4:7\n"
                                "      load col[k] @4:7\n"
                                "      load x[col[k]] @4:7 indirect(col)\n"
                                "      ops ffma.f64.c=1 @4:7\n"
                                "    store y[i] @5:5\n";

/* Four stores on a matrix of 11143 rows: what a guard that skipped the work leaves. */
static const char empty_skel[] = "augur-skeleton 1\n"
                                 "kernel none @\"none.c\":1:1\n"
                                 "  param n i32 @1:1 bind =4 (cli)\n"
                                 "  local i i32 @2:1\n"
                                 "  array y f64[] global param @1:1 bind vec(n) (cli)\n"
                                 "  for i = 0; i < n; i += 1 @2:3\n"
                                 "    store y[i] @3:5\n";

static char path[1024];

static const char *in_src(const char *dir, const char *rel)
{
    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    return path;
}

/* The profile stage file: written, read back, priced again to the same answer. */
static void profile_round_trip(const struct augur_predict_result *r, const struct augur_machine *m)
{
    char file[] = "/tmp/augur-t-pipeline-XXXXXX";
    struct augur_predict_result *back = NULL;
    struct augur_diag d;
    int fd = mkstemp(file);

    augur_diag_init(&d);
    if (!r || fd < 0) {
        ok(0, "a profile to write");
        return;
    }
    close(fd);
    is_int(augur_profile_save(r, file, &d), 0, "the profile is written");
    if (is_int(augur_profile_load(file, &back, &d), 0, "and read back")) {
        ok(back->skel == NULL && strcmp(back->kernel_name, r->kernel_name) == 0 &&
               back->nnz == r->nnz && back->threads == r->threads &&
               back->work.nlines == r->work.nlines,
           "what ran on what");
        if (is_int(augur_predict_models(back, m, &d), 0, "priced on the same machine"))
            ok(augur_predict_selected(back)->seconds == augur_predict_selected(r)->seconds &&
                   back->selected == r->selected,
               "to the same answer, to the last digit");
    }
    augur_predict_result_free(back);
    remove(file);
}

int main(void)
{
    const char *src = getenv("AUGUR_SOURCE_DIR");
    struct augur_skel *skel = NULL, *empty = NULL;
    struct augur_dataset *ds = NULL;
    struct augur_machine *m = NULL, *gpu = NULL;
    struct augur_predict_ctx *ctx = NULL;
    struct augur_predict_result *r1 = NULL, *r2 = NULL, *rs = NULL;
    struct augur_simulation *sim = NULL;
    struct augur_predict_opts po;
    struct augur_simulate_opts so;
    struct augur_diag d;
    uint64_t n, nnz;

    augur_diag_init(&d);
    if (!src) {
        tap_skip("no AUGUR_SOURCE_DIR", "the pipeline on the sample data");
        return tap_done();
    }
    if (!ok(augur_skel_parse(spmv_skel, strlen(spmv_skel), "spmv.skel", &skel, &d) == 0,
            "parse the SpMV skeleton") ||
        !ok(augur_skel_parse(empty_skel, strlen(empty_skel), "none.skel", &empty, &d) == 0,
            "parse the empty skeleton") ||
        !ok(augur_dataset_load(in_src(src, "samples/walshaw_fe_4elt2.mtx"), NULL, &ds, &d) == 0,
            "load the sample dataset") ||
        !ok(augur_machine_load(in_src(src, "samples/machines/dev-epyc-zen4-2vcpu.yml"), &m, &d) ==
                0,
            "load a CPU machine") ||
        !ok(augur_machine_load(in_src(src, "samples/machines/h100-sxm.yml"), &gpu, &d) == 0,
            "load a GPU machine") ||
        !ok(augur_predict_ctx_new(ds, NULL, NULL, &ctx, &d) == 0, "a context over the dataset")) {
        printf("# %s\n", d.msg);
        goto out;
    }
    n = ds->coo.nrows;
    nnz = augur_dataset_nnz_full(ds);

    memset(&po, 0, sizeof(po));
    if (is_int(augur_predict_run(ctx, skel, skel->kernels[0], m, &po, &r1, &d), 0,
               "predict one call")) {
        ok(r1->nmodels >= 3 && r1->selected < r1->nmodels, "every model, one selected");
        ok(augur_predict_selected(r1)->seconds > 0, "the selected model gives a time");
        /* 2 n row pointers, 3 nnz entry reads, n stores */
        is_int((int64_t)llround(r1->work.total.accesses), (int64_t)(3 * n + 3 * nnz),
               "a call's accesses: 2 n + 3 nnz + n");
        ok(!r1->sampled && r1->scale == 1, "the full data");
        ok(r1->threads == 1 && !r1->cold_caches, "one thread, a warm call");
        ok(r1->work.nlines >= 3, "per-line counts");
    }
    po.threads = 2;
    if (is_int(augur_predict_run(ctx, skel, skel->kernels[0], m, &po, &r2, &d), 0,
               "a second question on the same context"))
        ok(r2->threads == 2 && augur_predict_selected(r2)->seconds > 0, "two threads");
    augur_predict_result_free(r2);
    r2 = NULL;
    po.threads = 1;
    po.sample = 0.2;
    po.method_given = true;
    po.method = AUGUR_SAMPLER_SA;
    if (is_int(augur_predict_run(ctx, skel, skel->kernels[0], m, &po, &rs, &d), 0,
               "a sampled prediction")) {
        ok(rs->sampled && rs->scale > 1, "counts scaled up from the sample");
        ok(fabs(rs->work.total.accesses - r1->work.total.accesses) < 0.5 * r1->work.total.accesses,
           "the sample's scaled accesses are near the full data's");
    }
    po.sample = 0;
    po.threads = 3;
    is_int(augur_predict_run(ctx, skel, skel->kernels[0], m, &po, &r2, &d), AUGUR_EINVAL,
           "more threads than the machine runs");
    ok(strstr(d.file, "dev-epyc") != NULL, "the error names the machine file");
    po.threads = 0;
    is_int(augur_predict_run(ctx, skel, skel->kernels[0], gpu, &po, &r2, &d), AUGUR_EINVAL,
           "a C kernel on a GPU machine");
    is_int(augur_predict_run(ctx, empty, empty->kernels[0], m, &po, &r2, &d), AUGUR_ERUN,
           "a call that did almost no work is an error");
    ok(strstr(d.msg, "almost no work") && strstr(d.msg, "--allow-empty"),
       "saying why and the way out");
    po.allow_empty = true;
    if (is_int(augur_predict_run(ctx, empty, empty->kernels[0], m, &po, &r2, &d), 0,
               "unless allowed"))
        augur_predict_result_free(r2);
    r2 = NULL;

    memset(&so, 0, sizeof(so));
    so.threads = 2;
    if (is_int(augur_simulate_run(ctx, skel, skel->kernels[0], m, &so, &sim, &d), 0,
               "simulate on the same context")) {
        is_int(sim->profile->events, 3 * n + 3 * nnz, "every access simulated once");
        is_int(sim->threads, 2, "on two simulator threads");
    }
    profile_round_trip(r1, m);
out:
    augur_simulation_free(sim);
    augur_predict_result_free(r1);
    augur_predict_result_free(r2);
    augur_predict_result_free(rs);
    augur_predict_ctx_free(ctx);
    augur_machine_free(m);
    augur_machine_free(gpu);
    augur_dataset_free(ds);
    augur_skel_free(skel);
    augur_skel_free(empty);
    return tap_done();
}
