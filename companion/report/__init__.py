"""The session report: gather (log → typed report), charts (SVG), render (HTML), export.

Imports run one way: engine, store ← report.source ← report.gather ← report.render/export ←
{cli, server.report}. The report reads only the stored log (commands, events, the optional
`utterances` table of the voice listener) and the engine's public `apply`/`view_state` to
replay it; it never changes the log.
"""
from __future__ import annotations
