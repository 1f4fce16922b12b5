"""The calibrated law's stage (``hertz2d calibrate``): its free functions fitted by least squares
on the two-body FEM's force-displacement paths of the training spec, judged on held-out contacts.

:mod:`~hertz2d.calibration.calibrate.training`
    the FEM paths of a map spec as arrays a fit runs the law on (the contact frame, Eqs. 4 and
    22's N and a, the FEM's forces and the steps judged);
:mod:`~hertz2d.calibration.calibrate.objective`
    the law on a batch of paths at once, and the residuals the fit minimises (the map's error
    metric);
:mod:`~hertz2d.calibration.calibrate.fit`
    the least-squares fit;
:mod:`~hertz2d.calibration.calibrate.stage`
    the stage: training FEM, fit, ``coefficients.json``, training and held-out errors, figures.
"""
