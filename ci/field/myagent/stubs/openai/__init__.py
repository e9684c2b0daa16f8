"""Import-only stand-in for the openai package (field trial of JasonDZS/myagent).

myagent/llm.py imports these names at module load; the fake pipeline never
calls a model, so constructing a client is all that has to work.
"""


class OpenAIError(Exception):
    """Base error."""


class APIError(OpenAIError):
    """API error."""


class AuthenticationError(APIError):
    """Authentication error."""


class RateLimitError(APIError):
    """Rate limit error."""


class _NoNetwork:
    """A client whose every call fails: the fake pipeline never reaches it."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs

    def __getattr__(self, name):
        raise OpenAIError(f"openai stub: {name} is not available in the field trial")


class AsyncOpenAI(_NoNetwork):
    """Stand-in for openai.AsyncOpenAI."""


class AsyncAzureOpenAI(_NoNetwork):
    """Stand-in for openai.AsyncAzureOpenAI."""
