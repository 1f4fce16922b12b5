"""A full-page screenshot of the HTML report in headless Chromium, to check what a reader sees."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from hertz2d.checks import InputError

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
#: flags for a sandboxed, offline machine (no first-run, no background networking)
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars")


def find_browser() -> str | None:
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def screenshot(html: Path, png: Path, width: int = 1280, height: int = 40000) -> Path:
    """Render ``html`` in a ``width`` x ``height`` window into ``png``, blank space below trimmed."""
    browser = find_browser()
    if browser is None:
        raise InputError("screenshot needs Chromium; install it with "
                         "`apt-get install chromium` (Debian) or put it on PATH")
    png = Path(png).resolve()
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}",
                        f"--window-size={width},{height}", f"--screenshot={png}",
                        Path(html).resolve().as_uri()],
                       check=True, capture_output=True, timeout=120)
    _trim_bottom(png)
    return png


def _trim_bottom(png: Path) -> None:
    """Crop the white rows below the page's last content (the window is taller than the page)."""
    import numpy as np
    from PIL import Image
    with Image.open(png) as image:
        grey = np.asarray(image.convert("L"))
        content = np.flatnonzero(grey.min(axis=1) < 250)
        cropped = image.crop((0, 0, image.width, int(content.max()) + 40 if content.size else 1))
    cropped.save(png)
