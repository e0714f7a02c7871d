#!/bin/bash
# usage: runs/std.sh NAME SPEC   one seat of SPEC against three xinxin (OpenSpiel's setting), standard rules, quick tier
cd /work/main
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
export HEARTS_ENV_XINXIN=/work/main/reference/xinxin/build/xinxin_driver
NAME=$1 SPEC=$2
OUT=runs/bench/std-quick-$NAME
R=; [ -e "$OUT/manifest.json" ] && R=--resume
echo "=== $(date -u +%FT%TZ) $NAME $SPEC standard"
.venv/bin/hearts-env benchmark "$SPEC" --track reference --rules standard --tier quick --opponents xinxin --out "$OUT" --jobs 1 $R
echo "=== $(date -u +%FT%TZ) $NAME exit $?"
