"""gmsh geometries for hertz2d, returned as tagged scikit-fem meshes."""
