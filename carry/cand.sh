#!/bin/bash
# issue 37 candidate at xinxin's literature setting, short tier (paired with pimc's, maxn's and ismcts's rows)
# usage: JOBS=N runs/cand.sh   (resumes when begun; exit 75 = paused)
cd /work/main
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
export HEARTS_ENV_XINXIN=/work/main/reference/xinxin/build/xinxin_driver
OUT=runs/bench/lit-short-pimc-n40-apprentice
R=; [ -e "$OUT/manifest.json" ] && R=--resume
echo "=== $(date -u +%FT%TZ) candidate $R jobs ${JOBS:-1}"
/work/runvenv-e523e3a/bin/hearts-env benchmark "pimc(n=40, policy='apprentice')" --track reference --rules openspiel \
  --tier short --opponents xinxin-literature --out "$OUT" --jobs "${JOBS:-1}" $R
rc=$?
echo "=== $(date -u +%FT%TZ) candidate exit $rc"
exit $rc
