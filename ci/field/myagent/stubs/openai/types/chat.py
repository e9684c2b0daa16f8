"""Import-only stand-in for openai.types.chat."""


class ChatCompletionMessage:
    """Stand-in type; never instantiated by the fake pipeline."""


class ChatCompletion:
    """Stand-in type; never instantiated by the fake pipeline."""
