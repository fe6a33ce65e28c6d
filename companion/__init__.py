"""Companheiro de mesa: runs the GM's procedures from Portuguese commands."""
