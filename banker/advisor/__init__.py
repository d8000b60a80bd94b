"""The advisor: where tokens land in the long run, and how fast each purchase pays for itself."""
