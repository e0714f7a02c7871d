#!/usr/bin/env bash
# Restore the carried runs (lab/README.md): each run's environment, built from its commit, and its folder.
#   usage: [LAB_ENVS=DIR] lab/long-runs/restore.sh
# For each line of lab/archives/RUNS: a git worktree of the run's commit ($LAB_ENVS/src-COMMIT) and a venv with the
# run's extras ($LAB_ENVS/venv-COMMIT; LAB_ENVS defaults to ../hearts-env-lab, beside the checkout), the packages
# pinned to the versions the run began with (lab/archives/FOLDER.freeze.txt); then the run's folder unpacked from
# lab/archives/FOLDER.tar.xz into runs/bench/ (a folder with a slash: into runs/). Resume each run with the command
# RUNS gives, from the checkout's root.
set -euo pipefail
source "$(dirname "$0")/env.sh"
root=$PWD
archives=$root/lab/archives
make -s sandbox-tool  # bubblewrap, for the benchmark's sandboxed seats
mkdir -p runs/bench "$LAB_ENVS"
{ grep -v '^#' "$archives/RUNS" || true; } | while read -r folder commit extras _; do
  [ -z "$folder" ] && continue
  short=${commit:0:7} name=${folder//\//-}
  venv=$LAB_ENVS/venv-$short src=$LAB_ENVS/src-$short
  if [ ! -x "$venv/bin/hearts-env" ]; then
    [ -d "$src" ] || git worktree add -f "$src" "$commit" >/dev/null
    python3 -m venv "$venv"
    venv=$(cd "$venv" && pwd)
    "$venv/bin/pip" install -q --upgrade pip
    pins=(-c constraints.txt)  # and the versions the run began with, where recorded (pip freeze)
    [ -e "$archives/$name.freeze.txt" ] && pins+=(-c "$archives/$name.freeze.txt")
    (cd "$src" && "$venv/bin/pip" install -q "${pins[@]}" ".[$extras]")
  fi
  # a folder with a slash lies under runs/ (apprentice2/data, archived as apprentice2-data.tar.xz), else runs/bench/
  case $folder in */*) under=runs;; *) under=runs/bench;; esac
  if [ ! -d "$under/$folder" ]; then mkdir -p "$under" && tar -xJf "$archives/$name.tar.xz" -C "$under"; fi
  echo "restored $under/$folder (code $short, $venv)"
done
# xinxin (GPL-3.0, never in the wheel) for the runs that seat it: built from third_party/ by the Makefile
if grep -v '^#' "$archives/RUNS" | grep -q -e xinxin -e outcomes; then make -s xinxin; fi
