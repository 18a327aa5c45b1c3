/*
 * ncu.c - --ncu of predict and simulate: a user's Nsight Compute CSV of the
 * kernel beside augur's counts, metric by metric (module: cli).
 */
#include <math.h>
#include <string.h>

#include "cli.h"

int cli_ncu_option(const char *cmd, int opt, const char *arg, struct cli_ncu *n)
{
    uint64_t v;

    switch (opt) {
    case 0x130:
        n->path = arg;
        return 1;
    case 0x131:
        if (cli_parse_u64(cmd, "--ncu-id", arg, 0, INT64_MAX, &v))
            return CLI_USAGE;
        n->id = (int64_t)v;
        return 1;
    default:
        return 0;
    }
}

int cli_ncu_load(struct cli_ncu *n)
{
    struct augur_diag diag;

    augur_diag_init(&diag);
    return augur_ncu_load(n->path, &n->file, &diag) ? cli_diag_error(&diag) : CLI_OK;
}

void cli_ncu_release(struct cli_ncu *n)
{
    augur_ncu_free(n->file);
    n->file = NULL;
}

int cli_ncu_compare(struct cli_ncu *n, const char *kernel, const struct augur_workload *w,
                    double kernel_seconds)
{
    struct augur_diag diag;
    struct augur_buf names;
    int rc;

    augur_diag_init(&diag);
    if (!w->gpu_given)
        return cli_error("--ncu compares a CUDA kernel's run on a GPU machine file; '%s' ran on "
                         "a CPU",
                         kernel);
    if (w->gpu.launches > 1)
        return cli_error("--ncu compares one launch, and this call makes %.0f (a search's "
                         "rounds): give --round R for the launch Nsight Compute read",
                         w->gpu.launches);
    if (!n->file && (rc = cli_ncu_load(n)) != CLI_OK)
        return rc;
    rc = augur_ncu_select(n->file, kernel, n->id, &n->launch, &n->count, &diag);
    if (rc != 0) {
        snprintf(diag.file, sizeof(diag.file), "%s", n->path);
        return cli_diag_error(&diag);
    }
    n->launch.kernel = NULL; /* a median of launches has no one name as ncu wrote it */
    n->nrows = augur_ncu_compare(&n->launch, w, kernel_seconds, n->rows);
    if (n->nrows)
        return CLI_OK;
    augur_buf_init(&names);
    for (int q = 0; q <= AUGUR_NCU_BRANCH_EFF; q++) /* the simulated ones */
        augur_buf_printf(&names, "%s%s", q ? "," : "", augur_ncu_metric(q));
    rc = cli_error("%s: no metric of kernel '%s' is one augur compares; collect them with "
                   "ncu --csv --metrics %s",
                   n->path, kernel, names.s);
    augur_buf_release(&names);
    return rc;
}

void cli_ncu_block_use(const struct cli_ncu *n, const char *kernel, struct cli_gpu_use *u)
{
    struct augur_ncu_launch l;
    struct augur_diag diag;
    uint32_t count;
    double regs, smem;

    augur_diag_init(&diag);
    if (!n->file || augur_ncu_select(n->file, kernel, n->id, &l, &count, &diag) != 0)
        return;
    regs = l.value[AUGUR_NCU_REGISTERS];
    smem = l.value[AUGUR_NCU_SHARED_DYNAMIC];
    if (!u->regs_given && regs >= 1 && regs <= 255) {
        u->use.regs = (uint32_t)regs;
        u->regs_from = "Nsight Compute's file";
    }
    if (!u->smem_given && smem >= 0 && smem <= UINT32_MAX)
        u->use.shared_bytes = (uint64_t)smem;
}

/* A value in the quantity's unit: a time, or a count. */
static const char *show(enum augur_ncu_quantity q, double v, char *buf, size_t size)
{
    if (q == AUGUR_NCU_SECONDS)
        return augur_report_time(v, buf, size);
    snprintf(buf, size, "%.6g", v);
    return buf;
}

void cli_ncu_print(const struct cli_ncu *n, bool cold)
{
    const struct augur_ncu_launch *l = &n->launch;
    const char *slash = strrchr(n->path, '/');

    printf("\nNsight Compute (%s): ", slash ? slash + 1 : n->path);
    if (n->count == 1)
        printf("launch %llu of %s", (unsigned long long)l->id, l->name);
    else
        printf("the median of %u launches of %s", n->count, l->name);
    if (l->block[0] && l->grid[0])
        printf(", block %llux%llux%llu, grid %llux%llux%llu", (unsigned long long)l->block[0],
               (unsigned long long)l->block[1], (unsigned long long)l->block[2],
               (unsigned long long)l->grid[0], (unsigned long long)l->grid[1],
               (unsigned long long)l->grid[2]);
    printf("\n%-32s %14s %14s %8s\n", "quantity", "Nsight Compute", "augur", "error");
    for (size_t i = 0; i < n->nrows; i++) {
        const struct augur_ncu_row *r = &n->rows[i];
        char a[32], b[32];

        printf("%-32s %14s %14s ", augur_ncu_label(r->q), show(r->q, r->measured, a, 32),
               show(r->q, r->augur, b, 32));
        if (r->measured > 0)
            printf("%7.1f%%\n", 100 * augur_error_rate(r->measured, r->augur));
        else
            printf("%8s\n", "-");
    }
    if (!cold)
        printf("(augur counted a warm call; Nsight Compute flushes the caches before each launch "
               "unless run with --cache-control none: --cold counts as it measures)\n");
}

json_t *cli_ncu_json(const struct cli_ncu *n)
{
    json_t *rows = json_array(), *doc;

    for (size_t i = 0; i < n->nrows; i++) {
        const struct augur_ncu_row *r = &n->rows[i];

        json_t *row = json_pack("{s:s,s:s,s:f,s:f}", "quantity", augur_ncu_label(r->q), "metric",
                                augur_ncu_metric(r->q), "measured", r->measured, "augur", r->augur);

        /* the error relative to the measured value: none of a value measured as 0 */
        json_object_set_new(row, "error",
                            r->measured > 0 ? json_real(augur_error_rate(r->measured, r->augur))
                                            : json_null());
        json_array_append_new(rows, row);
    }
    doc = json_pack("{s:s,s:s,s:i,s:o}", "file", n->path, "kernel", n->launch.name, "launches",
                    (json_int_t)n->count, "metrics", rows);
    if (n->count == 1)
        json_object_set_new(doc, "id", json_integer((json_int_t)n->launch.id));
    return doc;
}
