import sys

from hertz2d.calibration.cli import main

if __name__ == "__main__":  # python -m hertz2d.calibration; importing the module runs nothing
    sys.exit(main())
