#!/bin/bash
# usage: JOBS=N runs/lit.sh NAME SPEC   one seat of SPEC against three xinxin seats at the literature setting, short tier
cd /work/main
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
export HEARTS_ENV_XINXIN=/work/main/reference/xinxin/build/xinxin_driver
NAME=$1 SPEC=$2
OUT=runs/bench/lit-short-$NAME
R=; [ -e "$OUT/manifest.json" ] && R=--resume
echo "=== $(date -u +%FT%TZ) $NAME $SPEC literature $R jobs ${JOBS:-1}"
.venv/bin/hearts-env benchmark "$SPEC" --track reference --rules openspiel --tier short --opponents xinxin-literature --out "$OUT" --jobs "${JOBS:-1}" $R
rc=$?
echo "=== $(date -u +%FT%TZ) $NAME exit $rc"
exit $rc
