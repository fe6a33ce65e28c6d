"""Speech: the companion says answers and announcements aloud (laptop speakers or pages)."""
