/*
 * fuzz_measure.c - libFuzzer target for the reader of `augur measure`'s
 * generated driver's output (module: measure): a failure must say what; an
 * output that reads must give as many times as its end line says, all
 * non-negative, and a summary within them (min <= median <= max, the mean
 * between min and max).
 */
#include <stdint.h>
#include <string.h>

#include "augur/base.h"
#include "augur/measure.h"
#include "measure/measure_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_measurement *m = augur_calloc(1, sizeof(*m));
    struct augur_diag diag;
    char *text = augur_malloc(size + 1);
    int second = -1;

    memcpy(text, data, size);
    text[size] = '\0';
    augur_diag_init(&diag);
    if (rt_measure_output(text, m, &second, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0' || m->times)
            __builtin_trap(); /* a failure must say what, and keep nothing */
        goto out;
    }
    if (m->reps == 0 || !m->times || second < -1 || second > 2)
        __builtin_trap();
    for (uint64_t i = 0; i < m->reps; i++)
        if (!(m->times[i] >= m->min && m->times[i] <= m->max))
            __builtin_trap();
    if (!(m->min >= 0 && m->min <= m->median && m->median <= m->max))
        __builtin_trap();
    if (m->total < 1e300 && !(m->mean >= m->min * (1 - 1e-12) && m->mean <= m->max * (1 + 1e-12)))
        __builtin_trap();
out:
    augur_measurement_free(m);
    augur_free(text);
    return 0;
}
