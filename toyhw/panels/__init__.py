"""Widget panels: functions that return an ipywidgets.Widget (they never display themselves).

Each panel's callback does one core computation and one `toyhw.plots` call, drawing into an Output of fixed height
(no flicker). A failing callback shows its error in the panel instead of leaving it half drawn.
"""
