#!/bin/bash
# issue 37: outcome data (the apprentice's moon positions against xinxin at OpenSpiel's setting, each legal card
# played on twice in the true deal). usage: [SEED=N SUFFIX=-sN DEALS=1200] runs/outcomes.sh
#   runs/outcomes/os-k2 (seed 0) is finished (1,200 deals); runs/outcomes/os-k2-s1 (seed 1) is the held-out folder.
cd /work/main
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
export HEARTS_ENV_XINXIN=/work/main/reference/xinxin/build/xinxin_driver
exec /work/runvenv-a390994/bin/python -m hearts_baselines.apprentice.outcomes --out runs/outcomes/os-k2${SUFFIX:-} \
  --seed ${SEED:-0} --deals ${DEALS:-1200} --jobs 1 --rollouts 2
