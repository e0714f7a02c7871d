"""Baseline agents for hearts-env, built only on hearts_env's public API."""
