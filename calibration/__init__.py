"""Calibration and validation of 2D Hertzian contact laws against the FEM of hertz2d."""
