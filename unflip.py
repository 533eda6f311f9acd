#!/usr/bin/env python3
"""unflip from a checkout: `python unflip.py daily 5`. The front end is the unflip_frontend package beside
this file (installed, the same code is the `unflip` command); the search is ./unflip_solver's."""

from unflip_frontend.cli import main

if __name__ == "__main__":
    main(prog_name="unflip.py")
