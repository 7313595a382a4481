"""Model backends: OpenAI-compatible chat endpoints (presets openrouter, vllm, openai, generic), retries, rate
limiting, replica spreading, a durable request store and a bounded-concurrency batch engine.

This package knows nothing of any task: it sends chat messages and returns typed results.
"""

from jiancha.llm.config import (
    REASONING_EFFORTS,
    BackendSpec,
    ClientConfig,
    GenerationConfig,
)
from jiancha.llm.types import ChatRequest, ChatResult

__all__ = ["REASONING_EFFORTS", "BackendSpec", "ChatRequest", "ChatResult", "ClientConfig", "GenerationConfig"]
