#!/bin/bash
# usage: runs/eval_os.sh NAME SPEC [OPPONENT]   one seat of SPEC against three xinxin seats, OpenSpiel's rules, quick tier
cd /work/main
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
export HEARTS_ENV_XINXIN=/work/main/reference/xinxin/build/xinxin_driver
NAME=$1 SPEC=$2 OPP=${3:-xinxin}
OUT=runs/bench/os-quick-$NAME
R=; [ -e "$OUT/manifest.json" ] && R=--resume
echo "=== $(date -u +%FT%TZ) $NAME $SPEC vs $OPP"
.venv/bin/hearts-env benchmark "$SPEC" --track reference --rules openspiel --tier quick --opponents "$OPP" --out "$OUT" --jobs 1 $R
rc=$?
echo "=== $(date -u +%FT%TZ) $NAME exit $rc"
[ $rc = 0 ] && .venv/bin/hearts-env benchmark compare "$OUT/result.json" docs/reference-table/v1/openspiel/quick/$OPP/apprentice.json
exit $rc
