import sys

from banker.cli import main

sys.exit(main())
