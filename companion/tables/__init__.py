"""The tables layer: the files of tables/, their typed pieces, narration and the small shared words."""
