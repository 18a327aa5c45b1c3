/*
 * pred_models.c - the model registry: the table of augur_model_ops (module: models).
 */
#include <string.h>

#include "pred_int.h"

static const struct augur_model_ops *const models[] = {
#define X(n) &augur_model_##n,
    AUGUR_MODELS(X)
#undef X
};

uint32_t augur_model_count(void)
{
    return (uint32_t)(sizeof models / sizeof models[0]);
}

const struct augur_model_ops *augur_model_at(uint32_t i)
{
    return i < augur_model_count() ? models[i] : NULL;
}

const struct augur_model_ops *augur_model_find(const char *name)
{
    if (!name)
        return NULL;
    for (uint32_t i = 0; i < augur_model_count(); i++)
        if (strcmp(models[i]->name, name) == 0)
            return models[i];
    return NULL;
}
