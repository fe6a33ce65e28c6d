"""What the table lived through: the stored state's codec, replay, each viewer's projection, a command's outcome."""
