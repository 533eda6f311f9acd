"""The names by which the command line offers the signals (docs/designer.md) as choices: hint --prefer's and
generate --order-by's. They live apart from hints.py and difficulty.py, which compute the signals, so that
declaring the options loads neither: a solve needs neither (docs/results.md, "Start-up")."""

PREFERENCES = ("eric", "obvious")  # hint --prefer: the signal whose least value the game's hint rule seeks
FIGURE_NAMES = ("par", "eric", "obv", "gap")  # difficulty.FIGURES' names, in order: --order-by's choices
