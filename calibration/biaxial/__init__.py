"""The DEM stage: the paper's biaxial compression test (Section 4.3) with every contact law.

:mod:`~hertz2d.calibration.biaxial.laws` (which laws, from which files: law.json, fit.json, the
validation's regressed spring), :mod:`~hertz2d.calibration.biaxial.runs` (the runs over laws, dampings and
packings: parallel, cached, resumable), :mod:`~hertz2d.calibration.biaxial.comparison` (mean and spread
over the packings, differences against the scatter), :mod:`~hertz2d.calibration.biaxial.figures` (Figs.
16-18 and the analyses), :mod:`~hertz2d.calibration.biaxial.stage` (``hertz2d dem biaxial``). The test
itself is :mod:`hertz2d.dem.biaxial`.
"""
