/*
 * predict_int.h - what the pipeline calls share: the threads and simulator
 * options a kernel needs on a machine, the dataset's presentation (module:
 * predict).
 */
#ifndef AUGUR_PREDICT_INT_H
#define AUGUR_PREDICT_INT_H

#include "augur/predict.h"

/*
 * Checks that kernel fits machine m (CUDA on a GPU, C on a CPU) and sets *out
 * to the simulator threads: threads OpenMP threads (0: 1, at most the
 * machine's) for C, sms SMs (0: the machine's) for CUDA, where threads and a
 * sample do not apply. Sets so->interp.nthreads and .sms.
 */
int predict_setup(const struct augur_node *kernel, const struct augur_machine *m, unsigned threads,
                  unsigned sms, bool sampled, unsigned *out, struct augur_sim_opts *so,
                  struct augur_diag *diag);

/* The dataset's presentation: given, with the round (0: 1) and the threads. */
struct augur_bound_opts predict_bound_opts(const struct augur_bound_opts *given, uint32_t round,
                                           unsigned threads);

const struct augur_dataset *predict_ctx_dataset(const struct augur_predict_ctx *ctx);

#endif
