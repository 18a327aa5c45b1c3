/*
 * augur.h - the umbrella header of libaugur: include this one.
 */
#ifndef AUGUR_H
#define AUGUR_H

#include "augur/base.h"
#include "augur/cachesim.h"
#include "augur/calibrate.h"
#include "augur/data.h"
#include "augur/error.h"
#include "augur/frontend.h"
#include "augur/interp.h"
#include "augur/machine.h"
#include "augur/measure.h"
#include "augur/models.h"
#include "augur/predict.h"
#include "augur/report.h"
#include "augur/sim.h"
#include "augur/skeleton.h"

#endif
