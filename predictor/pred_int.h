/*
 * pred_int.h - the predictor's private declarations: the model registry (module: predictor).
 */
#ifndef AUGUR_PRED_INT_H
#define AUGUR_PRED_INT_H

#include "augur/predictor.h"

/*
 * Every model, in the order `augur predict` lists them. A new model is one
 * file defining augur_model_<name> and one entry here.
 */
/* clang-format off */
#define AUGUR_MODELS(X) \
    X(bw)               \
    X(opa)
/* clang-format on */

#define X(n) extern const struct augur_model_ops augur_model_##n;
AUGUR_MODELS(X)
#undef X

#endif
