"""Marks shared by the test modules (``pythonpath = ["tests"]``)."""

import os

import pytest

from hearts_env.evaluation.seat.sandbox import bwrap_works

needs_sandbox = pytest.mark.skipif(not bwrap_works() and not os.environ.get("CI"),  # CI must have it
                                   reason="the sandbox needs bubblewrap (make test installs it)")
"""Tests of the benchmark's sandbox: skipped only off CI on a machine without bubblewrap."""
