"""Reference opponents from outside hearts-env, each played from a process of its own: :mod:`.xinxin`."""
