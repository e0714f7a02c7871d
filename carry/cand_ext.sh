#!/bin/bash
# issue 37 candidate at xinxin's literature setting, grown from the short tier (100 deals) to extended (300)
# usage: JOBS=N runs/cand_ext.sh   (extends the short run's copy, then resumes; exit 75 = paused)
cd /work/main
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
export HEARTS_ENV_XINXIN=/work/main/reference/xinxin/build/xinxin_driver
SHORT=runs/bench/lit-short-pimc-n40-apprentice
OUT=runs/bench/lit-extended-pimc-n40-apprentice
if [ ! -e "$OUT/manifest.json" ]; then
  [ -e "$SHORT/result.json" ] || { echo "the short run is not finished"; exit 2; }
  cp -a "$SHORT" "$OUT"
fi
if grep -q '"tier": "short"' "$OUT/manifest.json"; then R=--extend; else R=--resume; fi
echo "=== $(date -u +%FT%TZ) candidate-extended $R jobs ${JOBS:-1}"
/work/runvenv-ca81e5f/bin/hearts-env benchmark "pimc(n=40, policy='apprentice')" --track reference --rules openspiel \
  --tier extended --opponents xinxin-literature --out "$OUT" --jobs "${JOBS:-1}" $R
rc=$?
echo "=== $(date -u +%FT%TZ) candidate-extended exit $rc"
exit $rc
