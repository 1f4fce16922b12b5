"""Shipped specs of the validity map (``hertz2d map``): ``default.toml`` and ``quick.toml``."""
