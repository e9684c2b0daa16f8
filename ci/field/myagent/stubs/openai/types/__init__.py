"""Import-only stand-in for openai.types."""
