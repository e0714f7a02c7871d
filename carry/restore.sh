#!/usr/bin/env bash
# Restore the carried runs (README.md): each commit's environment, the run folders and the run scripts.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
command -v bwrap >/dev/null || (apt-get update -qq && apt-get install -y -qq bubblewrap >/dev/null)
mkdir -p runs/bench
{ grep -v '^#' carry/RUNS || true; } | while read -r folder commit extras _; do
  [ -z "$folder" ] && continue
  short=${commit:0:7}
  venv=/work/runvenv-$short src=/work/runsrc-$short
  if [ ! -x "$venv/bin/hearts-env" ]; then
    [ -d "$src" ] || git worktree add -f "$src" "$commit" >/dev/null
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --upgrade pip
    pins=(-c constraints.txt)  # and the versions the run began with, where recorded (pip freeze)
    [ -e "$root/carry/${folder//\//-}.freeze.txt" ] && pins+=(-c "$root/carry/${folder//\//-}.freeze.txt")
    (cd "$src" && "$venv/bin/pip" install -q "${pins[@]}" ".[$extras]")
  fi
  # a folder with a slash lies under runs/ (e.g. apprentice2/data, archived as apprentice2-data.tar.xz), else runs/bench/
  case $folder in */*) under=runs;; *) under=runs/bench;; esac
  if [ ! -d "$under/$folder" ]; then mkdir -p "$under" && tar -xJf "carry/${folder//\//-}.tar.xz" -C "$under"; fi
  echo "restored $under/$folder (code $short, $venv)"
done
# xinxin (GPL-3.0, never in the wheel) for runs against it: built from third_party/ by the Makefile
if grep -v "^#" carry/RUNS | grep -q xinxin; then make -s xinxin; fi
cp carry/*.sh runs/ 2>/dev/null || true
