#!/usr/bin/env bash
# ismcts's full row under the dealer (issue 35), nothing else running: resumes runs/bench/full3-ismcts, packs the row when done.
set -u
cd /work/main
VENV=${VENV:-/work/runvenv-ba78e8c}
OUT=runs/bench/full3-ismcts
JOBS=${JOBS:-2}
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
R=; [ -e "$OUT/manifest.json" ] && R=--resume  # a begun run has its manifest
echo "=== $(date -u +%FT%TZ) start sitting $R jobs $JOBS"
$VENV/bin/hearts-env benchmark ismcts --tier full --out $OUT --jobs $JOBS $R
rc=$?
echo "=== $(date -u +%FT%TZ) exit $rc"
if [ $rc = 0 ]; then
  $VENV/bin/hearts-env benchmark pack $OUT docs/leaderboard/v1/full/ismcts.json && echo packed
fi
exit $rc
