/*
 * fuzz_runs.c - libFuzzer target for the saved-run reader of `augur train
 * model` (module: predict): a failure must say what; a run that reads must
 * have a measured time and a dataset name without a folder, and its
 * workload must print to JSON that reads back to the same JSON.
 */
#include <jansson.h>
#include <stdint.h>
#include <string.h>

#include "augur/base.h"
#include "augur/predict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_saved_run r;
    struct augur_workload w2;
    struct augur_diag diag;
    json_t *j1 = NULL, *j2 = NULL;

    augur_diag_init(&diag);
    if (augur_saved_run_parse((const char *)data, size, "fuzz.json", &r, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0')
            __builtin_trap(); /* a failure must say what */
        return 0;
    }
    if (!(r.measured > 0) || strchr(r.dataset, '/'))
        __builtin_trap();
    j1 = augur_workload_to_json(&r.work);
    memset(&w2, 0, sizeof(w2));
    if (augur_workload_from_json(j1, &w2, &diag) != 0)
        __builtin_trap(); /* what it printed does not read back */
    j2 = augur_workload_to_json(&w2);
    if (!json_equal(j1, j2))
        __builtin_trap(); /* print -> read -> print changed it */
    json_decref(j1);
    json_decref(j2);
    augur_workload_release(&w2);
    augur_workload_release(&r.work);
    return 0;
}
