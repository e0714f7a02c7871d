#!/bin/bash
# Issue 17, item 6: `ppo` and `dqn` retrained under every pass direction, against the left-pass-only weights they
# replace (copied out of git into runs/learned-old: `git show 83a8d2d:baselines/hearts_baselines/weights/ppo.zip`,
# and ppo.json, dqn.zip, dqn.json the same way). One learned seat against three copies of an opponent, the four
# rotations of 1000 deals, every pass direction. Each run writes its records to $E/NAME.jsonl (resumable) and its
# summary to $E/NAME.json; pair two runs deal for deal with
# python lab/measurements/paired.py $E/A.jsonl $E/B.jsonl PREFIX
cd "$(dirname "$0")/../.."
E=${E:-runs/learned-eval}
mkdir -p $E
A() { name=$1; shift; [ -s $E/$name.json ] && return; .venv/bin/hearts-env arena "$@" --deals 1000 --jobs ${JOBS:-2} --json --out $E/$name.jsonl --resume > $E/$name.json 2> $E/$name.err; echo "$name done $(date +%T)"; }
for algo in ppo dqn; do
  for opponent in greedy heuristic; do
    A $algo-$opponent $algo $opponent $opponent $opponent
    A $algo-old-$opponent "$algo(weights='runs/learned-old/$algo.zip')" $opponent $opponent $opponent
  done
done
