"""A run's frames for viewing: snapshots coloured by diameter, a ParaView time series, an animation.

- :func:`draw_frame`: one frame on a matplotlib axis, each disc a circle of its radius coloured by
  its diameter, the box's walls around them (the paper's Fig. 16).
- :func:`write_paraview`: one ``.vtu`` file per frame (meshio, zlib-compressed binary) and a
  ``.pvd`` collection that ParaView opens as a time series. Each file has two blocks: the discs as
  points (``vertex`` cells) with point data ``radius``, ``diameter``, ``velocity`` (vx, vy, 0),
  ``spin`` (omega, rad/s), ``stress`` (the Love-Weber stress, xx, yy, zz, xy, yz, xz in Pa with
  zz = yz = xz = 0, tension positive, :func:`hertz2d.dem.analysis.disc_stresses`), ``pressure`` (minus the
  in-plane mean stress) and ``contacts``; and the box as four lines (Glyph the discs with a
  sphere scaled by ``radius`` to see them as discs).
- :func:`write_animation`: every frame drawn with :func:`draw_frame` into an mp4 when ffmpeg is
  available to matplotlib, else a GIF (Pillow); small (a few hundred pixels, 10 frames per s).

Frames come from :class:`hertz2d.dem.biaxial.Frames` (any object with the same fields).
"""
from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import quoteattr

import numpy as np

from hertz2d.calibration.runs.atomic import atomic_path, write_text

#: colour map of the diameters
COLOURS = "viridis"
#: the animation's frame rate and its frames' size (inches at ANIMATION_DPI)
FRAMES_PER_SECOND = 10
ANIMATION_SIZE, ANIMATION_DPI = (3.2, 4.0), 80


def draw_frame(axis, frames, index: int, limits, diameter_range=None, title: str | None = None):
    """Draw frame ``index`` on ``axis`` within ``limits`` ((x0, x1), (y0, y1)); returns the
    discs' collection and the box's rectangle (:func:`move_to` moves them to another frame)."""
    from matplotlib.collections import EllipseCollection
    from matplotlib.patches import Rectangle

    diameters = 2.0 * frames.radius
    low, high = diameter_range or (diameters.min(), diameters.max())
    discs = EllipseCollection(diameters, diameters, np.zeros_like(diameters), units="xy",
                              offsets=np.asarray(frames.position[index])[:, :2],
                              offset_transform=axis.transData, cmap=COLOURS, linewidths=0.3,
                              edgecolors="0.2")
    discs.set_array(diameters)
    discs.set_clim(low, high)
    axis.add_collection(discs)
    box = Rectangle((0.0, 0.0), 1.0, 1.0, fill=False, linewidth=1.2, edgecolor="k")
    axis.add_patch(box)
    axis.set_xlim(*limits[0])
    axis.set_ylim(*limits[1])
    axis.set_aspect("equal")
    axis.set_xticks([])
    axis.set_yticks([])
    move_to(frames, index, discs, box)
    axis.set_title(title if title is not None else _caption(frames, index), fontsize=8)
    return discs, box


def move_to(frames, index: int, discs, box) -> None:
    """Put the collection and rectangle of :func:`draw_frame` at frame ``index``."""
    discs.set_offsets(np.asarray(frames.position[index])[:, :2])
    left, right, bottom, top = frames.box[index]
    box.set_bounds(left, bottom, right - left, top - bottom)


def _caption(frames, index: int) -> str:
    return f"t = {frames.time[index]:.2f} s ({frames.stage[index]})"


def frame_limits(frames, margin: float = 0.02):
    """Axis limits holding every frame's box."""
    boxes = np.asarray(frames.box)
    return ((boxes[:, 0].min() - margin, boxes[:, 1].max() + margin),
            (boxes[:, 2].min() - margin, boxes[:, 3].max() + margin))


def _disc_mesh(frames, index: int):
    import meshio

    n = len(frames.radius)
    points = np.zeros((n, 3))
    points[:, :2] = frames.position[index][:, :2]
    velocity = np.zeros((n, 3))
    velocity[:, :2] = frames.velocity[index][:, :2]
    in_plane = np.asarray(frames.stress[index])
    stress = np.zeros((n, 6))
    stress[:, 0], stress[:, 1], stress[:, 3] = in_plane[:, 0], in_plane[:, 1], in_plane[:, 2]
    return meshio.Mesh(points, [("vertex", np.arange(n).reshape(-1, 1))], point_data={
        "radius": frames.radius, "diameter": 2.0 * frames.radius, "velocity": velocity,
        "spin": frames.velocity[index][:, 2], "stress": stress,
        "pressure": -0.5 * (in_plane[:, 0] + in_plane[:, 1]),
        "contacts": np.asarray(frames.contacts[index], dtype=float)})


def _box_mesh(frames, index: int):
    import meshio

    left, right, bottom, top = frames.box[index]
    corners = np.array([[left, bottom, 0.0], [right, bottom, 0.0], [right, top, 0.0],
                        [left, top, 0.0]])
    return meshio.Mesh(corners, [("line", np.array([[0, 1], [1, 2], [2, 3], [3, 0]]))])


def write_paraview(frames, folder, name: str = "biaxial") -> Path:
    """The ``.vtu`` files and ``<name>.pvd`` in ``folder`` (module docstring); returns the
    ``.pvd``'s path."""
    import meshio

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for index, time in enumerate(frames.time):
        for part, (kind, mesh) in enumerate((("discs", _disc_mesh(frames, index)),
                                             ("box", _box_mesh(frames, index)))):
            file = f"{name}_{kind}_{index:04d}.vtu"
            with atomic_path(folder / file) as tmp:
                meshio.write(tmp, mesh, file_format="vtu")
            entries.append(f'    <DataSet timestep="{time:.6g}" group="" part="{part}" '
                           f'name={quoteattr(kind)} file={quoteattr(file)}/>')
    collection = "\n".join(['<?xml version="1.0"?>',
                            '<VTKFile type="Collection" version="0.1" '
                            'byte_order="LittleEndian">', "  <Collection>", *entries,
                            "  </Collection>", "</VTKFile>", ""])
    return write_text(collection, folder / f"{name}.pvd")


def animation_format() -> str:
    """``mp4`` when matplotlib finds ffmpeg, else ``gif``."""
    from matplotlib import animation

    return "mp4" if animation.writers.is_available("ffmpeg") else "gif"


def write_animation(frames, path_without_suffix, title: str = "") -> Path:
    """Every frame as one animation (``.mp4`` or ``.gif``, :func:`animation_format`); returns
    its path."""
    import matplotlib.pyplot as plt
    from matplotlib import animation

    suffix = animation_format()
    path = Path(f"{path_without_suffix}.{suffix}")
    limits = frame_limits(frames)
    figure, axis = plt.subplots(figsize=ANIMATION_SIZE, dpi=ANIMATION_DPI)
    figure.subplots_adjust(left=0.02, right=0.98, bottom=0.02, top=0.86)
    discs, box = draw_frame(axis, frames, 0, limits)
    heading = axis.set_title("", fontsize=8)

    def draw(index):
        move_to(frames, index, discs, box)
        heading.set_text(f"{title}\n{_caption(frames, index)}")
        return discs, box, heading

    movie = animation.FuncAnimation(figure, draw, frames=len(frames.time), blit=False)
    writer = (animation.FFMpegWriter(fps=FRAMES_PER_SECOND) if suffix == "mp4"
              else animation.PillowWriter(fps=FRAMES_PER_SECOND))
    try:
        with atomic_path(path) as tmp:
            movie.save(tmp, writer=writer, dpi=ANIMATION_DPI)
    finally:
        plt.close(figure)
    return path
