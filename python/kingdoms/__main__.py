import sys

from kingdoms.cli import main

sys.exit(main())
