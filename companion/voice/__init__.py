"""Voice: one more input into the same parse → apply → persist → broadcast path.

Layers, one job each: `config` (tables/voz.yaml, typed), `spoken` (grammar words as the
recogniser says them), `phrases` (the recogniser's phrase list, from the same templates as the
chat), `reading` (the strict voice reading), `gate` (wake word and listening modes),
`recognizer` (the Vosk adapter), `sources` (WAV files, the laptop microphone), `listener` (the
thread that ties them to a session).
"""
