"""The exports of a contact law, a room above the law library (:mod:`hertz2d.calibration.laws`).

What ``hertz2d export-law`` writes and what other codes run: the law files
(:mod:`hertz2d.calibration.export.law_file` for the paper's simplified law,
:mod:`hertz2d.calibration.export.calibrated_law_file` for the calibrated law), the C99 header with the
coefficients baked in (:mod:`hertz2d.calibration.export.c_header`, its templates in ``c99/``), the test
vectors a port must reproduce (:mod:`hertz2d.calibration.export.reference_vectors`: single updates;
:mod:`hertz2d.calibration.export.history_vectors`: contact histories) and the LAMMPS plugin's source and
build (:mod:`hertz2d.calibration.export.lammps`). The laws import nothing of this room.
"""
