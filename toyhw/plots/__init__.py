"""All plotting of the pack, one module per lecture topic; core modules never import matplotlib.

Every plotting function takes `ax=None` (draws into a new figure when None), labels its axes with units and returns the
Axes, so that notebooks and widget panels can compose them (d2l's and Neuromatch's plotting habit).
"""
