"""``llm``: a language model in a seat, through any OpenAI-compatible chat-completions endpoint (the ``llm`` extra).

``llm(model='gpt-4.1-mini')`` reads the key from ``OPENAI_API_KEY`` (``api_key_env`` names another variable; the key is
never written anywhere); ``base_url`` points it at any other server that speaks the API — vLLM, llama.cpp's server,
Ollama — where a key may be absent. Each decision sends the seat's view as text (:func:`hearts_env.text.view_text`,
with the legal cards unless ``legal_moves=False``) and reads the card with :func:`hearts_env.text.parse_answer`.
Game Arena's conventions:

- an answer that names no card, several, or one that may not be played is quoted back once with the reason
  (``retries``, default 1) and the model answers again; a second such answer **forfeits the game** (the arena's
  agent error: the seat is charged the deal's penalty total), and so does an empty, cut-off (``finish_reason``
  ``length``) or refused answer after its retry;
- a rate limit (HTTP 429) waits what ``Retry-After`` asks (at most ``max_wait`` seconds, default 60) and asks again,
  up to ``rate_limit_retries`` times (default 5); a server error (5xx), a dropped connection or a request past
  ``timeout`` seconds is asked again up to ``server_retries`` times (default 2, after 1 s and 2 s); past those the
  game is forfeited naming the failure. None of these is charged as a retry of the answer;
- every token is counted: prompt, completion and, where the server reports them, reasoning tokens
  (:attr:`LLMAgent.usage`; per deal in :meth:`LLMAgent.deal_notes`), and each decision's prompt, answers and card in
  :attr:`LLMAgent.transcript` (the deal in play's, :meth:`LLMAgent.deal_transcript`): the arena records both with
  every deal, a game the model forfeited included.

Calls for different games run concurrently as the arena's workers do (``--jobs``): a model's latency, not the CPU,
bounds a run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

from hearts_env.agents import Agent, AgentError
from hearts_env.agents.failures import Forfeit
from hearts_env.rules import Rules
from hearts_env.text import AnswerError, format_card, parse_answer, view_text
from hearts_env.views import SeatView

SYSTEM = ("You are playing the card game Hearts. Each message describes the game from your seat. Think as briefly or "
          "as long as you like, then end your reply with one line of the form 'Final Answer: CARD', where CARD is a "
          "card such as QS (queen of spades), TH (ten of hearts) or 2C.")
"""The system message of every conversation (one per decision)."""

RETRY = "Your answer cannot be played: {reason}. Answer again, ending with 'Final Answer: CARD'."
"""What a retry says, quoting the reason (:class:`~hearts_env.text.AnswerError`)."""


class ModelForfeit(Forfeit):
    """The model's decision failed past its retries: the game is forfeited (the arena's agent error, recorded as its
    line alone)."""


class LLMAgent(Agent):
    """A language model in a seat (see the module docstring)."""

    name = "llm"

    def __init__(self, model: str, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 legal_moves: bool = True, retries: int = 1, timeout: float = 120.0, rate_limit_retries: int = 5,
                 server_retries: int = 2, max_wait: float = 60.0, temperature: float | None = None,
                 max_tokens: int | None = None, reasoning_effort: str | None = None, stream: bool = False):
        super().__init__()
        try:
            import openai
        except ImportError:
            raise AgentError("llm needs the openai client: pip install 'hearts-env[llm]'") from None
        for name, value in (("retries", retries), ("rate_limit_retries", rate_limit_retries),
                            ("server_retries", server_retries)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise AgentError(f"llm: {name} must be a whole number >= 0, got {value!r}")
        key = os.environ.get(api_key_env)
        if not key and base_url is None:
            raise AgentError(f"llm: no API key: set {api_key_env} (or give base_url= for a server that needs none)")
        self.openai = openai
        self.client = openai.OpenAI(api_key=key or "none", base_url=base_url, timeout=timeout, max_retries=0)
        self.model = model
        self.legal_moves = legal_moves
        self.retries = retries
        self.rate_limit_retries = rate_limit_retries
        self.server_retries = server_retries
        self.max_wait = max_wait
        self.options: dict[str, Any] = {k: v for k, v in (("temperature", temperature),
                                                          ("max_completion_tokens", max_tokens),
                                                          ("reasoning_effort", reasoning_effort)) if v is not None}
        self.stream = stream
        self.usage = {"calls": 0, "retries": 0, "forfeits": 0, "prompt_tokens": 0, "completion_tokens": 0,
                      "reasoning_tokens": 0, "waits": 0}
        self._deal_start = dict(self.usage)
        self.transcript: list[dict[str, Any]] = []

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        super().reset(rules, seat, seed)
        self._deal_start = dict(self.usage)
        self.transcript = []

    def act(self, view: SeatView) -> int:
        prompt = view_text(view, self.legal_moves)
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
        decision: dict[str, Any] = {"prompt": prompt, "answers": [], "card": None}
        self.transcript.append(decision)
        for attempt in range(self.retries + 1):
            answer, finish = self._complete(messages)
            decision["answers"].append(answer)
            try:
                if finish == "length":
                    raise AnswerError("unreadable", "the answer was cut off before it named a card")
                card = parse_answer(answer, view.rules, view.legal)
            except AnswerError as e:
                if attempt == self.retries:
                    self.usage["forfeits"] += 1
                    raise ModelForfeit(f"the model's answer, after {self.retries} retry(ies): {e}") from None
                self.usage["retries"] += 1
                messages += [{"role": "assistant", "content": answer},
                             {"role": "user", "content": RETRY.format(reason=e)}]
                continue
            decision["card"] = format_card(card, view.rules)
            return card
        raise AssertionError("unreachable")  # the loop returns or raises

    def _complete(self, messages: list[dict[str, str]]) -> tuple[str, str | None]:
        """One answer and its finish reason, through rate limits and server failures (the module docstring)."""
        openai = self.openai
        waits = failures = 0
        while True:
            self.usage["calls"] += 1
            try:
                return self._request(messages)
            except openai.RateLimitError as e:
                if waits == self.rate_limit_retries:
                    self.usage["forfeits"] += 1
                    raise ModelForfeit(f"rate limited {waits + 1} times in a row (HTTP 429)") from None
                waits += 1
                self.usage["waits"] += 1
                time.sleep(min(self.max_wait, _retry_after(e.response)))
            except (openai.APITimeoutError, openai.APIConnectionError, openai.InternalServerError) as e:
                if failures == self.server_retries:
                    self.usage["forfeits"] += 1
                    raise ModelForfeit(f"the server failed {failures + 1} times in a row ({_failure(e)})") from None
                failures += 1
                time.sleep(float(failures))
            except openai.APIStatusError as e:  # 4xx but 429: a request this harness or the model cannot fix
                self.usage["forfeits"] += 1
                raise ModelForfeit(f"the server refused the request (HTTP {e.status_code}: {_failure(e)})") from None

    def _request(self, messages: list[dict[str, str]]) -> tuple[str, str | None]:
        if not self.stream:
            response = self.client.chat.completions.create(model=self.model, messages=messages,  # type: ignore
                                                           **self.options)
            self._count(response.usage)
            choice = response.choices[0] if response.choices else None
            if choice is None:
                return "", None
            message = choice.message
            text = message.content or ""
            if not text and getattr(message, "refusal", None):
                text = f"(refused: {message.refusal})"
            return text, choice.finish_reason
        parts: list[str] = []
        finish = None
        chunks = self.client.chat.completions.create(model=self.model, messages=messages, stream=True,  # type: ignore
                                                     stream_options={"include_usage": True}, **self.options)
        for chunk in chunks:
            if chunk.usage is not None:
                self._count(chunk.usage)
            for choice in chunk.choices:
                parts.append(choice.delta.content or "")
                finish = choice.finish_reason or finish
        return "".join(parts), finish

    def _count(self, usage: Any) -> None:
        if usage is None:
            return
        self.usage["prompt_tokens"] += int(usage.prompt_tokens or 0)
        self.usage["completion_tokens"] += int(usage.completion_tokens or 0)
        details = getattr(usage, "completion_tokens_details", None)
        self.usage["reasoning_tokens"] += int(getattr(details, "reasoning_tokens", 0) or 0)

    def deal_notes(self) -> dict[str, int]:
        """This deal's counts (calls, retries, forfeits, tokens, rate-limit waits): what the arena records."""
        return {k: v - self._deal_start[k] for k, v in self.usage.items()}

    def deal_transcript(self) -> list[dict[str, Any]]:
        """This deal's decisions, each its prompt, the model's answers and the card read (None: forfeited)."""
        return list(self.transcript)


def _retry_after(response: Any) -> float:
    """The seconds a 429 asks to wait (``Retry-After`` in seconds), 1 when it does not say."""
    try:
        return max(0.0, float(response.headers.get("retry-after", 1)))
    except (AttributeError, TypeError, ValueError):
        return 1.0


def _failure(error: Exception) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:160]}"
