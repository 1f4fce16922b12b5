import sys

from calibration.cli import main

sys.exit(main())
