"""Values the command line declares its options with, kept apart from the modules that use them (hints.py,
difficulty.py, links.py), so that declaring the options loads none of those: a solve needs none of them
(docs/results.md, "Start-up")."""

PREFERENCES = ("eric", "obvious")  # hint --prefer: the signal whose least value the game's hint rule seeks
FIGURE_NAMES = ("par", "eric", "obv", "gap")  # difficulty.FIGURES' names, in order: --order-by's choices
# share --page's default: where the game is played. Its editor builds a link from the page it runs on (origin
# and path), and this is the page the game is published at.
GAME_PAGE = "https://unflipgame.com/"
