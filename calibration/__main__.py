import sys

from calibration.cli import main

if __name__ == "__main__":  # python -m calibration; importing the module runs nothing
    sys.exit(main())
