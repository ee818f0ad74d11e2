"""The class leaderboard (lecture 14, notebook 07): students submit tiling heuristics as source; a board started by
the lecturer (`python -m toyhw board serve`) scores them on held-out shapes and shows them beside the expert, the
oracle and the mini AlphaEvolve's best program.

Read in this order: `shapes` (the held-out shape set and how it is drawn), `scoring` (a submission parsed, every
branch checked, scored; the fixed rows), `store` (the SQLite file that keeps the board across restarts), `protocol`
(what a submission may be, and the one-line refusals), `server` (the HTTP server), `client` (`submit` and
`fetch_board`, for a notebook cell). The live table a notebook shows is toyhw.panels.board.

Nothing here opens a socket on import: only `server.serve` listens, and only while it runs.
"""
