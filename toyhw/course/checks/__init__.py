"""Each notebook's exercise checks, one module per notebook (`nb01` ... `nb08`): `checks.exercise_N(...)` -> Verdict.

A check computes what can be computed about the student's answer with the pack itself (never by comparing with the
solution file's code) and says in one line whether it holds. CI runs every check on its stub (it must fail) and on
the solution in notebooks/solutions/ (it must pass): tests/test_exercises.py.
"""
