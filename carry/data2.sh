#!/bin/bash
# issue 37: search data for a second apprentice (teacher pimc(n=40, policy='apprentice'), seed 1); resumable: the
# units written are kept and the data does not depend on --jobs. SIGTERM loses only the unit in progress.
cd /work/main
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
echo "=== $(date -u +%FT%TZ) data jobs ${JOBS:-1}"
/work/runvenv-27396e5/bin/python -m hearts_baselines.apprentice.data --out runs/apprentice2/data --deals 20000 --seed 1 \
  --jobs "${JOBS:-1}" --searcher "pimc(n=40, policy='apprentice')"
rc=$?
echo "=== $(date -u +%FT%TZ) data exit $rc"
exit $rc
