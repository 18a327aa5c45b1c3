/*
 * fuzz_machine.c - libFuzzer target: loads the input as a machine file; what
 * loads must validate, dump, load again and dump the same, and give a cache
 * configuration the simulator accepts or refuses cleanly (tests).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dump(const struct augur_machine *m)
{
    struct augur_buf b;

    augur_buf_init(&b);
    augur_machine_dump_buf(&b, m);
    return augur_buf_detach(&b, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_machine *m = NULL, *m2 = NULL;
    struct augur_diag diag;
    struct augur_cache_config cfg;
    char *s1 = NULL, *s2 = NULL;

    augur_diag_init(&diag);
    if (augur_machine_parse((const char *)data, size, "fuzz.yml", &m, &diag) != 0) {
        if (!diag.msg[0])
            abort(); /* every failure explains itself */
        return 0;
    }
    if (augur_machine_validate(m, &diag) != 0)
        abort(); /* the loader accepted what the validator refuses */
    s1 = dump(m);
    if (augur_machine_parse(s1, strlen(s1), "dump.yml", &m2, &diag) != 0)
        abort(); /* the canonical dump must load */
    s2 = dump(m2);
    if (strcmp(s1, s2) != 0)
        abort(); /* dump -> load -> dump must be identical */
    /* A small simulator only: a machine may legitimately describe huge caches. */
    if (augur_cache_config_from_machine(m, 1, &cfg, &diag) == 0) {
        struct augur_cachesim *sim = NULL;

        cfg.max_host_bytes = 4u << 20;
        if (augur_cachesim_new(&cfg, 1, 4, &sim, &diag) == 0) {
            augur_cachesim_access(sim, 0, 0, 8, true, 0);
            augur_cachesim_access(sim, 0, 4096, 64, false, 1);
            augur_cachesim_flush(sim);
            augur_cachesim_free(sim);
        }
    }
    augur_free(s1);
    augur_free(s2);
    augur_machine_free(m);
    augur_machine_free(m2);
    return 0;
}
