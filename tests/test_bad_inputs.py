"""Every bad input exits 2 with one line naming the bad value, before any long work.

One table of command lines, each with the text its error line must contain. They cover the
reviewed list (step counts that would exhaust memory, mesh levels that would mesh for hours,
output paths that cannot be written, non-finite or out-of-range penalty factors, specs and grid
tables with values of the wrong type, negative numbers given as separate arguments) and the
ordinary range checks of every command.
"""
import csv
import io
import json
import os
import shutil
import time
from pathlib import Path

import pytest

from hertz2d.calibration.cli import main

PROJECT = Path(__file__).resolve().parents[1]
COMMITTED = PROJECT / "results"

SPEC = """
[base]
R = 0.5
a = 0.025
E = 10e9
nu = 0.25
T = 1e5
level = 0
supports = ["clamped"]
[grid]
a_over_R = [0.05]
nu = [0.25]
"""
GRID_HEADER = ("study,support,R,a,a_over_R,E,nu,T,level,dofs,u_x,w_fem,w_eq33,u_z,u_z_eq17,"
               "uz_over_eq17,status,error,seconds,reused")
GRID_ROW = "grid,clamped,0.5,0.025,0.05,1e10,0.25,1e5,2,13000,1e-6,{w},0.4,1e-6,1e-6,1.0,ok,,0.1,False"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Bad spec, grid and fit files, a plain file where a folder is expected, a read-only place."""
    root = tmp_path_factory.mktemp("bad")
    made = {"file": root / "a-file"}
    made["file"].write_text("not a folder\n")
    specs = {
        "spec_text": SPEC.replace("R = 0.5", 'R = "half a metre"'),
        "spec_empty_grid": SPEC.replace("a_over_R = [0.05]", "a_over_R = []"),
        "spec_bad_toml": "[base\nR = 1",
        "spec_level": SPEC.replace("level = 0", "level = 99"),
        "spec_support": SPEC.replace('["clamped"]', '["glued"]'),
        "spec_nu": SPEC.replace("nu = [0.25]", "nu = [0.5]"),
        "spec_unknown": SPEC + "[extra]\nx = 1\n",
        "spec_bool": SPEC.replace("T = 1e5", "T = true"),
        "spec_none": "[base]\nR = 0.5\na = 0.025\nE = 10e9\nnu = 0.25\nT = 1e5\nlevel = 0\n",
    }
    for name, text in specs.items():
        made[name] = root / f"{name}.toml"
        made[name].write_text(text)
    made["grid_garbage"] = root / "garbage.csv"
    made["grid_garbage"].write_bytes(os.urandom(4000))
    made["grid_columns"] = root / "columns.csv"
    made["grid_columns"].write_text("x,y\n1,2\n")
    made["grid_text"] = root / "text.csv"
    made["grid_text"].write_text(GRID_HEADER + "\n" + GRID_ROW.format(w="abc") + "\n")
    made["fit_garbage"] = root / "fit-garbage" / "penalty" / "fit.json"
    made["fit_garbage"].parent.mkdir(parents=True)
    made["fit_garbage"].write_text("{not json")
    made["fit_garbage_root"] = root / "fit-garbage"
    made["path_garbage"] = root / "path-garbage.csv"
    made["path_garbage"].write_bytes(os.urandom(3000))
    made["path_negative"] = root / "path-negative.csv"
    made["path_negative"].write_text("delta_n,delta_t\n0.01,0\n-0.01,0.001\n")
    made["path_text"] = root / "path-text.csv"
    made["path_text"].write_text("delta_n,delta_t\n0.01,abc\n")
    made["path_columns"] = root / "path-columns.csv"
    made["path_columns"].write_text("dn,dt\n0.01,0\n")
    made["path_ragged"] = root / "path-ragged.csv"
    made["path_ragged"].write_text("delta_n,delta_t\n0.01,0,5\n0.02,0\n")
    made["path_header_only"] = root / "path-header-only.csv"
    made["path_header_only"].write_text("delta_n,delta_t\n")
    made["map_huge"] = root / "map-huge.toml"  # 40 x 50 x 20 x 20 x 5 = 4 million cases
    made["map_huge"].write_text(MAP_SPEC + "[studies.everything]\n" + "\n".join(
        f"{axis} = {[round(start + step * k, 6) for k in range(n)]}" for axis, start, step, n in (
            ("a_over_R", 0.005, 0.005, 40), ("mu", 0.02, 0.02, 50), ("nu", 0.0, 0.02, 20),
            ("E2_over_E1", 0.5, 0.5, 20), ("R2_over_R1", 1.0, 1.0, 5))) + "\n")
    made["map_fine"] = root / "map-fine.toml"  # 6000 paths at level 4
    made["map_fine"].write_text(MAP_SPEC.replace("level = 2", "level = 4") + (
        "[studies.grid]\na_over_R = " + str([0.01 * (k + 1) for k in range(20)])
        + "\nmu = " + str([0.05 * (k + 1) for k in range(20)]) + "\nnu = [0.1, 0.2, 0.3, 0.4, "
        "0.45]\n"))
    walks = MAP_SPEC.replace("cycle = [0.6]", "cycle = [0.6]\nrandom-walk = [0.5]") + (
        "[samples.s]\ncases = 2\nseed = 1\nwall_fraction = 0.5\nR2_over_R1 = [1.0, 10.0]\n"
        "E2_over_E1 = [1.0, 10.0]\nnu1 = [0.0, 0.45]\nnu2 = [0.0, 0.45]\nmu = [0.1, 1.0]\n"
        "a_over_R = [0.01, 0.2]\npaths = [\"random-walk\"]\n[samples.s.loads]\n"
        "random-walk = [0.25, 1.0]\n")
    for name, text in {
            "map_swing": walks.replace("[paths.loads]", "[paths.swings]\nrandom-walk = 1.5\n"
                                       "[paths.loads]"),
            "map_reversals": walks.replace("normal_swing = 0.2", "normal_swing = 0.2\n"
                                           "reversals = -2"),
            "map_sample_level": walks.replace("seed = 1\n", "seed = 1\nlevel = 9\n")}.items():
        made[name] = root / f"{name}.toml"
        made[name].write_text(text)
    made["empty"] = root / "empty"
    made["empty"].mkdir()
    made.update(_read_back_files(root))
    # somewhere no file can be created: a read-only folder, or /sys when running as root
    if os.geteuid() == 0:
        made["readonly"] = "/sys/hertz2d-results"
    else:
        made["readonly"] = root / "readonly"
        made["readonly"].mkdir(mode=0o555)
    return made


def _root_with(root: Path, name: str, relative: str, text: str) -> Path:
    """A results root ``root/name`` holding ``text`` at ``relative``."""
    path = root / name / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return root / name


def _read_back_files(root: Path) -> dict:
    """Files hertz2d reads back, each spoilt in one way (the second fault review's inputs)."""
    from hertz2d.calibration.laws.calibrated import SHIPPED_COEFFICIENTS, CalibratedCoefficients
    from hertz2d.calibration.export.calibrated_law_file import calibrated_law_description
    from hertz2d.calibration.export.law_file import law_description
    from hertz2d.calibration.laws.penalty_factor import EQ33

    made = {}
    shipped = json.loads(SHIPPED_COEFFICIENTS.read_text())
    absurd = {**shipped, "coefficients": {**shipped["coefficients"],
                                          "penalty": [-1e9, 0, 0, 0, 0, 0],
                                          "bracket": [1e12, -1e12, 0, 0]}}
    made["coef_absurd"] = _root_with(root, "coef-absurd", "calibrated/coefficients.json",
                                     json.dumps(absurd))
    made["coef_version"] = _root_with(root, "coef-version", "calibrated/coefficients.json",
                                      json.dumps({**shipped, "format_version": 9}))
    made["coef_bom"] = _root_with(root, "coef-bom", "calibrated/coefficients.json",
                                  "\ufeff" + json.dumps(shipped))
    calibrated = calibrated_law_description(CalibratedCoefficients.from_file(
        SHIPPED_COEFFICIENTS), "shipped with hertz2d")
    calibrated["coefficients"]["values"]["penalty"] = [-50.0, 0, 0, 0, 0, 0]
    made["law_calibrated_w"] = root / "law-calibrated-w.json"
    made["law_calibrated_w"].write_text(json.dumps(calibrated))
    simplified = law_description(EQ33, "clamped")
    simplified["penalty"]["coefficients"] = [1e308] * 6
    made["law_huge"] = root / "law-huge.json"
    made["law_huge"].write_text(json.dumps(simplified))
    made["path_huge"] = root / "path-huge.csv"
    made["path_huge"].write_text("delta_n,delta_t\n0.01,0\n0.02,1e300\n")
    made["path_duplicate"] = root / "path-duplicate.csv"
    made["path_duplicate"].write_text("delta_n,delta_t,delta_n\n0.01,0,0.5\n0.02,0.001,0.5\n")
    fit = json.loads((COMMITTED / "penalty" / "fit.json").read_text())
    spoilt = [1e6, -1e6, 1e6, -1e6, 1e6, -1e6]
    absurd_fit = {**fit, "coefficients": spoilt,
                  "by_support": {**fit["by_support"],
                                 "clamped": {**fit["by_support"]["clamped"],
                                             "coefficients": spoilt}}}
    made["fit_absurd"] = _root_with(root, "fit-absurd", "penalty/fit.json",
                                    json.dumps(absurd_fit))
    shutil.copy(COMMITTED / "penalty" / "grid.csv", made["fit_absurd"] / "penalty" / "grid.csv")
    made["fit_nan"] = _root_with(root, "fit-nan", "penalty/fit.json",
                                 json.dumps(fit).replace(f'"r2": {fit["r2"]!r}', '"r2": NaN', 1))
    made["fit_version"] = _root_with(root, "fit-version", "penalty/fit.json",
                                     json.dumps({**fit, "format_version": 7}))
    made["spec_bom"] = root / "spec-bom.toml"
    made["spec_bom"].write_text("\ufeff" + SPEC)
    made.update(_spoilt_stage_files(root))
    return made


def _spoilt_stage_files(root: Path) -> dict:
    """Copies of the committed run (figures left out), each with one stage file spoilt as a
    hand edit might: a field the report reads missing, a column named twice, an infinity."""
    def spoilt(name: str, relative: str, change) -> Path:
        copy = root / name
        shutil.copytree(COMMITTED, copy, ignore=shutil.ignore_patterns("*.png", "report.*"))
        (copy / relative).write_text(change((copy / relative).read_text()))
        return copy

    def without_regions(text: str) -> str:
        summary = json.loads(text)
        del summary["regions"]
        return json.dumps(summary)

    return {
        "map_no_regions": spoilt("map-no-regions", "map/summary.json", without_regions),
        "map_twice": spoilt("map-twice", "map/errors.csv",
                            lambda text: text.replace(",law,", ",law,", 1).replace(
                                "law_name", "law", 1)),
        "runs_infinite": spoilt("runs-infinite", "dem/biaxial/runs.csv",
                                lambda text: _first_cell(text, "energy_balance_error", "inf"))}


def _first_cell(text: str, column: str, value: str) -> str:
    """A CSV table with ``column``'s first cell replaced by ``value``."""
    rows = list(csv.reader(io.StringIO(text)))
    rows[1][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


#: a map spec's base and paths (its studies added per case)
MAP_SPEC = """
[base]
counterpart = "disc"
R1 = 0.5
E1 = 10e9
nu1 = 0.25
R2_over_R1 = 1.0
E2_over_E1 = 1.0
nu2 = 0.25
mu = 0.3
a_over_R = 0.05
support = "symmetric"
level = 2
[paths]
normal_steps = 5
steps = 20
cycle_steps = 8
cycles = 1
normal_swing = 0.2
[paths.loads]
hold-normal = [1.5]
proportional = [2.0]
cycle = [0.6]
"""
F = "{file}"
IMPACT = ["dem", "impact", "--speed", "1"]
TWODISC = ["twodisc", "--path", "hold-normal"]
MODEL = ["model", "--path", "hold-normal"]

CASES = [
    # halfround: geometry, material, support, mesh level
    (["halfround", "--a", "0.6"], "a=0.6"),
    (["halfround", "--a", "0"], "a=0.0"),
    (["halfround", "--R", "-0.5"], "R=-0.5"),
    (["halfround", "--nu", "0.5"], "nu=0.5"),
    (["halfround", "--nu", "-0.1"], "nu=-0.1"),
    (["halfround", "--E", "-1"], "E=-1.0"),
    (["halfround", "--E", "-1e9"], "E=-1000000000.0"),
    (["halfround", "--E=-1e9"], "E=-1000000000.0"),
    (["halfround", "--E", "nan"], "E=nan"),
    (["halfround", "--E", "inf"], "E=inf"),
    (["halfround", "--E", "stiff"], "'stiff'"),
    (["halfround", "--force", "0"], "force=0.0"),
    (["halfround", "--support", "glued"], "support='glued'"),
    (["halfround", "--load", "sideways"], "'sideways'"),
    (["halfround", "--refine", "99"], "refine=99 must be <= 5"),
    (["halfround", "--refine", "-1"], "refine=-1"),
    # sweep: jobs, spec files and their values, results root
    (["sweep", "--jobs", "0"], "jobs=0"),
    (["sweep", "--jobs", "-2"], "jobs=-2"),
    (["sweep", "--spec", "/nonexistent.toml"], "spec='/nonexistent.toml'"),
    (["sweep", "--spec", "{spec_bad_toml}"], "is not valid TOML"),
    (["sweep", "--spec", "{spec_text}"], "R='half a metre' is not a finite number"),
    (["sweep", "--spec", "{spec_empty_grid}"], "a_over_R is an empty list"),
    (["sweep", "--spec", "{spec_level}"], "level=99 must be <= 5"),
    (["sweep", "--spec", "{spec_support}"], "'glued'"),
    (["sweep", "--spec", "{spec_nu}"], "nu=0.5"),
    (["sweep", "--spec", "{spec_unknown}"], "unknown extra"),
    (["sweep", "--spec", "{spec_bool}"], "T=True is not a finite number"),
    (["sweep", "--spec", "{spec_none}"], "declares no cases"),
    (["sweep", "--quick", "--results", F], "results="),
    (["sweep", "--quick", "--results", "{readonly}/x"], "cannot be written"),
    # fit: the grid table
    (["fit", "--grid", "/nonexistent.csv"], "grid='/nonexistent.csv'"),
    (["fit", "--grid", "{grid_garbage}"], "grid="),
    (["fit", "--grid", "{grid_columns}"], "lacks the column(s)"),
    (["fit", "--grid", "{grid_text}"], "w_fem='abc'"),
    (["fit", "--results", "{readonly}"], "cannot be written"),
    # twodisc: steps, levels, material, path, output paths
    ([*TWODISC, "--steps", "1000000000"], "steps=1000000000 must be <= 1000000"),
    ([*TWODISC, "--steps", "30000"], "path steps=30010 must be <= 20000"),
    ([*TWODISC, "--steps", "0"], "steps=0"),
    ([*TWODISC, "--normal-steps", "0"], "normal_steps=0"),
    ([*TWODISC, "--refine", "99"], "refine=99 must be <= 5"),
    ([*TWODISC, "--mu", "-0.3"], "mu=-0.3"),
    ([*TWODISC, "--delta-n", "0"], "delta_n=0.0"),
    ([*TWODISC, "--delta-n", "-0.01"], "delta_n=-0.01"),
    ([*TWODISC, "--delta-t", "0.9"], "delta_t=0.9"),
    ([*TWODISC, "--nu", "0.5"], "nu=0.5"),
    ([*TWODISC, "--support", "glued"], "support='glued'"),
    ([*TWODISC, "--out", "{file}/t.csv"], "out="),
    ([*TWODISC, "--out", "{readonly}/t.csv"], "cannot be written"),
    ([*TWODISC, "--profiles", "{readonly}/p.csv"], "profiles="),
    ([*TWODISC, "--vtu", F], "vtu="),
    # load paths and the two bodies (shared by twodisc and model)
    (["twodisc"], "give exactly one of --path and --path-file"),
    ([*TWODISC, "--path-file", "{path_negative}"], "give exactly one"),
    (["twodisc", "--path-file", "/nonexistent.csv"], "path_file='/nonexistent.csv'"),
    (["twodisc", "--path-file", "{path_garbage}"], "path_file="),
    (["twodisc", "--path-file", "{path_negative}"], "delta_n=-0.01 in row 2"),
    (["model", "--path-file", "{path_text}"], "delta_t='abc' in row 1"),
    (["model", "--path-file", "{path_columns}"], "lacks the column(s) delta_n, delta_t"),
    (["model", "--path", "cycle", "--cycles", "0"], "cycles=0"),
    (["model", "--path", "cycle", "--delta-t", "0"], "delta_t=0.0 must be > 0"),
    (["model", "--path", "unload-normal", "--delta-n-end", "0.03"], "delta_n_end=0.03"),
    (["model", "--path", "unload-normal", "--delta-n-end", "-0.01"], "delta_n_end=-0.01"),
    ([*MODEL, "--counterpart", "moon"], "counterpart='moon'"),
    ([*MODEL, "--R2", "-1"], "R2=-1.0"),
    ([*MODEL, "--E2", "0"], "E2=0.0"),
    ([*MODEL, "--nu2", "0.5"], "nu2=0.5"),
    ([*MODEL, "--counterpart", "wall", "--E2", "7e10"], "--E2 do not apply"),
    # model: laws, penalty factors, stiffnesses, output paths
    ([*MODEL, "--steps", "1000000000"], "steps=1000000000 must be <= 1000000"),
    ([*MODEL, "--penalty", "nan"], "penalty=nan"),
    ([*MODEL, "--penalty", "-0.5"], "penalty=-0.5"),
    ([*MODEL, "--penalty", "inf"], "penalty=inf"),
    ([*MODEL, "--penalty", "1.5"], "penalty=1.5"),
    ([*MODEL, "--penalty", "abc"], "penalty='abc'"),
    ([*MODEL, "--penalty", "refit", "--results", "{fit_garbage_root}"], "fit="),
    ([*MODEL, "--law", "magic"], "law='magic'"),
    ([*MODEL, "--law", "linear", "--kn", "0"], "kn=0.0"),
    ([*MODEL, "--law", "linear", "--kt", "-1"], "kt=-1.0"),
    (["model", "--path", "proportional", "--law", "accurate"], "law='accurate'"),
    ([*MODEL, "--delta-n", "0.6"], "delta_n=0.6"),
    ([*MODEL, "--out", "{file}/m.csv"], "out="),
    # validate, report, all: jobs and results roots
    (["validate", "--jobs", "0"], "jobs=0"),
    (["validate", "--results", "{readonly}"], "cannot be written"),
    (["report", "--results", "{empty}"], "has no penalty/grid.csv"),
    # flags that do not apply to the chosen law
    ([*IMPACT, "--law", "linear", "--penalty", "garbage"],
     "penalty='garbage' applies to --law simplified only (law='linear')"),
    ([*IMPACT, "--law", "linear", "--penalty", "0.5"], "penalty='0.5' applies"),
    ([*IMPACT, "--kn", "0"], "kn=0.0 applies to --law linear only (law='simplified')"),
    ([*IMPACT, "--law", "hertz-mindlin", "--kt", "1e9"], "kt=1000000000.0 applies"),
    ([*MODEL, "--law", "linear", "--penalty", "0.5"], "penalty='0.5' applies"),
    ([*MODEL, "--kn", "0"], "kn=0.0 applies to --law linear only"),
    ([*MODEL, "--law", "hertz-mindlin", "--kt", "1e9"], "kt=1000000000.0 applies"),
    # messages that name what the user typed
    (["dem", "impact", "--speed", "1e9", "--wall"], "speed=1000000000.0: the pair closing at 2e+09"),
    (["twodisc", "--path-file", "{path_ragged}"], "row 1 ('0.01,0,5') has 3 fields"),
    (["model", "--path-file", "{path_header_only}"], "path-header-only.csv' has 0 rows"),
    (["export-law", "--out", "/proc/x"], "no file can be created in '/proc'"),
    (["export-law", "--out", ""], "out='' is empty"),
    (["export-law", "--from", "{file}", "--penalty", "0.5"], "--penalty do not apply with --from"),
    ([*MODEL, "--out", ""], "out='' is empty"),
    ([*TWODISC, "--out", ""], "out='' is empty"),
    (["halfround", "--results", ""], "results='' is empty"),
    # bounds before any work
    (["sweep", "--jobs", "10000"], "jobs=10000 must be <= "),
    (["dem", "biaxial", "--quick", "--results", "{empty}", "--jobs", "10000"],
     "worker processes per CPU"),
    (["map", "--spec", "{map_huge}"], "up to 12000000 FEM paths"),
    (["map", "--spec", "{map_fine}"], "up to 6000 FEM paths"),
    (["map", "--max-cpu-hours", "0"], "max_cpu_hours=0.0 must be > 0"),
    (["report", "--results", F], "is a file"),
    (["all", "--jobs", "-1"], "jobs=-1"),
    (["all", "--results", F], "is a file"),
    # files hertz2d reads back, spoilt (the second fault review): absurd coefficients, other
    # versions, NaN tokens, a byte-order mark, a column twice, overflowing displacements
    ([*MODEL, "--law", "calibrated", "--results", "{coef_absurd}"],
     "coefficients penalty[0]=-1000000000.0 is outside [-5, 5]"),
    (["export-law", "--law", "calibrated", "--results", "{coef_absurd}", "--out",
      "{empty}/law"], "coefficients penalty[0]=-1000000000.0 is outside [-5, 5]"),
    ([*IMPACT, "--law", "calibrated", "--results", "{coef_absurd}"],
     "coefficients penalty[0]=-1000000000.0 is outside [-5, 5]"),
    ([*MODEL, "--law", "calibrated", "--results", "{coef_version}"],
     "format_version=9 is not 8"),
    ([*MODEL, "--law", "calibrated", "--results", "{coef_bom}"], "byte-order mark (BOM)"),
    (["export-law", "--from", "{law_calibrated_w}", "--out", "{empty}/law"],
     "coefficients penalty[0]=-50.0 is outside [-5, 5]"),
    (["export-law", "--from", "{law_huge}", "--out", "{empty}/law"],
     "penalty coefficients=[1e+308, 1e+308, 1e+308, 1e+308, 1e+308, 1e+308] give w="),
    (["model", "--path-file", "{path_huge}"], "delta_t=1e+300 is too large for delta_n=0.02"),
    (["model", "--path-file", "{path_huge}", "--counterpart", "wall"],
     "delta_t=1e+300 is too large"),
    (["model", "--path-file", "{path_duplicate}"], "the column 'delta_n' appears twice"),
    (["twodisc", "--path-file", "{path_duplicate}"], "the column 'delta_n' appears twice"),
    ([*MODEL, "--penalty", "refit", "--results", "{fit_absurd}"],
     "clamped coefficients=[1000000.0, -1000000.0, 1000000.0, -1000000.0, 1000000.0, "
     "-1000000.0] give w="),
    (["report", "--results", "{fit_absurd}"], "clamped coefficients=[1000000.0"),
    ([*MODEL, "--penalty", "refit", "--results", "{fit_nan}"], "NaN is not a JSON number"),
    ([*MODEL, "--penalty", "refit", "--results", "{fit_version}"], "format_version=7 is not 1"),
    (["sweep", "--spec", "{spec_bom}"], "starts with a UTF-8 byte-order mark (BOM)"),
    (["map", "--spec", "{spec_bom}"], "starts with a UTF-8 byte-order mark (BOM)"),
    (["report", "--results", "{map_no_regions}"], "report reads (KeyError: 'regions')"),
    (["report", "--results", "{map_twice}"], "the column 'law' appears twice"),
    (["report", "--results", "{runs_infinite}"],
     "energy_balance_error=inf in row 1 is not a finite number"),
    # flags that do not apply, refused everywhere (export-law refuses the same pair)
    ([*MODEL, "--law", "calibrated", "--form", "composite"],
     "form='composite': the calibrated law is fitted in the per-body form only"),
    ([*MODEL, "--law", "linear", "--form", "composite"], "form='composite' applies to --law"),
    ([*MODEL, "--cycles", "3"], "cycles=3 applies to --path cycle or coupled-cycle or "
     "stick-cycle or sliding-reversal or random-walk only"),
    (["model", "--path", "cycle", "--seed", "3"], "seed=3 applies to --path random-walk only"),
    (["model", "--path", "random-walk", "--seed", "-3"], "seed=-3 must be >= 0"),
    (["model", "--path", "random-walk", "--reversals", "-1"], "reversals=-1 must be >= 0"),
    (["model", "--path", "stick-cycle", "--normal-swing", "1"], "normal_swing=1.0 must be < 1"),
    (["map", "--spec", "{map_swing}"], "[paths.swings] random-walk=1.5 must be in [0, 1)"),
    (["map", "--spec", "{map_reversals}"], "[paths] reversals=-2 must be >= 0"),
    (["map", "--spec", "{map_sample_level}"], "[samples.s] level=9"),
    ([*MODEL, "--delta-n-end", "0.01"], "delta_n_end=0.01 applies to --path unload-normal"),
    (["model", "--path", "cycle", "--normal-swing", "0.1"],
     "normal_swing=0.1 applies to --path coupled-cycle or stick-cycle or sliding-reversal or "
     "random-walk only"),
    (["model", "--path-file", "{path_negative}", "--steps", "10"],
     "--steps do not apply (the file gives every step)"),
]


@pytest.mark.parametrize("argv, expected", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_input_exits_2_with_one_line_naming_it(capsys, files, argv, expected):
    argv = [token.format(**files) for token in argv]
    expected = expected.format(**files)
    start = time.perf_counter()
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own errors
        code = stop.code
    seconds = time.perf_counter() - start
    out, err = capsys.readouterr()
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert expected in err, err
    assert seconds < 15, "the check came after long work"


def test_a_spec_of_millions_of_cases_is_refused_at_once(capsys, files):
    start = time.perf_counter()
    assert main(["map", "--spec", str(files["map_huge"]), "--results", str(files["empty"])]) == 2
    assert time.perf_counter() - start < 1.0  # counted from the axes, not expanded
    err = capsys.readouterr().err
    # 4e6 cases x (25 + 20 + 45 steps of its three paths) x 0.023 s = 2300 CPU hours
    assert "about 2.3e+03 CPU hours" in err and "--max-cpu-hours 2300 " in err, err


def test_a_cache_variable_naming_a_file_is_named(capsys, files, monkeypatch):
    monkeypatch.setenv("HERTZ2D_CACHE", str(files["file"]))
    assert main(["sweep", "--quick", "--results", str(files["empty"])]) == 2
    err = capsys.readouterr().err
    assert err == (f"hertz2d sweep: error: HERTZ2D_CACHE={str(files['file'])!r} cannot hold the "
                   f"cache: {str(files['file'])!r} is a file, not a folder\n")


@pytest.mark.parametrize("variable", ["HERTZ2D_CACHE", "XDG_CACHE_HOME"])
def test_a_cache_variable_naming_a_place_without_files_is_named(capsys, files, monkeypatch,
                                                                 variable):
    monkeypatch.delenv("HERTZ2D_CACHE", raising=False)
    monkeypatch.setenv(variable, "/proc/x")
    assert main(["sweep", "--quick", "--results", str(files["empty"])]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hertz2d sweep: error: {variable}='/proc/x' cannot hold the cache: "
                          "no file can be created in '/proc'"), err
    assert len(err.strip().splitlines()) == 1
    assert not list(files["empty"].iterdir())


def test_help_texts_print_percent_signs_once(capsys):
    with pytest.raises(SystemExit):
        main(["map", "--help"])
    text = capsys.readouterr().out
    assert "5 % and 10 %" in text and "%%" not in text


def test_bad_input_with_json_prints_no_summary(capsys):
    assert main(["halfround", "--nu", "0.7", "--json"]) == 2
    out, _ = capsys.readouterr()
    assert out == ""  # no JSON line: a caller parsing stdout sees nothing, not a summary
