"""A local language model behind an OpenAI-compatible HTTP server on loopback, for docs/llm.md's local row.

llama.cpp's own server (``xllamacpp``, llama.cpp's server as a Python module from a prebuilt wheel) on one thread,
one slot, 4,096 tokens of context, answering as MODEL_NAME. It serves until killed.

    usage: python lab/long-runs/local_model_server.py GGUF PORT MODEL_NAME
"""

import sys
import time

import xllamacpp


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit("usage: python lab/long-runs/local_model_server.py GGUF PORT MODEL_NAME")
    gguf, port, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    params = xllamacpp.CommonParams()
    params.model.path = gguf
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.model_alias = {name}
    params.n_ctx = 4096
    params.n_parallel = 1  # one request at a time: the benchmark plays with --jobs 1
    params.cpuparams.n_threads = 1  # one core, as every run of the lab
    params.cpuparams_batch.n_threads = 1
    server = xllamacpp.Server(params)
    print(f"serving {name} at {server.listening_address}", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
