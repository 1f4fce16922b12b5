"""scikit-fem solvers for hertz2d: plane-strain elasticity, Hertzian loads, frictional contact."""
