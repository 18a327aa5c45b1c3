/*
 * augur.h - the umbrella header of libaugur: include this one.
 */
#ifndef AUGUR_H
#define AUGUR_H

#include "augur/base.h"
#include "augur/cachesim.h"
#include "augur/calibrate.h"
#include "augur/error.h"
#include "augur/frontend.h"
#include "augur/interp.h"
#include "augur/machine.h"
#include "augur/measure.h"
#include "augur/predict.h"
#include "augur/predictor.h"
#include "augur/runtime.h"
#include "augur/skeleton.h"

/* The library's version string ("0.1.0"). */
AUGUR_API const char *augur_version(void);

#endif
