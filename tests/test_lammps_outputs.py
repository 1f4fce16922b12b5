"""What the LAMMPS plugin reports: per contact (``compute hertz2d/contact``, ``compute pair/local``)
and the energy budget (``pe``, the dissipated work of friction, dashpots and local damping).

- Replay: two dissimilar discs and a disc on a wall are moved by ``fix move`` along a path that
  loads, reverses, slides, unloads and opens twice; every step's rows of ``compute
  hertz2d/contact`` (the approach and tangential increment the law took) are replayed through
  the Python law (``calibrated_update``, ``simplified_update`` for the simplified law's plugin),
  which must give the same a, N, T, kt, slip state, stick
  fraction, tangential and stored energy and cumulative dissipated work to 1e-12 (T, N against
  mu N and N, energies against the largest stored energy); ``compute pair/local`` gives the same
  values and the atoms' forces.
- Energy budget: a 200-disc pour (undamped, and with dashpots and local damping) closes kinetic
  + stored + dissipated = the work of gravity to a residual that falls with dt as the
  velocity-Verlet integrator's second order says.

Needs the ``lammps`` extra and a C++ compiler (skips with the reason otherwise).
"""
import math
import tempfile
from pathlib import Path

import numpy as np
import pytest

from hertz2d.calibration.laws import ContactPair
from hertz2d.calibration.laws.calibrated import CalibratedState, calibrated_update
from hertz2d.calibration.export.calibrated_law_file import read_calibrated_law
from hertz2d.calibration.export.lammps import runtime
from hertz2d.calibration.export.lammps.inputs import DiscSystem, disc_lines, number, write_data
from hertz2d.calibration.laws.scalar import hertz2d_normal_energy

REASON = runtime.supported()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"LAMMPS plugin: {REASON}")

DT, DENSITY = 1e-6, 2700.0
R1, R2, E1, E2, NU1, NU2, MU_PAIR = 0.03, 0.05, 10e9, 70e9, 0.25, 0.35, 0.2
R, E, NU, MU = 0.035, 10e9, 0.25, 0.3
#: compute hertz2d/contact's columns
COLUMNS = ("id", "partner", "wall", "overlap", "increment", "a", "N", "T", "kt", "slipping",
           "stick", "coupling", "tangential", "stored", "dissipated", "N_dashpot", "T_dashpot")
#: compute pair/local's p1 ... p10
SINGLE = ("fx", "fy", "N", "T", "overlap", "a", "kt", "slipping", "stick", "dissipated")


def read_local(path: Path, width: int) -> dict[int, np.ndarray]:
    """A local dump: step -> (rows, width) array."""
    lines, out, k = path.read_text().splitlines(), {}, 0
    while k < len(lines):
        step, rows = int(lines[k + 1]), int(lines[k + 3])
        out[step] = np.array([[float(v) for v in line.split()] for line in
                              lines[k + 9:k + 9 + rows]]).reshape(rows, width)
        k += 9 + rows
    return out


def run_path(plugin: Path, wall: bool, approach: float, amplitude: float, steps: int,
             second_first: bool = False):
    """The prescribed path (approach 1.2 sin^2 - 0.1 of ``approach``, tangential ``amplitude``
    sin) in LAMMPS: per step the contact compute's rows, compute pair/local's rows and the
    atoms' forces (fx, fy by atom ID). ``second_first`` lists atom 2 first in the data file, so
    that the neighbour list holds the pair under atom 2, whose copy of the contact the pair style
    writes, and atom 1's copy, which compute hertz2d/contact reports, is the store's synced one."""
    P, Q = number(2e-4), number(1.3e-4)
    D, U = number(approach), number(amplitude)
    variables = {"dx": f"{U}*sin(2*PI*time/{Q})", "vx": f"{U}*2*PI/{Q}*cos(2*PI*time/{Q})",
                 "dy": f"-{D}*(1.2*sin(PI*time/{P})*sin(PI*time/{P})-0.1)",
                 "vy": f"-{D}*1.2*2*sin(PI*time/{P})*cos(PI*time/{P})*PI/{P}"}
    with tempfile.TemporaryDirectory(prefix="hertz2d-outputs-") as folder:
        folder = Path(folder)
        if wall:
            write_data(folder / "discs.data", [(0.0, R)], [R], DENSITY, (-1, 1, -1, 1))
            materials = [f"pair_coeff * * {number(E)} {number(NU)} {number(MU)}",
                         f"fix walls all wall/hertz2d {number(MU)} ylo 0.0"]
        else:
            write_data(folder / "discs.data", [(0.0, 0.0), (0.0, R1 + R2)], [R1, R2], DENSITY,
                       (-1, 1, -1, 1))
            data = (folder / "discs.data").read_text().replace("1 atom types", "2 atom types")
            data = data.replace(f"2 1 {number(2 * R2)}", f"2 2 {number(2 * R2)}")
            if second_first:
                head, atoms = data.split("Atoms # sphere\n\n")
                first, second = atoms.strip().splitlines()
                data = f"{head}Atoms # sphere\n\n{second}\n{first}\n"
            (folder / "discs.data").write_text(data)
            materials = [f"pair_coeff 1 1 {number(E1)} {number(NU1)} 0.3",
                         f"pair_coeff 2 2 {number(E2)} {number(NU2)} 0.5",
                         f"pair_coeff 1 2 {number(MU_PAIR)}"]
        moving = "all" if wall else "upper"
        lines = ["units si", "dimension 2", "atom_style sphere", "atom_modify map array",
                 "boundary f f p", "comm_modify vel yes", f"read_data {folder / 'discs.data'}",
                 f"set group all density/disc {number(DENSITY)}",
                 f"pair_style hertz2d {plugin / 'law.json'}", *materials, "group upper id 2",
                 *[f"variable {name} equal {formula}" for name, formula in variables.items()],
                 f"fix drive {moving} move variable v_dx v_dy NULL v_vx v_vy NULL",
                 "fix plane all enforce2d", f"timestep {number(DT)}", "neighbor 0.01 bin",
                 "neigh_modify delay 0 every 1 check yes",
                 "compute contact all hertz2d/contact",
                 f"dump contacts all local 1 {folder / 'contacts.dump'} c_contact[*]",
                 "dump_modify contacts format float %.17g",
                 f"dump forces all custom 1 {folder / 'forces.dump'} id fx fy",
                 "dump_modify forces sort id format float %.17g"]
        if second_first:  # LAMMPS's spatial sort would put atom 1, the lower, first again
            lines.insert(lines.index(f"read_data {folder / 'discs.data'}") + 1,
                         "atom_modify sort 0 0.0")
        if not wall:
            lines += ["compute single all pair/local p1 p2 p3 p4 p5 p6 p7 p8 p9 p10",
                      f"dump singles all local 1 {folder / 'singles.dump'} c_single[*]",
                      "dump_modify singles format float %.17g"]
        lines.append(f"run {steps}")
        lmp = runtime.open_lammps(plugin)
        try:
            for line in lines:
                lmp.command(line)
        finally:
            lmp.close()
        contacts = read_local(folder / "contacts.dump", len(COLUMNS))
        singles = {} if wall else read_local(folder / "singles.dump", len(SINGLE))
        text = (folder / "forces.dump").read_text().splitlines()
        atoms = 1 if wall else 2
        forces = {int(text[k + 1]): np.array([[float(v) for v in line.split()[1:]]
                                              for line in text[k + 9:k + 9 + atoms]])
                  for k in range(0, len(text), 9 + atoms)}
    return contacts, singles, forces


def replay(pair: ContactPair, coefficients, rows: dict[int, np.ndarray], steps: int):
    """The Python law on the plugin's inputs: per step with a contact, the COLUMNS it must
    report (NaN where the column is not the law's)."""
    state, previous = CalibratedState.unloaded(), None
    share = 0.5 if pair.wall else 1.0
    scale = 2.0 if pair.wall else 1.0
    R_1, R_2 = float(pair.R1), float(pair.R2)
    weights = [float(w) for w in pair.bracket_weights]
    out = {}
    for step in range(1, steps + 1):
        if step not in rows or len(rows[step]) == 0:
            state, previous = CalibratedState.unloaded(), None
            continue
        row = dict(zip(COLUMNS, rows[step][0]))
        overlap, increment = row["overlap"], row["increment"]
        state = calibrated_update(pair, overlap, increment, state, coefficients)
        N, T, a = state.N[0], state.T[0], state.a[0]
        coupling = N - float(_hertz(pair, overlap))
        tangential = state.energy[0]
        stored = share * (hertz2d_normal_energy(a, R_1, R_2, float(pair.modulus), *weights)
                          + tangential)
        if previous is None:
            previous = {"T": 0.0, "coupling": 0.0, "tangential": 0.0, "overlap": 0.0,
                        "dissipated": 0.0}
        dissipated = previous["dissipated"] + share * (
            0.5 * (previous["T"] + T) * scale * increment
            + 0.5 * (previous["coupling"] + coupling) * scale * (overlap - previous["overlap"])
            - (tangential - previous["tangential"]))
        slipping = bool(state.slipping[0])
        out[step] = {"a": a, "N": N, "T": T, "kt": state.kt[0], "slipping": float(slipping),
                     "stick": 0.0 if slipping else state.front[0] / a, "coupling": coupling,
                     "tangential": tangential, "stored": stored, "dissipated": dissipated}
        previous = {"T": T, "coupling": coupling, "tangential": tangential, "overlap": overlap,
                    "dissipated": dissipated}
    return out


def _hertz(pair: ContactPair, overlap: float) -> float:
    """Eqs. 4 + 22's normal force of the pair (the calibrated law's N less its coupling term)."""
    from hertz2d.calibration.laws.hertz2d import normal_force
    return float(normal_force(pair, pair.pair_displacement(overlap))[0])


@pytest.mark.parametrize("law", ["calibrated_plugin", "plugin"])
@pytest.mark.parametrize("wall, second_first", [(False, False), (False, True), (True, False)],
                         ids=["dissimilar-discs", "dissimilar-discs-listed-under-2", "wall"])
def test_contact_outputs_replay_the_python_law(request, law, wall, second_first):
    plugin = request.getfixturevalue(law)
    pair = (ContactPair.disc_on_wall(R, E, NU, MU) if wall
            else ContactPair(R1, R2, E1, E2, NU1, NU2, MU_PAIR, form="per-body"))
    steps = 460
    # an approach of about 2e-3 R and a tangential swing past full slip
    approach = 4e-6 if wall else 8e-6
    contacts, singles, forces = run_path(plugin, wall, approach, 0.4 * approach, steps,
                                         second_first)
    if law == "plugin":
        ours = replay_simplified(pair, contacts, steps)
    else:
        ours = replay(pair, read_calibrated_law(plugin / "law.json")[0], contacts, steps)
    assert len(ours) > 300
    mu = float(pair.mu)
    peak_N = max(v["N"] for v in ours.values())
    peak_energy = max(v["stored"] for v in ours.values())
    worst = dict.fromkeys(ours[next(iter(ours))], 0.0)
    for step, want in ours.items():
        got = dict(zip(COLUMNS, contacts[step][0]))
        scales = {"a": want["a"], "N": peak_N, "T": mu * want["N"], "kt": abs(want["kt"]) or 1.0,
                  "slipping": 1.0, "stick": 1.0, "coupling": peak_N,
                  "tangential": peak_energy, "stored": peak_energy, "dissipated": peak_energy}
        for name, value in want.items():
            worst[name] = max(worst[name], abs(got[name] - value) / scales[name])
        assert got["id"] == 1 and got["partner"] == (0 if wall else 2)
        assert got["wall"] == (3 if wall else 0)  # ylo is side 2: column 1 + 2
        if not wall:  # pair/local reads the same contact, and its force is the atoms'
            single = dict(zip(SINGLE, singles[step][0]))
            for name in ("N", "T", "overlap", "a", "kt", "slipping", "stick", "dissipated"):
                assert single[name] == got[name] + (got["N_dashpot"] if name == "N" else 0.0)
            assert single["fx"] == pytest.approx(forces[step][0, 0], rel=1e-12, abs=1e-9)
            assert single["fy"] == pytest.approx(forces[step][0, 1], rel=1e-12, abs=1e-9)
    print(f"largest differences from the Python law: {worst}")
    assert max(worst.values()) < 1e-12
    slid = [v["slipping"] for v in ours.values()]
    assert 0 < sum(slid) < len(slid)  # it stuck and slid
    assert max(v["dissipated"] for v in ours.values()) > 0.0


def header_step_stiffness(pair: ContactPair, delta_n: float, delta_previous: float,
                          kt_previous: float, kt: float, N: float) -> float:
    """The simplified law's step stiffness as the C99 header (and hertz2d's DEM) take it, second
    order from first touch: a new contact the mean of kt over its first step (Gauss-Laguerre in
    the approach fraction), Simpson's rule with kt at the middle approach where the approach
    changes by more than omega dt of itself in the step (omega^2 = k_n/m*, k_n = pi E*/(u - 1)
    with u = pi E* delta_n/N, m* the discs' reduced mass, the mirror pair's for a wall), else
    the trapezoid; from the vectorised law's kt."""
    from hertz2d.calibration.laws import scalar
    from hertz2d.calibration.laws.hertz2d import normal_force, tangential_stiffness
    from hertz2d.calibration.laws.penalty_factor import EQ33

    def kt_at(approach):
        return float(tangential_stiffness(pair, normal_force(pair, approach)[1], EQ33))

    if not kt_previous > 0.0:
        return sum(weight * kt_at(fraction * delta_n) for fraction, weight in
                   zip(scalar.ENTRY_FRACTIONS, scalar.LAGUERRE_WEIGHTS))
    middle, change = 0.5 * (delta_n + delta_previous), delta_n - delta_previous
    stiffness = math.pi * float(pair.modulus)
    k_normal = stiffness / (stiffness * delta_n / N - 1.0)
    masses = [DENSITY * math.pi * float(radius)**2 for radius in (pair.R1, pair.R2)]
    reduced_mass = masses[0] * masses[1] / (masses[0] + masses[1])  # a wall: its mirror pair's
    if change * change <= k_normal * (DT * DT / reduced_mass) * middle * middle:
        return 0.5 * (kt_previous + kt)
    return (kt_previous + 4.0 * kt_at(middle) + kt) / 6.0


def replay_simplified(pair: ContactPair, rows: dict[int, np.ndarray], steps: int):
    """:func:`replay` for the simplified law (Table 1, Eq. 33's penalty factor): the Python law
    on the plugin's inputs (N, a, kt of Eqs. 4, 22, 31; Eq. 32's increment with the header's step
    stiffness, :func:`header_step_stiffness`), its tangential energy the spring's T^2/(2 kt)."""
    from hertz2d.calibration.laws.hertz2d import normal_force, tangential_stiffness
    from hertz2d.calibration.laws.penalty_factor import EQ33
    from hertz2d.calibration.laws.scalar import capped_update
    share, scale = (0.5, 2.0) if pair.wall else (1.0, 1.0)
    weights = [float(w) for w in pair.bracket_weights]
    T = kt = delta = 0.0
    previous, out = None, {}
    for step in range(1, steps + 1):
        if step not in rows or len(rows[step]) == 0:
            T = kt = delta = 0.0
            previous = None
            continue
        row = dict(zip(COLUMNS, rows[step][0]))
        delta_previous, delta = delta, float(pair.pair_displacement(row["overlap"]))
        increment = row["increment"]
        N, a = (float(np.asarray(v).ravel()[0]) for v in normal_force(pair, delta))
        kt_previous, kt = kt, float(tangential_stiffness(pair, a, EQ33))
        T, slipping = capped_update(T, header_step_stiffness(pair, delta, delta_previous,
                                                             kt_previous, kt, N),
                                    scale * increment, N, float(pair.mu))
        tangential = 0.5 * T * T / kt
        stored = share * (hertz2d_normal_energy(a, float(pair.R1), float(pair.R2),
                                                float(pair.modulus), *weights) + tangential)
        previous = previous or {"T": 0.0, "tangential": 0.0, "dissipated": 0.0}
        dissipated = previous["dissipated"] + share * (
            0.5 * (previous["T"] + T) * scale * increment - (tangential - previous["tangential"]))
        out[step] = {"a": a, "N": N, "T": T, "kt": kt, "slipping": float(slipping),
                     "stick": 0.0 if slipping else 1.0, "coupling": 0.0,
                     "tangential": tangential, "stored": stored, "dissipated": dissipated}
        previous = {"T": T, "tangential": tangential, "dissipated": dissipated}
    return out


# -- energy budget -------------------------------------------------------------------------------

def pour_budget(plugin: Path, folder: Path, dt: float, ratio: float, local: float,
                duration: float = 0.06) -> dict:
    """200 discs (8 columns, 25 rows, thrown down at 0.5-1.5 m/s) poured onto a floor in a box
    for ``duration`` s: the budget's terms at the end (J/m), from LAMMPS's thermo output."""
    rng = np.random.default_rng(3)
    columns, rows, radius = 8, 25, 0.01
    centres = [(0.025 + 0.026 * i + rng.uniform(-1e-3, 1e-3), 0.012 + 0.028 * j)
               for j in range(rows) for i in range(columns)]
    radii = [radius * (0.8 + 0.4 * rng.uniform()) for _ in centres]
    velocities = [(rng.uniform(-0.5, 0.5), rng.uniform(-1.5, -0.5), 0.0) for _ in centres]
    write_data(folder / "discs.data", centres, radii, DENSITY, (-0.05, 0.3, -0.05, 0.8),
               velocities)
    system = DiscSystem(E=1e8, nu=0.3, mu=0.4, density=DENSITY, dt=dt, skin=0.005, ratio=ratio,
                        local=local, gravity=9.81,
                        walls=(("ylo", 0.0), ("xhi", 0.23), ("xlo", 0.0)))
    lines = disc_lines(plugin, "law.json", system, folder / "discs.data", load_plugin=False)
    lines += ["fix_modify walls energy yes", "compute spin all property/atom omegaz",
              "variable rot atom 0.25*mass*radius*radius*c_spin*c_spin",
              "variable height atom mass*9.81*y",
              "compute rot all reduce sum v_rot", "compute height all reduce sum v_height",
              "compute pair all pair hertz2d",
              "thermo_style custom step ke c_rot pe c_pair f_walls c_height c_pair[1] c_pair[2] "
              "f_walls[25] f_walls[26] " + ("f_local " if local else "") + "f_walls[27]",
              "thermo_modify format float %.17g", f"thermo {round(duration / dt)}",
              f"run {round(duration / dt)}"]
    lmp = runtime.open_lammps(plugin, ["-log", str(folder / "log.lammps")])
    try:
        for line in lines:
            lmp.command(line)
    finally:
        lmp.close()
    text = (folder / "log.lammps").read_text().splitlines()
    header = next(k for k, line in enumerate(text) if line.split()[:2] == ["Step", "KinEng"])
    names = text[header].split()
    first, last = ([float(v) for v in text[header + k].split()] for k in (1, 2))
    start, end = dict(zip(names, first)), dict(zip(names, last))
    dissipated = sum(end[name] for name in names[7:-1])
    total = lambda row: row["KinEng"] + row["c_rot"] + row["PotEng"] + row["c_height"]
    assert end["PotEng"] == pytest.approx(end["c_pair"] + end["f_walls"], rel=1e-12, abs=1e-300)
    return {"start": total(start), "end": total(end), "dissipated": dissipated,
            "wall_work": end["f_walls[27]"], "kinetic": start["KinEng"] + start["c_rot"]}


@pytest.mark.parametrize("law", ["calibrated_plugin", "plugin"])
@pytest.mark.parametrize("ratio, local", [(0.0, 0.0), (0.3, 0.2)], ids=["undamped", "damped"])
def test_pour_closes_its_energy_budget(request, law, tmp_path, ratio, local):
    """kinetic + stored (pe: the contacts' potentials) + gravity's potential + dissipated
    (friction, dashpots, local damping) stays what it was at the start, with either law (the
    simplified law's tangential energy its spring's T^2/(2 kt)); the residual, relative
    to the energy that went through the contacts, falls about fourfold when dt halves."""
    residuals = []
    for k, dt in enumerate((4e-6, 2e-6)):
        folder = tmp_path / f"dt{k}"
        folder.mkdir()
        budget = pour_budget(request.getfixturevalue(law), folder, dt, ratio, local)
        assert budget["wall_work"] == 0.0  # the walls stand still
        residual = budget["end"] + budget["dissipated"] - budget["start"]
        residuals.append(abs(residual) / budget["dissipated"])
        print(f"dt {dt:g}: dissipated {budget['dissipated']:.6g} J/m of "
              f"{budget['start']:.6g}, residual {residual:.3g} J/m ({residuals[-1]:.2g})")
    assert residuals[0] < 1e-3
    assert residuals[1] < residuals[0] / 2.5
