"""A local language model behind an OpenAI-compatible HTTP server on loopback, for docs/llm.md's local row.

llama.cpp's own server (``xllamacpp``: llama.cpp's server as a Python module, from a prebuilt wheel) on one thread,
one slot, 4,096 tokens of context, answering as MODEL_NAME at http://127.0.0.1:PORT/v1. It serves until killed.

    usage: python lab/long-runs/local_model_server.py GGUF PORT MODEL_NAME
"""

import argparse
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gguf", help="the model's weights, a GGUF file")
    parser.add_argument("port", type=int, help="the loopback port to serve on")
    parser.add_argument("model_name", help="the model's name in the API (the llm agent's model=)")
    args = parser.parse_args()
    import xllamacpp  # after parsing: --help needs no llama.cpp

    params = xllamacpp.CommonParams()
    params.model.path = args.gguf
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.model_alias = {args.model_name}
    params.n_ctx = 4096
    params.n_parallel = 1  # one request at a time: the benchmark plays with --jobs 1
    params.cpuparams.n_threads = 1  # one core, as every run of the lab
    params.cpuparams_batch.n_threads = 1
    server = xllamacpp.Server(params)
    print(f"serving {args.model_name} at {server.listening_address}", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
