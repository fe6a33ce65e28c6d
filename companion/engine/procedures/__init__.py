"""The procedures of the rules, one module each; companion.engine.registry imports them all.

Each module registers what it handles (commands, prompt kinds, typed table pieces) on import and
uses the engine's small modules below it (scratch, handlers, prompting, characters, terrain,
rows, validators, exhaustion, model, dice); a procedure imports another only for that one's
rules (e.g. the travel round rolls the weather and the encounter check), never the registry, the
view or core — the import contract in pyproject.toml ([tool.importlinter]) lists the order.
"""
