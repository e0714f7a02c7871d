#!/usr/bin/env bash
# Issue 64, part 3, the claim: one seat of SPEC against three xinxin seats at the literature's setting
# (xinxin-literature: 2,000 UCT runs x 50 worlds), OpenSpiel's rules, into runs/bench/openspiel-claim-NAME. The short
# tier first (100 deals x 4 rotations), paired with apprentice-search's and pimc's reference rows; then the same folder
# grown to the extended tier (300 deals, the short tier's 100 kept), paired with pimc(n=40, policy='apprentice')'s
# extended run (results/measurements/search-vs-xinxin/); the short run is kept as it finished in OUT-short. Resumes
# wherever it stopped; SIGTERM pauses it (pause.sh).
#   usage: [VENV=DIR] [JOBS=N] [UNTIL=short|extended] lab/long-runs/claim.sh NAME SPEC
#   e.g. VENV=../hearts-env-lab/venv-abc1234 JOBS=2 lab/long-runs/claim.sh gated-z2-1 \
#          "pimc(n=40, policy='apprentice', elsewhere='apprentice', confidence=2, time_limit=1)"
#   VENV: the environment of a fixed commit (never a checkout with edits in flight)
source "$(dirname "$0")/env.sh"
usage="usage: lab/long-runs/claim.sh NAME SPEC"
NAME=${1:?$usage} SPEC=${2:?$usage}
VENV=${VENV:-.venv} JOBS=${JOBS:-1} UNTIL=${UNTIL:-extended}
OUT=runs/bench/openspiel-claim-$NAME
ROWS=results/reference-table/v1/openspiel/short/xinxin-literature
PIMC_EXTENDED=results/measurements/search-vs-xinxin/lit-extended-pimc-n40-apprentice.json

# bench TIER [FLAGS...]: the run on TIER, with --resume or --extend as its folder asks
bench() {
  local tier=$1; shift
  stamp "$NAME $SPEC vs xinxin-literature ($tier) $* jobs $JOBS"
  "$VENV/bin/hearts-env" benchmark "$SPEC" --track reference --rules openspiel --tier "$tier" \
    --opponents xinxin-literature --out "$OUT" --jobs "$JOBS" "$@"
  local rc=$?
  stamp "$NAME $tier exit $rc"
  return $rc
}
tier_of() { "$VENV/bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["tier"])' "$1"; }

if [ ! -e "$OUT/manifest.json" ]; then
  bench short || exit $?
elif [ "$(tier_of "$OUT/manifest.json")" = short ] && [ ! -e "$OUT/result.json" ]; then
  bench short --resume || exit $?
fi
if [ "$(tier_of "$OUT/manifest.json")" = short ]; then
  for row in apprentice-search pimc; do "$VENV/bin/hearts-env" benchmark compare "$OUT/result.json" "$ROWS/$row.json"; done
  # the short run as it finished, kept beside the run that grows (`hearts-env benchmark pack` ships either)
  [ -e "$OUT-short" ] || cp -a "$OUT" "$OUT-short"
  [ "$UNTIL" = short ] && exit 0
  bench extended --extend || exit $?
elif [ ! -e "$OUT/result.json" ]; then
  bench extended --resume || exit $?
fi
"$VENV/bin/hearts-env" benchmark compare "$OUT/result.json" "$PIMC_EXTENDED"
