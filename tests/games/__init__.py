"""One folder per game: its rules line by line, its properties, its bots."""
