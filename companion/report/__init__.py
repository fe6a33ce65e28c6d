"""The session report: gather (log → typed report), cells (what each cell says), charts (SVG),
render (HTML, by the templates of web/templates/relatorio/), export (CSV, JSON).

Imports run one way: engine, store ← report.errors ← report.source ← report.gather ←
report.cells/render/export ← {cli, server.report_pages}. The report reads only the stored log
(commands, events, the optional `utterances` table of the voice listener) and the engine's
public `apply`/`view_state` to replay it; it never changes the log.
"""
from __future__ import annotations
